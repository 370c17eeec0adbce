package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// providerConfig writes a config file in a temporary directory and returns
// its path. No key of the environment reaches the test: each is cleared.
func providerConfig(t *testing.T, doc string) string {
	t.Helper()
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY", "OPENROUTER_API_KEY", "XAI_API_KEY", "GROQ_API_KEY"} {
		t.Setenv(k, "")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// refusedURL is a loopback base URL nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// TestProvidersList: every provider the config can use, one row each, the
// default marked; where the key comes from, never the key.
func TestProvidersList(t *testing.T) {
	cfg := providerConfig(t, `provider = "work"
[providers.work]
base_url = "https://user:hunter2@gw.example.test/v1"
api_key_env = "WORK_KEY"
[providers.ollama]
base_url = "http://gpu-box:11434/v1"
`)
	t.Setenv("WORK_KEY", "sk-work-secret-value")
	out, errOut, code := runnel(t, "", "--config", cfg, "providers")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(strings.TrimPrefix(line, "*"))
		rows[f[0]] = line
	}
	for name, want := range map[string][]string{
		"work":     {"* work", "https://user:xxxxx@gw.example.test/v1", "$WORK_KEY (set)", "config"},
		"default":  {"https://api.openai.com/v1", "$OPENAI_API_KEY (not set)"},
		"ollama":   {"http://gpu-box:11434/v1", "no key", "built in, changed by the config"},
		"azure":    {"(needs base_url)", "$AZURE_OPENAI_API_KEY (not set)", "built in"},
		"llamacpp": {"http://localhost:8080/v1", "no key"},
	} {
		for _, w := range want {
			if !strings.Contains(rows[name], w) {
				t.Errorf("row %s lacks %q: %q", name, w, rows[name])
			}
		}
	}
	if len(rows) != 11 {
		t.Errorf("%d rows, want 11 (default, work and the 9 built in):\n%s", len(rows), out)
	}
	if strings.Contains(out, "sk-work-secret-value") || strings.Contains(out, "hunter2") {
		t.Errorf("a secret is shown:\n%s", out)
	}
}

// TestProvidersCheck asks loopback servers, all at once: one answers its
// list, an answer and a chained one; one 401, one refuses the connection;
// a provider without its key is not set up and not asked. A llama.cpp-
// and a responses.js-shaped server are found to keep no state, and
// `runnel providers` shows it until `runnel providers forget`. One line
// each, in order; exit 1 as a provider that is set up failed.
func TestProvidersCheck(t *testing.T) {
	ok := streamtest.NewAs(t, streamtest.OpenAI(), nil)
	ok.SetModels("model-a", "model-b")
	servers := liveServers(t)
	llama := streamtest.NewAs(t, servers["llama.cpp"], nil)
	llama.SetModels("tiny")
	rjs := streamtest.NewAs(t, servers["responses.js"], nil)
	var sawKey string
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawKey = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"Incorrect API key provided: sk-bad-key-0123.","type":"invalid_request_error","code":"invalid_api_key"}}`))
	}))
	defer denied.Close()
	cfg := providerConfig(t, `[providers.good]
base_url = "`+ok.URL+`"
[providers.bad]
base_url = "`+denied.URL+`/v1"
api_key_env = "BAD_KEY"
[providers.gone]
base_url = "`+refusedURL(t)+`"
[providers.llama]
base_url = "`+llama.URL+`"
model = "tiny"
[providers.rjs]
base_url = "`+rjs.URL+`"
model = "tiny"
`)
	t.Setenv("BAD_KEY", "sk-bad-key-0123")
	data := []string{"--data-dir", t.TempDir()}
	out, errOut, code := runnel(t, "", append([]string{"--config", cfg, "providers", "check", "good", "bad", "gone", "xai", "llama", "rjs"}, data...)...)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d (want 1), stderr %q\n%s", code, errOut, out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := []string{
		"good   ok: 2 models (" + ok.URL + "); answers; a chained answer keeps the first",
		"bad    HTTP 401 Unauthorized: Incorrect API key provided: [redacted]. (" + denied.URL + "/v1)",
		"gone   connection refused (",
		"xai    not set up: no key ($XAI_API_KEY is not set); nothing was sent",
		"llama  ok: 1 model (" + llama.URL + "); answers; keeps no state (it refused previous_response_id)",
		"rjs    ok: no model list (" + rjs.URL + "); answers; keeps no state (it ignored previous_response_id)",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d\n got %q\nwant %q…", i+1, lines[i], w)
		}
	}
	if sawKey != "Bearer sk-bad-key-0123" {
		t.Errorf("the 401 server saw Authorization %q", sawKey)
	}
	for _, r := range ok.Requests() {
		if r.Header.Get("Authorization") != "" {
			t.Error("a provider with no key variable sent a key")
		}
	}
	out, _, code = runnel(t, "", append([]string{"--config", cfg, "providers", "check", "good", "xai"}, data...)...)
	if code != 0 || !strings.HasPrefix(out, "good  ok: 2 models") {
		t.Errorf("all that is set up is ok: exit %d\n%s", code, out)
	}
	out, _, _ = runnel(t, "", append([]string{"--config", cfg, "providers"}, data...)...)
	if !regexp.MustCompile(`(?m)^  llama .*keeps no state \(learned [0-9]+ [A-Z][a-z]+\)`).MatchString(out) {
		t.Errorf("the list does not say what was learned:\n%s", out)
	}
	out, _, code = runnel(t, "", append([]string{"--config", cfg, "providers", "forget", "llama"}, data...)...)
	if code != 0 || !strings.Contains(out, "forgot what was learned of "+llama.URL) {
		t.Errorf("forget: exit %d\n%s", code, out)
	}
	out, _, _ = runnel(t, "", append([]string{"--config", cfg, "providers"}, data...)...)
	if regexp.MustCompile(`(?m)^  llama .*keeps no state`).MatchString(out) || !regexp.MustCompile(`(?m)^  rjs .*keeps no state`).MatchString(out) {
		t.Errorf("forget forgot the wrong one:\n%s", out)
	}
}

// TestProviderFlag: --provider picks a provider for the run (its URL, no
// other provider's key); an unknown one is one line and exit 2.
func TestProviderFlag(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "from ollama")})
	cfg := providerConfig(t, "[providers.ollama]\nbase_url = \""+srv.URL+"\"\nmodel = \"qwen3:8b\"\n")
	t.Setenv("OPENAI_API_KEY", "sk-openai-only")
	out, errOut, code := runnel(t, "", "--config", cfg, "--provider", "ollama", "--format", "text", "-p", "hi")
	if code != 0 || !strings.Contains(out, "from ollama") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "" || reqs[0].JSON()["model"] != "qwen3:8b" || reqs[0].JSON()["store"] != false {
		t.Fatalf("request: %d, auth %q, body %s", len(reqs), reqs[0].Header.Get("Authorization"), reqs[0].Body)
	}
	_, errOut, code = runnel(t, "", "--config", cfg, "--provider", "olama", "-p", "hi")
	if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `--provider olama: unknown provider "olama" (did you mean "ollama"?)`) {
		t.Errorf("unknown provider: exit %d, stderr %q", code, errOut)
	}
}

// TestContinueOnStoredProvider: -c goes on on the provider the session was
// saved on; --provider moves it, and then the first request carries the
// history instead of the other server's response id.
func TestContinueOnStoredProvider(t *testing.T) {
	a, b := streamtest.New(t), streamtest.New(t)
	a.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a1", "third answer")})
	b.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_b1", "first answer")}, streamtest.Reply{SSE: streamtest.Text("resp_b2", "second answer")})
	cfg := providerConfig(t, "[provider]\nbase_url = \""+a.URL+"\"\n[providers.box]\nbase_url = \""+b.URL+"\"\n")
	t.Setenv("OPENAI_API_KEY", "sk-default")
	setDataHome(t, t.TempDir())
	if out, errOut, code := runnel(t, "", "--config", cfg, "--provider", "box", "--format", "text", "-p", "first question"); code != 0 {
		t.Fatalf("first: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runnel(t, "", "--config", cfg, "-c", "--format", "text", "-p", "second question"); code != 0 || !strings.Contains(out, "second answer") {
		t.Fatalf("-c: exit %d\n%s%s", code, out, errOut)
	}
	if len(a.Requests()) != 0 || len(b.Requests()) != 2 {
		t.Fatalf("-c went to the default provider: %d requests there, %d to box", len(a.Requests()), len(b.Requests()))
	}
	if id := b.Requests()[1].PreviousResponseID(); id != "resp_b1" {
		t.Errorf("-c on the same provider chains to %q, want resp_b1", id)
	}
	if out, errOut, code := runnel(t, "", "--config", cfg, "-c", "--provider", "default", "--format", "text", "-p", "third question"); code != 0 || !strings.Contains(out, "third answer") {
		t.Fatalf("-c --provider default: exit %d\n%s%s", code, out, errOut)
	}
	req := a.Requests()[0]
	if id := req.PreviousResponseID(); id != "" {
		t.Errorf("the first request on the other provider chains to %q, a response it never saw", id)
	}
	for _, want := range []string{"first question", "first answer", "second question", "second answer", "third question"} {
		if !strings.Contains(string(req.Body), want) {
			t.Errorf("the request to the other provider lacks %q: %s", want, req.Body)
		}
	}
	if req.Header.Get("Authorization") != "Bearer sk-default" {
		t.Errorf("the default provider got Authorization %q", req.Header.Get("Authorization"))
	}
	if n := strings.Count(string(req.Body), "first question"); n != 1 {
		t.Errorf("the history is sent %d times", n)
	}
	// the session is now on default: -c chains there, with no history
	a.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a2", "fourth answer")})
	if out, errOut, code := runnel(t, "", "--config", cfg, "-c", "--format", "text", "-p", "fourth question"); code != 0 || !strings.Contains(out, "fourth answer") {
		t.Fatalf("-c after the move: exit %d\n%s%s", code, out, errOut)
	}
	if req := a.Requests()[1]; req.PreviousResponseID() != "resp_a1" || strings.Contains(string(req.Body), "first question") {
		t.Errorf("-c after the move does not chain on the new provider: %s", req.Body)
	}
}

// TestProviderCompletion: --provider and `providers check` complete the
// config's providers and the built-in ones, each described.
func TestProviderCompletion(t *testing.T) {
	cfg := providerConfig(t, "[providers.work]\nbase_url = \"https://w.example.test/v1\"\n")
	for _, args := range [][]string{{"__complete", "--config", cfg, "--provider", ""}, {"__complete", "--config", cfg, "providers", "check", ""}} {
		out, _, code := runnel(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for _, want := range []string{"work\tfrom the config", "ollama\tOllama on this machine", "default\t", "azure\t"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s", args, want, out)
			}
		}
	}
}

// TestContinueOnAKeylessProvider: a session saved on a provider that needs
// no key (ollama) continues there with -c -p, even while the default
// provider has no key (the demo refusal waits until the session's provider
// is known); without the session, -p still refuses the demo.
func TestContinueOnAKeylessProvider(t *testing.T) {
	srv := streamtest.NewAs(t, streamtest.Ollama(), nil)
	cfg := providerConfig(t, "[providers.ollama]\nbase_url = \""+srv.URL+"\"\n")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	setDataHome(t, t.TempDir())
	if out, errOut, code := runnel(t, "", "--config", cfg, "--provider", "ollama", "--format", "text", "-p", "first"); code != 0 {
		t.Fatalf("first: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runnel(t, "", "--config", cfg, "-c", "--format", "text", "-p", "second")
	if code != 0 || !strings.Contains(out, "You said: second") {
		t.Fatalf("-c on ollama with no default key: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runnel(t, "", "--config", cfg, "-p", "a new one"); code != exitUsage || !strings.Contains(errOut, "no API key") {
		t.Errorf("a new -p on the keyless default: exit %d %s", code, errOut)
	}
}
