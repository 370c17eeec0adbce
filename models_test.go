package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"runnel/stream/streamtest"
	"runnel/ui/modellist"
)

// TestModelsJSON: `runnel models --json` lists the server's models, one
// JSON object a line, with the table's figures (a config override
// included) and null where nothing is known; the second run reads the
// cache; a server without /models gives one line and the configured model.
func TestModelsJSON(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetModels("gpt-5", "my-local", "gpt-5-mini-2025-08-07")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	cfg := writeConfig(t, "model = \"my-local\"\n[models.\"my-local\"]\ncontext_window = 32768\n")
	data := t.TempDir()
	out, errOut, code := runnel(t, "", "models", "--json", "--base-url", srv.URL, "--config", cfg, "--data-dir", data)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got []modellist.Line
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var x modellist.Line
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, x)
	}
	if len(got) != 3 || got[0].ID != "gpt-5" || got[1].ID != "gpt-5-mini-2025-08-07" || got[2].ID != "my-local" {
		t.Fatalf("%s", out)
	}
	if g := got[0]; *g.ContextWindow != 400_000 || *g.InputPrice != 1.25 || *g.CachedInputPrice != 0.125 || *g.OutputPrice != 10 || g.Configured || !strings.HasPrefix(g.Source, "https://") {
		t.Errorf("gpt-5 %+v", g)
	}
	if g := got[1]; g.OutputPrice == nil || *g.OutputPrice != 2 {
		t.Errorf("a dated snapshot takes its base's prices: %+v", g)
	}
	if g := got[2]; !g.Configured || *g.ContextWindow != 32768 || g.InputPrice != nil || !strings.Contains(out, `"input_price":null`) {
		t.Errorf("my-local %+v", g)
	}
	if _, _, code = runnel(t, "", "models", "--base-url", srv.URL, "--config", cfg, "--data-dir", data); code != exitOK || len(srv.Requests()) != 1 {
		t.Errorf("the second run asked again: %d requests", len(srv.Requests()))
	}

	bare := streamtest.New(t) // no /models: 404
	out, errOut, code = runnel(t, "", "models", "--json", "--base-url", bare.URL, "--model", "gpt-5", "--data-dir", t.TempDir())
	if code != exitOK || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "404") || !strings.Contains(errOut, "configured: gpt-5") {
		t.Fatalf("404: exit %d stderr %q", code, errOut)
	}
	if !strings.Contains(out, `"id":"gpt-5","configured":true,"listed":false`) {
		t.Errorf("404: stdout %q", out)
	}
}

// costDoc is an export whose turns carry usage: each turn priced as the
// model its usage names, else the session's.
func costDoc(id, model string, usages ...string) []byte {
	var turns []string
	for i, u := range usages {
		turns = append(turns, fmt.Sprintf(`{"seq":%d,"prompt":"q","status":"completed","started":"2025-06-01T10:00:00Z","ended":"2025-06-01T10:00:00Z","usage":%s,"items":[]}`, i+1, u))
	}
	return []byte(fmt.Sprintf(`{"runnel_export":1,"session":{"id":%q,"title":"t %s","created":"2025-06-01T10:00:00Z","updated":"2025-06-01T10:00:00Z","settings":{"model":%q}},"turns":[%s]}`,
		id, id, model, strings.Join(turns, ",")))
}

// TestSessionsCost: `runnel sessions` has a COST column and --json a cost
// field: gpt-5 turns priced (cached input at the cached price), a model
// the table lacks gives "-" and null.
func TestSessionsCost(t *testing.T) {
	dir := seedHistory(t,
		costDoc("0k3m9xq4ab", "gpt-5",
			`{"input_tokens":3727,"input_tokens_details":{"cached_tokens":3200},"output_tokens":347,"output_tokens_details":{"reasoning_tokens":128},"model":"gpt-5-2025-08-07"}`,
			`{"input_tokens":1000000,"output_tokens":0}`),
		costDoc("0k3m9xq4cd", "llama3", `{"input_tokens":10,"output_tokens":10}`),
	)
	out, errs, code := historyRun(t, dir, "", false, "sessions", "--json")
	if code != exitOK || errs != "" {
		t.Fatalf("%d %q", code, errs)
	}
	if !strings.Contains(out, `"cost":1.25452875`) || !strings.Contains(out, `"cost":null`) {
		t.Errorf("--json:\n%s", out)
	}
	out, _, _ = historyRun(t, dir, "", false, "sessions")
	if !strings.Contains(out, " COST ") || !strings.Contains(out, "$1.25") || !regexp.MustCompile(`llama3\s+-\s+t 0k3m9xq4cd`).MatchString(out) {
		t.Errorf("table:\n%s", out)
	}
}

// TestModelsBadConfig: a config `models` cannot use gives one line on
// stderr naming the file and the key, nothing on stdout, the usage status,
// and no request to the server.
func TestModelsBadConfig(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetModels("gpt-5")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	cfg := writeConfig(t, "theme = \"../neon\"\n")
	out, errOut, code := runnel(t, "", "models", "--base-url", srv.URL, "--config", cfg, "--data-dir", t.TempDir())
	if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "runnel: ") ||
		!strings.Contains(errOut, "theme") || !strings.Contains(errOut, "neon") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests with a bad config", n)
	}
}
