package main

// Secrets other than runnel's own use of the key: a server or a model that
// repeats a secret gets it hidden on screen, in the database and in exports.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

const echoKey = "sk-e2e-echo-0123456789abcdef"

// keyParts are pieces of echoKey that no redacted text holds, to catch a
// key shown in parts (wrapped or split).
var keyParts = []string{echoKey, "echo-0123", "0123456789abcdef"}

func holdsKey(s string) bool {
	for _, p := range keyParts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// keyEchoReplies are a 401 whose body repeats the key, a model answer that
// repeats it split across deltas, and an `error` event that repeats it.
func keyEchoReplies() []streamtest.Reply {
	half := len(echoKey) / 2
	return []streamtest.Reply{
		streamtest.UnauthorizedEcho(echoKey),
		{SSE: streamtest.Text("resp_echo", "your key is "+echoKey[:half], echoKey[half:]+" — keep it safe")},
		{SSE: streamtest.Events(
			`{"type":"response.created","response":{"id":"resp_err","status":"in_progress","output":[]}}`,
			`{"type":"error","code":"server_error","message":"upstream rejected `+echoKey+`"}`,
			`{"type":"response.failed","response":{"id":"resp_err","status":"failed","output":[],"error":{"code":"server_error","message":"upstream rejected `+echoKey+`"}}}`,
		)},
	}
}

// TestOneShotRedactsEchoedKey: in -p, none of the three reaches stdout or
// stderr, in any format.
func TestOneShotRedactsEchoedKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", echoKey)
	for _, format := range []string{"markdown", "json"} {
		srv := streamtest.New(t)
		srv.Enqueue(keyEchoReplies()...)
		for i := range 3 {
			out, errOut, _ := runnel(t, "", "-p", "hi", "--base-url", srv.URL, "--format", format)
			if holdsKey(out) || holdsKey(errOut) {
				t.Errorf("%s, reply %d: the key is shown:\nstdout %q\nstderr %q", format, i, out, errOut)
			}
			if !strings.Contains(out+errOut, "[redacted]") {
				t.Errorf("%s, reply %d: no [redacted] marker:\nstdout %q\nstderr %q", format, i, out, errOut)
			}
		}
	}
}

// TestChatRedactsEchoedKey: in the chat, the three replies show [redacted]
// and never the key; the database files and both export formats hold no
// part of it either.
func TestChatRedactsEchoedKey(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	data := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": echoKey, "XDG_DATA_HOME": data}
	srv.Enqueue(keyEchoReplies()...)
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	for i, want := range []string{"Incorrect API key provided", "keep it safe", "upstream rejected"} {
		p.say("turn " + string(rune('a'+i)))
		p.waitText(want)
		s := p.waitTurnEnd()
		if holdsKey(s) {
			t.Errorf("turn %d shows the key:\n%s", i, s)
		}
		if !strings.Contains(s, "[redacted]") {
			t.Errorf("turn %d: no [redacted] marker:\n%s", i, s)
		}
	}
	p.quit()
	s := p.waitText("[exited 0]")
	m := regexp.MustCompile(`runnel -r (\S+)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no resume hint:\n%s", s)
	}
	if holdsKey(readAll(t, data)) {
		t.Error("the key reached the database files")
	}
	for _, format := range []string{"markdown", "json"} {
		b, errOut, code := runBinary(t, map[string]string{"XDG_DATA_HOME": data}, "", "export", m[1], "--format", format)
		if code != exitOK || b == "" {
			t.Fatalf("export %s: exit %d %s", format, code, errOut)
		}
		if holdsKey(b) {
			t.Errorf("the %s export holds the key", format)
		}
		if !strings.Contains(b, "[redacted]") {
			t.Errorf("the %s export has no [redacted] marker:\n%s", format, b)
		}
	}
}

// TestOneShotToolEnvHidesHostedMCPSecrets: a local function that prints its
// environment sees neither the API key's variable nor those a hosted MCP
// tool reads its token and headers from; env_passthrough lets one through.
func TestOneShotToolEnvHidesHostedMCPSecrets(t *testing.T) {
	t.Setenv("DOCS_TOKEN", "docs-token-0123456789")
	t.Setenv("DOCS_HEADER", "docs-header-0123456789")
	t.Setenv("OPENAI_API_KEY", echoKey)
	for _, pass := range []string{"", `env_passthrough = ["DOCS_HEADER"]`} {
		cfg := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(cfg, []byte(`[[tools]]
type = "mcp"
server_label = "docs"
server_url = "https://docs.example/mcp"
authorization_env = "DOCS_TOKEN"
headers_env = { "X-Docs" = "DOCS_HEADER" }

[[functions]]
name = "echo_args"
command = ["env"]
approval = "never"
`+pass+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		srv := streamtest.New(t)
		srv.Enqueue(streamtest.Reply{SSE: functionCallStream("resp_call")}, streamtest.Reply{SSE: streamtest.Text("resp_answer", "ok")})
		_, errOut, code := runnel(t, "", "-p", "env", "--config", cfg, "--base-url", srv.URL, "--format", "markdown")
		reqs := srv.Requests()
		if code != exitOK || len(reqs) != 2 {
			t.Fatalf("exit %d, %d requests: %s", code, len(reqs), errOut)
		}
		out := string(reqs[1].Body)
		if !strings.Contains(out, "function_call_output") || !strings.Contains(out, "PATH=") {
			t.Fatalf("no environment in the output: %s", out)
		}
		for _, v := range []string{"DOCS_TOKEN=", "OPENAI_API_KEY="} {
			if strings.Contains(out, v) {
				t.Errorf("%q: the tool saw %s", pass, v)
			}
		}
		if got := strings.Contains(out, "DOCS_HEADER="); got != (pass != "") {
			t.Errorf("%q: DOCS_HEADER passed = %t", pass, got)
		}
	}
}
