package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream"
)

// TestExportTitlesFromKindTable: every tool call, tool output (without its
// call) and other item of the item kind table is written under a header
// titled from its table entry. A new entry is covered without touching
// this package.
func TestExportTitlesFromKindTable(t *testing.T) {
	kinds := append(stream.ItemKinds(), stream.KindFor("teleport_call"), stream.KindFor("teleport_call_output"), stream.KindFor("hologram"))
	for _, k := range kinds {
		if k.Class == stream.ClassMessage || k.Class == stream.ClassReasoning || k.Type == "mcp_approval_response" {
			continue // no header: text, a collapsed section, a verdict
		}
		it := raw(map[string]any{"type": k.Type, "id": "x1", "call_id": "c1", "status": "completed", "output": "ok"})
		s := &store.Session{Info: store.SessionInfo{ID: "0k3m9xq4ab"}, Turns: []store.Turn{
			{Seq: 1, Prompt: "go", Status: store.StatusCompleted, Responses: []store.Response{{Items: []store.Item{{Done: true, Raw: it}}}}},
		}}
		md := render(t, s)
		if want := "**" + k.Title + "**"; !strings.Contains(md, want) {
			t.Errorf("%s: transcript lacks %q:\n%s", k.Type, want, md)
		}
	}
}

// TestExportStoredInputMessage: an input message without a type and with
// its content as one string is the turn's prompt.
func TestExportStoredInputMessage(t *testing.T) {
	s := &store.Session{Info: store.SessionInfo{ID: "0k3m9xq4ab"}, Turns: []store.Turn{
		{Seq: 1, Input: []json.RawMessage{json.RawMessage(`{"role":"user","content":"plain prompt"}`)}, Status: store.StatusCompleted},
	}}
	if md := render(t, s); !strings.Contains(md, "> plain prompt\n") {
		t.Errorf("prompt not quoted:\n%s", md)
	}
}
