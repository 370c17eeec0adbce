package ui

import (
	"strings"
	"testing"

	"runnel/session/tools"
	"runnel/stream"
)

// TestToolLateChunkKeepsFinalStatus: the runner's output chunks travel on a
// channel while its result comes back through a Cmd, so a chunk can land
// after the round is done. The panel must keep the final status, not go
// back to "running".
func TestToolLateChunkKeepsFinalStatus(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	m.Init()
	it := &stream.Item{Type: "function_call", CallID: "call_1", Name: "echo_args"}
	k := m.tools
	k.round.calls[it.CallID] = it
	m.Update(toolOutputMsg{callID: "call_1", chunk: `{"x":`})
	if r, ok := k.round.runs[it.CallID]; !ok || r.State() != "running" {
		t.Fatalf("run while running = %+v", r)
	}
	m.Update(toolDoneMsg{gen: m.turns.gen, results: []tools.Result{{Call: tools.Call{CallID: "call_1", Name: "echo_args"}, Status: tools.StatusOK, Output: `{"x":41}`}}})
	if r := k.round.runs[it.CallID]; r.State() != "completed" {
		t.Fatalf("run when done = %+v", r)
	}
	m.Update(toolOutputMsg{callID: "call_1", chunk: `41}`})
	m.Update(toolProgressMsg{callID: "call_1", p: tools.Progress{Message: "late"}})
	if r := k.round.runs[it.CallID]; r.State() != "completed" || !strings.Contains(string(it.Output), `{\"x\":41}`) {
		t.Errorf("after late messages: run %+v, output %s", r, it.Output)
	}
}
