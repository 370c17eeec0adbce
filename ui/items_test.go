package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
)

// rows returns the rows of the plain view that contain s.
func rows(view, s string) []string {
	var out []string
	for _, r := range strings.Split(view, "\n") {
		if strings.Contains(r, s) {
			out = append(out, r)
		}
	}
	return out
}

// TestHostedSearchesOneLine replays the six-search fixture: the six
// web_search_call items (two searches, an open_page and three
// find_in_page) draw one line between which the seven reasoning items
// without a summary draw nothing; ctrl+o opens it into its six panels (the
// page actions titled as such, not as searches), and the panel list (alt+o)
// lists it once.
func TestHostedSearchesOneLine(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/openai-web-search-6-calls.sse")
	pump(t, m, nil)
	m.Update(press("home"))
	view := plain(m)
	line := rows(view, "⌕")
	if len(line) != 1 || strings.TrimSpace(line[0]) != "⌕ 2 searches · 21 sources · 1 page opened · 3 finds in pages" {
		t.Fatalf("hosted searches: %q, want one line\n%s", line, view)
	}
	// the seven reasoning items draw at most the turn's one "Thought for"
	// line (the pump's clock may give them a second in all)
	if th := rows(view, "Thought"); strings.Contains(view, "╭") || len(th) > 1 || (len(th) == 1 && !strings.HasPrefix(strings.TrimSpace(th[0]), "Thought for ")) {
		t.Errorf("a panel or a reasoning row is drawn:\n%s", view)
	}
	var searches []*stream.Item
	for it := range m.items.entries {
		if it.Type == "web_search_call" {
			searches = append(searches, it)
		}
	}
	if len(searches) != 6 {
		t.Fatalf("%d web searches", len(searches))
	}
	for _, it := range searches[1:] {
		if m.items.entries[it] != m.items.entries[searches[0]] {
			t.Fatal("the searches are not one entry")
		}
	}

	m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	full := m.items.entries[searches[0]].View(100)
	for title, n := range map[string]int{" web search ": 2, " open page ": 1, " find in page ": 3} {
		if got := len(rows(ansi.Strip(full), title)); got != n {
			t.Errorf("%d %q panels, want %d:\n%s", got, title, n, ansi.Strip(full))
		}
	}
	m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if got := m.items.entries[searches[0]].View(100); strings.Contains(got, "\n") {
		t.Errorf("ctrl+o again did not close the line:\n%s", ansi.Strip(got))
	}
	m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt})
	if l, ok := m.dialog.(dlg[PanelList]); !ok || len(l.v.rows) != 1 || !strings.Contains(l.v.rows[0].title, "2 searches") {
		t.Errorf("panel list: %#v", m.dialog)
	}
}

// TestThinkingAndHostedLines drives the transcript child through a turn
// whose reasoning has nothing to show, with hosted searches between: one
// "Thinking" line (a spinner while reasoning runs, then "Thought for" the
// sum), one line for the searches; reasoning with a summary draws its own
// header, and a search after it starts a new line.
func TestThinkingAndHostedLines(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	c := &m.items
	t0 := time.Unix(1_700_000_000, 0)
	item := func(js string) *stream.Item {
		it, err := stream.ItemFromJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		it.Done = it.Status == "completed" // as it streams: done comes with its output_item.done
		return it
	}
	view := func(now time.Time) string {
		m.Update(frameMsg{gen: m.turns.gen, now: now})
		return plain(m)
	}
	done := func(it *stream.Item, now time.Time) {
		it.Done, it.Status = true, "completed"
		c.refresh(it, now)
	}
	c.turnEntry = append(c.turnEntry, c.transcript.Len())

	r1 := item(`{"type":"reasoning","id":"rs_1","summary":[],"status":"in_progress"}`)
	c.addItem(r1, t0)
	c.refresh(r1, t0)
	if v := view(t0.Add(time.Second)); len(rows(v, "Thinking")) != 1 {
		t.Fatalf("no live Thinking line:\n%s", v)
	}
	done(r1, t0.Add(2*time.Second))
	ws1 := item(`{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"a","sources":[{"type":"url","url":"https://a.example/"}]}}`)
	c.addItem(ws1, t0.Add(2*time.Second))
	done(ws1, t0.Add(3*time.Second))
	r2 := item(`{"type":"reasoning","id":"rs_2","summary":[],"status":"in_progress"}`)
	c.addItem(r2, t0.Add(3*time.Second))
	c.refresh(r2, t0.Add(3*time.Second))
	done(r2, t0.Add(4*time.Second))
	ws2 := item(`{"type":"web_search_call","id":"ws_2","status":"completed","action":{"type":"open_page","url":"https://b.example/"}}`)
	c.addItem(ws2, t0.Add(4*time.Second))
	done(ws2, t0.Add(4*time.Second))

	v := view(t0.Add(5 * time.Second))
	if got := rows(v, "Thought"); len(got) != 1 || strings.TrimSpace(got[0]) != "Thought for 3.0s" {
		t.Errorf("thought rows %q, want one \"Thought for 3.0s\":\n%s", got, v)
	}
	if got := rows(v, "⌕"); len(got) != 1 || strings.TrimSpace(got[0]) != "⌕ 1 search · 1 source · 1 page opened" {
		t.Errorf("hosted rows %q:\n%s", got, v)
	}
	if c.entries[ws1] != c.entries[ws2] {
		t.Error("the two searches are not one line")
	}

	// a reasoning item with a summary draws its header; a search after it
	// starts a new line
	r3 := item(`{"type":"reasoning","id":"rs_3","summary":[{"type":"summary_text","text":"**Checking the page**\n\nLooking."}],"status":"completed"}`)
	c.addItem(r3, t0.Add(5*time.Second))
	done(r3, t0.Add(6*time.Second))
	ws3 := item(`{"type":"web_search_call","id":"ws_3","status":"completed","action":{"type":"find_in_page","pattern":"x","url":"https://b.example/"}}`)
	c.addItem(ws3, t0.Add(6*time.Second))
	done(ws3, t0.Add(6*time.Second))
	v = view(t0.Add(7 * time.Second))
	if c.entries[ws3] == c.entries[ws1] || len(rows(v, "⌕")) != 2 || len(rows(v, "Checking the page")) != 1 || len(rows(v, "Thought for")) != 1 {
		t.Errorf("after a reasoning header:\n%s", v)
	}
	// ctrl+r opens the reasoning that has something to show, not the last
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if v := view(t0.Add(7 * time.Second)); !strings.Contains(v, "Looking.") {
		t.Errorf("ctrl+r did not open the reasoning with a summary:\n%s", v)
	}

	// the next turn gets a line of its own
	c.turnEntry = append(c.turnEntry, c.transcript.Len())
	r4 := item(`{"type":"reasoning","id":"rs_4","summary":[],"status":"in_progress"}`)
	c.addItem(r4, t0.Add(8*time.Second))
	c.refresh(r4, t0.Add(8*time.Second))
	done(r4, t0.Add(10*time.Second))
	if v := view(t0.Add(11 * time.Second)); len(rows(v, "Thought for")) != 2 || len(rows(v, "Thought for 2.0s")) != 1 {
		t.Errorf("second turn:\n%s", v)
	}
}
