package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/store"
)

// TestExportInterruptedCallOutput: a tool output recorded while the call
// still ran (runnel was killed) is exported as interrupted, with what the
// call had printed.
func TestExportInterruptedCallOutput(t *testing.T) {
	s := &store.Session{
		Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: "killed mid-call"},
		Turns: []store.Turn{
			{Seq: 1, Prompt: "run it", Status: store.StatusCompleted, Responses: []store.Response{{Items: []store.Item{
				{Done: true, Raw: raw(map[string]any{"type": "function_call", "call_id": "c1", "name": "slow", "arguments": "{}"})},
			}}}},
			{Seq: 2, Status: store.StatusInterrupted, Input: []json.RawMessage{
				raw(map[string]any{"type": "function_call_output", "call_id": "c1", "output": "line 1\n", "status": "in_progress"}),
			}},
		},
	}
	md := render(t, s)
	if !strings.Contains(md, "Output (interrupted: runnel stopped before this call finished") || !strings.Contains(md, "line 1") {
		t.Errorf("export:\n%s", md)
	}
}
