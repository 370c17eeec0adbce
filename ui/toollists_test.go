package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// listPanels counts the transcript's panels of hosted MCP tool lists.
func listPanels(m *Model) int {
	n := 0
	for _, e := range m.items.panels {
		if e.it.Type == "mcp_list_tools" {
			n++
		}
	}
	return n
}

// TestToolListNotDrawnAgainAfterApproval: the response after an approval
// (a real recording) sends the server's tool list again; the transcript
// shows it once (issue 21 item 3: the list was drawn a second time), while
// the conversation keeps the item the server sent.
func TestToolListNotDrawnAgainAfterApproval(t *testing.T) {
	t.Parallel()
	m, srv := hostedAsking(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/openai-mcp-call-after-approval.sse")))
	if n := listPanels(m); n != 1 {
		t.Fatalf("%d tool list panels before the approval", n)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	runCmd(m, cmd)
	pump(t, m, nil)
	if !strings.Contains(plain(m), "zip1.io") {
		t.Fatalf("the answer after the approval did not come:\n%s", plain(m))
	}
	if n := listPanels(m); n != 1 {
		t.Errorf("%d tool list panels after the approval, want 1", n)
	}
	sent := 0
	for _, turn := range m.turns.conv.Turns {
		for _, s := range turn.Responses {
			for _, it := range s.Items {
				if it.Type == "mcp_list_tools" {
					sent++
				}
			}
		}
	}
	if sent != 2 {
		t.Errorf("the conversation keeps %d tool lists, want the 2 the server sent", sent)
	}
}

// TestToolListsShowWhatChanged: a list sent again is skipped while it is
// not whole and when it is the same; one with other tools or an error is
// shown, and another server's first list always is.
func TestToolListsShowWhatChanged(t *testing.T) {
	t.Parallel()
	item := func(t *testing.T, raw string, done bool) *stream.Item {
		t.Helper()
		it, err := stream.ItemFromJSON([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		it.Done = done
		return it
	}
	const two = `{"type":"mcp_list_tools","id":"%s","server_label":"docs","tools":[{"name":"search","description":"Search."},{"name":"read","description":"Read."}]}`
	var l toolLists
	first := item(t, strings.Replace(two, "%s", "l1", 1), true)
	if l.skip(first) {
		t.Fatal("the first list is skipped")
	}
	l.note(first)
	for _, c := range []struct {
		name string
		raw  string
		done bool
		skip bool
	}{
		{"the same, streaming", `{"type":"mcp_list_tools","id":"l2","server_label":"docs","tools":[]}`, false, true},
		{"the same, whole", strings.Replace(two, "%s", "l2", 1), true, true},
		{"another tool", `{"type":"mcp_list_tools","id":"l3","server_label":"docs","tools":[{"name":"search","description":"Search."}]}`, true, false},
		{"an error", `{"type":"mcp_list_tools","id":"l4","server_label":"docs","tools":[{"name":"search","description":"Search."},{"name":"read","description":"Read."}],"error":"server down"}`, true, false},
		{"another server", strings.Replace(strings.Replace(two, "%s", "l5", 1), `"docs"`, `"wiki"`, 1), true, false},
		{"not a list", `{"type":"mcp_call","id":"c1","server_label":"docs","name":"search"}`, true, false},
	} {
		if got := l.skip(item(t, c.raw, c.done)); got != c.skip {
			t.Errorf("%s: skip = %v, want %v", c.name, got, c.skip)
		}
	}
}
