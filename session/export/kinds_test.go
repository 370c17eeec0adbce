package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/export"
	"runnel/session/store"
	"runnel/stream"
)

// TestExportTitlesFromKindTable: every tool call, tool output (without its
// call) and other item of the item kind table is written under a header
// titled from its heading (a type not in the table, after its type). A new
// entry of the kind table fails TestHeadingsKeyedByTheKindTable until it
// has a heading.
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
		if want := "**" + export.Heading(k.Type) + "**"; !strings.Contains(md, want) {
			t.Errorf("%s: transcript lacks %q:\n%s", k.Type, want, md)
		}
	}
}

// TestHeadingsKeyedByTheKindTable: the export's headings and stream's kind
// table list the same types, and a type in neither is titled after itself.
func TestHeadingsKeyedByTheKindTable(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range stream.ItemKinds() {
		kinds[k.Type] = true
		if _, ok := export.Headings[k.Type]; !ok {
			t.Errorf("kind %q has no heading", k.Type)
		}
	}
	for typ, h := range export.Headings {
		if !kinds[typ] {
			t.Errorf("heading %q names type %q, which the kind table does not list", h, typ)
		}
		if h == "" || stream.SanitizeLine(h) != h {
			t.Errorf("%s: heading %q is not one plain line", typ, h)
		}
	}
	for typ, want := range map[string]string{"teleport_call": "teleport call", "": "item"} {
		if got := export.Heading(typ); got != want {
			t.Errorf("Heading(%q) = %q, want %q", typ, got, want)
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
