package main

// End-to-end tests of the history and of local tools, in tmux.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestChatQuitAndContinue: chat, quit, `runnel -c`: the transcript is back
// with its panels, and the next turn chains from the stored response.
func TestChatQuitAndContinue(t *testing.T) {
	t.Parallel()
	dir := sharedtest.RealDir(t)
	srv := streamtest.New(t)
	data := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-secret", "XDG_DATA_HOME": data}
	srv.Enqueue(streamtest.FromFile(filepath.Join(dir, "pydantic__pydantic-ai", "openai-mcp-server-tool.sse")))
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.say("what is pydantic-ai about")
	p.waitText("type-safe scaffold") // the end of the reply (the status read "ready" before it too)
	p.quit()
	s := p.waitText("[exited 0]")
	if !strings.Contains(s, "runnel -r ") {
		t.Errorf("no resume hint on exit:\n%s", s)
	}

	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_next", "continued fine")})
	q := startPane(t, 100, 30, env, binary(t), "-c")
	q.waitText("resumed")
	q.keys("Home")
	q.waitFor("the restored transcript", func(s string) bool {
		return strings.Contains(s, "what is pydantic-ai about") && strings.Contains(s, "deepwiki")
	})
	q.say("and then?")
	q.waitText("continued fine")
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].PreviousResponseID(); !strings.HasPrefix(got, "resp_") || got == "resp_next" {
		t.Errorf("the turn after resuming chains to %q", got)
	}
	if strings.Contains(readAll(t, data), "sk-e2e-secret") {
		t.Error("the API key reached the database")
	}
}

func readAll(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// TestKill9MidStreamThenResume: runnel is killed with SIGKILL while a reply
// streams; on the next start the turn shows as interrupted with its partial
// text.
func TestKill9MidStreamThenResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	data := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}
	gate := make(chan struct{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_k", "partial words ", "survive the crash ", "LOST"), Gate: gate})
	bin := binary(t)
	p := startPane(t, 100, 30, env, bin)
	p.waitText("Ask anything")
	p.say("crash test")
	for i := 0; i < 6; i++ {
		gate <- struct{}{}
	}
	p.waitText("survive the crash")
	// wait until the partial text is on disk (written within a second)
	dbPath := filepath.Join(data, "runnel", "runnel.db")
	deadline := time.Now().Add(10 * time.Second)
	for !partialSaved(t, dbPath, "survive the crash") {
		if time.Now().After(deadline) {
			t.Fatal("the partial text was never written")
		}
		time.Sleep(50 * time.Millisecond) // polling the file, not timing an assertion
	}
	pid := strings.TrimSpace(p.tmux("list-panes", "-t", "t", "-F", "#{pane_pid}"))
	if out, err := exec.Command("pkill", "-9", "-P", pid, "-f", bin).CombinedOutput(); err != nil {
		t.Fatalf("pkill: %v %s", err, out)
	}
	p.waitText("[exited")
	close(gate)

	q := startPane(t, 100, 30, env, bin, "-c")
	s := q.waitText("interrupted")
	if !strings.Contains(s, "partial words survive the crash") || strings.Contains(s, "LOST") {
		t.Errorf("screen after resume:\n%s", s)
	}
}

// partialSaved reports whether the store holds an item containing text.
func partialSaved(t *testing.T, path, text string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	db, err := store.Open(path)
	if err != nil {
		return false
	}
	defer db.Close()
	id, err := db.Latest()
	if err != nil {
		return false
	}
	s, _, err := db.Load(id)
	if err != nil {
		return false
	}
	for _, turn := range s.Turns {
		for _, r := range turn.Responses {
			for _, it := range r.Items {
				if strings.Contains(string(it.Raw), text) {
					return true
				}
			}
		}
	}
	return false
}

// TestChatLocalToolApproveAndDeny: a local function asks for approval; the
// first call is approved and runs, the second is denied, and both outputs
// go back to the model.
func TestChatLocalToolApproveAndDeny(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	cfgDir := t.TempDir()
	os.MkdirAll(filepath.Join(cfgDir, "runnel"), 0o700)
	os.WriteFile(filepath.Join(cfgDir, "runnel", "config.toml"), []byte(`[[functions]]
name = "echo_args"
description = "Echo the arguments"
parameters = { type = "object", properties = { x = { type = "integer" } }, required = ["x"] }
command = ["cat"]
approval = "always"
`), 0o600)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_CONFIG_HOME": cfgDir}
	srv.Enqueue(streamtest.Reply{SSE: functionCallStream("resp_c1")}, streamtest.Reply{SSE: streamtest.Text("resp_a1", "approved run done")},
		streamtest.Reply{SSE: functionCallStream("resp_c2")}, streamtest.Reply{SSE: streamtest.Text("resp_a2", "denied run done")})
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.say("run it")
	p.waitText("Allow this tool call?")
	p.keys("a")
	s := p.waitText("approved run done")
	if !strings.Contains(panelHeader(s, "echo_args", 0), "completed") || !strings.Contains(s, `{"x":41}`) {
		t.Errorf("the function's panel does not show its local run and output:\n%s", s)
	}
	p.say("again")
	p.waitText("Allow this tool call?")
	p.keys("d")
	p.text("not now")
	p.keys("Enter")
	s = p.waitText("denied run done")
	if h := panelHeader(s, "echo_args", -1); !strings.Contains(h, "denied") || strings.Contains(h, "completed") {
		t.Errorf("the denied call's header %q:\n%s", h, s)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if b := string(reqs[1].Body); !strings.Contains(b, `{\"x\":41}`) || reqs[1].PreviousResponseID() != "resp_c1" {
		t.Errorf("approved output: %s", b)
	}
	if b := string(reqs[3].Body); strings.Contains(b, `{\"x\":41}`) || !strings.Contains(b, "function_call_output") || !strings.Contains(strings.ToLower(b), "denied") || !strings.Contains(b, "not now") {
		t.Errorf("denied output (with the reason typed): %s", b)
	}
}

// panelHeader is the top edge of the n-th panel (from 0; -1: the last)
// titled name on screen s, "" when there is none.
func panelHeader(s, name string, n int) string {
	var heads []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "╭") && strings.Contains(l, name) {
			heads = append(heads, l)
		}
	}
	if n < 0 {
		n += len(heads)
	}
	if n < 0 || n >= len(heads) {
		return ""
	}
	return heads[n]
}
