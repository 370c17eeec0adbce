package main

// End-to-end test of esc during running local tools, in tmux: the panels'
// headers and the status line say the same thing as the bodies.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"runnel/stream/streamtest"
)

// TestEscStopsRunningToolsOneStory: two local calls run (no approval); esc
// stops them. Each panel's header then says cancelled, never completed,
// and the status line no longer names the tools or counts them.
func TestEscStopsRunningToolsOneStory(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	cfgDir, data := t.TempDir(), t.TempDir()
	fifo := filepath.Join(t.TempDir(), "release")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	os.MkdirAll(filepath.Join(cfgDir, "runnel"), 0o700)
	cfg := `[[functions]]
name = "wait_tool"
description = "Prints a line, then waits"
command = ["sh", "-c", "cat >/dev/null; echo started-waiting; cat ` + fifo + `"]
approval = "never"
`
	if err := os.WriteFile(filepath.Join(cfgDir, "runnel", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_call","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"wait_tool","call_id":"call_a","arguments":"{}","status":"completed"}}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_2","name":"wait_tool","call_id":"call_b","arguments":"{\"n\":2}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_call","status":"completed","output":[]}}`,
	)})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_CONFIG_HOME": cfgDir, "XDG_DATA_HOME": data}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.say("run both")
	p.waitFor("both calls running", func(s string) bool {
		return strings.Count(s, "running") >= 2 && strings.Contains(lastLines(s, 2), "running tool")
	})
	p.keys("Escape")
	p.waitFor("the round to stop", func(s string) bool { return strings.Contains(s, "tools stopped") })
	s := p.waitFor("the status line to be ready", func(s string) bool { return strings.Contains(lastLines(s, 2), "ready") })
	var headers []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "╭") && strings.Contains(l, "wait_tool") {
			headers = append(headers, l)
		}
	}
	if len(headers) != 2 {
		t.Fatalf("want two wait_tool panels:\n%s", s)
	}
	for _, h := range headers {
		if !strings.Contains(h, "cancelled") || strings.Contains(h, "completed") {
			t.Errorf("header %q does not say cancelled:\n%s", h, s)
		}
	}
	if st := lastLines(s, 2); strings.Contains(st, "wait_tool") || strings.Contains(st, "tool call") || strings.Contains(st, "running") {
		t.Errorf("the status line still speaks of the tools:\n%s", st)
	}
}
