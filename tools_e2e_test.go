package main

// End-to-end tests of a local tool call cut short by kill -9, in tmux.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// slowToolEnv writes a config with one local function that needs approval,
// prints a line and then waits on a FIFO, and returns the environment for
// runnel (config and data directories shared by every pane) and the FIFO.
func slowToolEnv(t *testing.T, srv *streamtest.Server) (map[string]string, string) {
	cfgDir, data := t.TempDir(), t.TempDir()
	fifo := filepath.Join(t.TempDir(), "release")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	// an orphaned tool (its runnel was killed) is released when the test ends
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.WriteString("bye\n")
			f.Close()
		}
	})
	os.MkdirAll(filepath.Join(cfgDir, "runnel"), 0o700)
	cfg := `[[functions]]
name = "slow_tool"
description = "Prints a line, then waits"
command = ["sh", "-c", "cat >/dev/null; echo printed-before-kill; cat ` + fifo + `"]
approval = "always"
`
	if err := os.WriteFile(filepath.Join(cfgDir, "runnel", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_CONFIG_HOME": cfgDir, "XDG_DATA_HOME": data}
	return env, fifo
}

func slowCallStream(respID string) []byte {
	return streamtest.Events(
		`{"type":"response.created","response":{"id":"`+respID+`","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"slow_tool","call_id":"call_slow","arguments":""}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"slow_tool","call_id":"call_slow","arguments":"{}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"`+respID+`","status":"completed","output":[]}}`,
	)
}

// kill9 kills the pane's runnel with SIGKILL and waits for it to be gone.
func kill9(t *testing.T, p *pane, bin string) {
	pid := strings.TrimSpace(p.tmux("list-panes", "-t", "t", "-F", "#{pane_pid}"))
	if out, err := exec.Command("pkill", "-9", "-P", pid, "-f", bin).CombinedOutput(); err != nil {
		t.Fatalf("pkill: %v %s", err, out)
	}
	p.waitText("[exited")
}

// lastTurn loads the newest session's last turn.
func lastTurn(path string) (store.Turn, int, bool) {
	if _, err := os.Stat(path); err != nil {
		return store.Turn{}, 0, false
	}
	db, err := store.Open(path)
	if err != nil {
		return store.Turn{}, 0, false
	}
	defer db.Close()
	id, err := db.Latest()
	if err != nil {
		return store.Turn{}, 0, false
	}
	s, _, err := db.Load(id)
	if err != nil || len(s.Turns) == 0 {
		return store.Turn{}, 0, false
	}
	return s.Turns[len(s.Turns)-1], len(s.Turns), true
}

// lastInputSaved reports whether the newest session's last turn has an input
// item holding text.
func lastInputSaved(path, text string) bool {
	last, _, ok := lastTurn(path)
	if !ok {
		return false
	}
	for _, in := range last.Input {
		if strings.Contains(string(in), text) {
			return true
		}
	}
	return false
}

// waitSaved polls the database file until cond holds.
func waitSaved(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s was never written", what)
		}
		time.Sleep(50 * time.Millisecond) // polling the file, not timing an assertion
	}
}

// outputsOf returns the function_call_output items of a request, by call id.
func outputsOf(t *testing.T, r streamtest.Recorded) map[string]string {
	var raw struct {
		Input []map[string]any `json:"input"`
	}
	if err := json.Unmarshal(r.Body, &raw); err != nil {
		t.Errorf("request body: %v", err)
	}
	out := map[string]string{}
	for _, it := range raw.Input {
		if it["type"] == "function_call_output" {
			id, _ := it["call_id"].(string)
			o, _ := it["output"].(string)
			out[id] = o
		}
	}
	return out
}

// TestKill9DuringApprovalThenResume: runnel is killed while a local tool's
// approval prompt is open; `runnel -c` shows the prompt again, and
// approving runs the tool and sends its output chained to the call.
func TestKill9DuringApprovalThenResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	env, fifo := slowToolEnv(t, srv)
	bin := binary(t)
	srv.Enqueue(streamtest.Reply{SSE: slowCallStream("resp_call")})
	p := startPane(t, 100, 30, env, bin)
	p.waitText("Ask anything")
	p.say("run the slow tool")
	p.waitText("Allow this tool call?")
	dbPath := filepath.Join(env["XDG_DATA_HOME"], "runnel", "runnel.db")
	waitSaved(t, "the round", func() bool {
		last, n, ok := lastTurn(dbPath)
		return ok && n == 2 && last.Prompt == "" && last.Status == store.StatusStreaming
	})
	kill9(t, p, bin)

	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_after", "the tool said hello")})
	q := startPane(t, 100, 30, env, bin, "-c")
	s := q.waitText("Allow this tool call?")
	if !strings.Contains(s, "slow_tool") {
		t.Errorf("the prompt after resuming does not name the tool:\n%s", s)
	}
	q.keys("a")
	q.waitText("printed-before-kill")
	if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		f.WriteString("released\n")
		f.Close()
	}
	q.waitText("the tool said hello")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	out := outputsOf(t, reqs[1])["call_slow"]
	if reqs[1].PreviousResponseID() != "resp_call" || !strings.Contains(out, "printed-before-kill") || !strings.Contains(out, "released") {
		t.Errorf("request after approving (prev %q): %s", reqs[1].PreviousResponseID(), reqs[1].Body)
	}
}

// TestKill9DuringToolRunThenResume: runnel is killed while an approved
// tool runs; `runnel -c` shows the turn interrupted with what the tool had
// printed, and the next message sends the interrupted output (chained to
// the call), which the server accepts.
func TestKill9DuringToolRunThenResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	env, _ := slowToolEnv(t, srv)
	bin := binary(t)
	srv.Enqueue(streamtest.Reply{SSE: slowCallStream("resp_call")})
	p := startPane(t, 100, 30, env, bin)
	p.waitText("Ask anything")
	p.say("run the slow tool")
	p.waitText("Allow this tool call?")
	p.keys("a")
	p.waitText("printed-before-kill")
	p.waitFor("the running tool on the status line", func(s string) bool {
		return strings.Contains(lastLines(s, 2), "running tool") && strings.Contains(lastLines(s, 2), "slow_tool")
	})
	dbPath := filepath.Join(env["XDG_DATA_HOME"], "runnel", "runnel.db")
	waitSaved(t, "the running output", func() bool { return lastInputSaved(dbPath, "printed-before-kill") })
	kill9(t, p, bin)

	// a server that holds the chain: it refuses a call without its output
	srv.SetHandler(func(r streamtest.Recorded) streamtest.Reply {
		if r.PreviousResponseID() == "resp_call" && outputsOf(t, r)["call_slow"] == "" {
			return streamtest.Reply{Status: 400, Body: []byte(`{"error":{"message":"No tool output found for function call call_slow.","type":"invalid_request_error","param":"input","code":null}}`)}
		}
		return streamtest.Reply{SSE: streamtest.Text("resp_next", "understood, it was interrupted")}
	})
	q := startPane(t, 100, 30, env, bin, "-c")
	q.waitText("resumed")
	s := q.waitText("interrupted")
	if !strings.Contains(s, "printed-before-kill") || strings.Contains(s, "Allow this tool call?") {
		t.Errorf("screen after resuming:\n%s", s)
	}
	q.say("what happened?")
	s = q.waitText("understood, it was interrupted")
	if strings.Contains(s, "No tool output") {
		t.Errorf("the server refused the request:\n%s", s)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	out := outputsOf(t, last)["call_slow"]
	if len(reqs) != 2 || last.PreviousResponseID() != "resp_call" || !strings.HasPrefix(out, "interrupted: runnel stopped before this call finished") ||
		!strings.Contains(out, "printed-before-kill") || !strings.Contains(string(last.Body), "what happened?") {
		t.Errorf("%d requests; last (prev %q): %s", len(reqs), last.PreviousResponseID(), last.Body)
	}
}

// TestEscThenNextMessageCarriesTheTurn: a reply stopped with esc never
// reached the server's chain; the notice says the next message carries it,
// and the next request holds the stopped prompt and its partial answer.
func TestEscThenNextMessageCarriesTheTurn(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	gate := make(chan struct{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_slow", "partial words ", "arrive ", "NEVER-SENT"), Gate: gate},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "picked it up")})
	p := chatPane(t, srv)
	p.say("hello")
	p.waitText("first answer")
	p.waitTurnEnd()
	p.say("go slowly")
	for i := 0; i < 6; i++ { // created, in_progress, item, part, two deltas
		gate <- struct{}{}
	}
	p.waitText("partial words arrive")
	p.keys("Escape")
	s := p.waitText("stopped")
	if !strings.Contains(s, "sends this prompt and the partial answer") {
		t.Errorf("the notice does not say the next message carries the turn:\n%s", s)
	}
	close(gate)
	p.say("and now?")
	p.waitText("picked it up")
	reqs := srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if reqs[len(reqs)-1].PreviousResponseID() != "resp_1" || !strings.Contains(last, `"text":"go slowly"`) ||
		!strings.Contains(last, `"role":"assistant"`) || !strings.Contains(last, "partial words arrive") || strings.Contains(last, "NEVER-SENT") ||
		strings.Index(last, "go slowly") > strings.Index(last, "and now?") {
		t.Errorf("the request after esc: %s", last)
	}
}
