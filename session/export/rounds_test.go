package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream"
)

// TestExportFoldsRoundsUnderTheirTurn: three prompts, the first two with a
// tool round each and one round stopped, export as three turns, each with a
// "You" section holding its prompt and an "Assistant" section holding the
// call, its output, and the answer of the round that sent the output back.
func TestExportFoldsRoundsUnderTheirTurn(t *testing.T) {
	call := func(id string) store.Item {
		return store.Item{Done: true, Raw: raw(map[string]any{"type": "function_call", "call_id": id, "name": "ls", "arguments": "{}", "status": "completed"})}
	}
	out := func(id, text string) json.RawMessage {
		return raw(map[string]any{"type": "function_call_output", "call_id": id, "output": text})
	}
	answer := func(text string) []store.Response {
		return []store.Response{{Items: []store.Item{{Done: true, Raw: msg("assistant", text)}}}}
	}
	s := &store.Session{
		Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: "files"},
		Turns: []store.Turn{
			{Seq: 1, Prompt: "list the files", Input: []json.RawMessage{stream.UserText("list the files")}, Status: store.StatusCompleted,
				Responses: []store.Response{{Items: []store.Item{call("c1")}}}},
			{Seq: 2, Input: []json.RawMessage{out("c1", "a.go b.go")}, Status: store.StatusCompleted, Responses: answer("Two Go files.")},
			{Seq: 3, Prompt: "count the lines", Input: []json.RawMessage{stream.UserText("count the lines")}, Status: store.StatusCompleted,
				Responses: []store.Response{{Items: []store.Item{call("c2")}}}},
			{Seq: 4, Input: []json.RawMessage{out("c2", "42")}, Status: store.StatusStopped},
			{Seq: 5, Input: []json.RawMessage{stream.UserText("thanks")}, Status: store.StatusCompleted, Responses: answer("You're welcome.")},
		},
	}
	md := render(t, s)
	o := parse(md)
	want := []string{"# files",
		"## Turn 1", "### You", "### Assistant",
		"## Turn 2", "### You", "### Assistant",
		"## Turn 3", "### You", "### Assistant"}
	if strings.Join(o.headings, "|") != strings.Join(want, "|") {
		t.Errorf("headings\n got %q\nwant %q\n%s", o.headings, want, md)
	}
	turns := strings.Split(md, "## Turn ")[1:]
	if len(turns) != 3 {
		t.Fatalf("%d turns:\n%s", len(turns), md)
	}
	for i, wants := range [][]string{
		{"### You\n\n> list the files\n", "**Function call** `ls`", "a.go b.go", "Two Go files."},
		{"### You\n\n> count the lines\n", "42", "**Stopped** by the user before the tool outputs were sent back."},
		{"### You\n\n> thanks\n", "You're welcome."},
	} {
		you := strings.Index(turns[i], "### You")
		asst := strings.Index(turns[i], "### Assistant")
		for j, w := range wants {
			at := strings.Index(turns[i], w)
			if at < 0 || (j > 0 && at < asst) || (j == 0 && at != you) {
				t.Errorf("turn %d: %q missing or out of place:\n%s", i+1, w, turns[i])
			}
		}
	}
	if !strings.Contains(md, "- **Turns:** 3\n") {
		t.Errorf("the header does not count 3 turns:\n%s", md)
	}
}
