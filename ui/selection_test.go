package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream/costtest"
	"runnel/stream/streamtest"
)

// selectionAnswer has a paragraph that wraps at 100 columns, a list, a
// code block and a table.
const selectionAnswer = "Intro line.\n\n" +
	"The quick **brown** fox jumps over the lazy dog, then it keeps on running across the `wide` field until evening comes at last and it rests.\n\n" +
	"- first item\n- second *item*\n  1. nested one\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n\n" +
	"| name | size |\n|------|-----:|\n| alpha | 12 |\n| beta | 7 |\n\n" +
	"Last words."

// answered is a model that showed selectionAnswer, with a fixed clock.
func answered(t *testing.T) *Model {
	t.Helper()
	m := newTestModel(t, Options{Replay: bytes.NewReader(streamtest.Text("resp_sel", selectionAnswer[:60], selectionAnswer[60:]))})
	m.Init()
	pump(t, m, nil)
	now := time.Unix(1_700_000_000, 0)
	m.frame.clock = func() time.Time { return now }
	return m
}

// cellOf is the screen cell of the first s at or below row y0.
func cellOf(t *testing.T, m *Model, y0 int, s string) (x, y int) {
	t.Helper()
	rows := strings.Split(plain(m), "\n")
	for y := y0; y < len(rows); y++ {
		if i := strings.Index(rows[y], s); i >= 0 {
			return ansi.StringWidth(rows[y][:i]), y
		}
	}
	t.Fatalf("%q is not on screen:\n%s", s, plain(m))
	return 0, 0
}

func left(x, y int) tea.Mouse { return tea.Mouse{X: x, Y: y, Button: tea.MouseLeft} }

// drag presses at (x0, y0), moves to (x1, y1) and releases there; it
// returns what the release did.
func drag(m *Model, x0, y0, x1, y1 int) []tea.Msg {
	m.Update(tea.MouseClickMsg(left(x0, y0)))
	m.Update(tea.MouseMotionMsg(left(x1, y1)))
	_, cmd := m.Update(tea.MouseReleaseMsg(left(x1, y1)))
	return run(cmd)
}

// dragWords drags from the first cell of from to the last cell of to.
func dragWords(t *testing.T, m *Model, from, to string) []tea.Msg {
	x0, y0 := cellOf(t, m, 0, from)
	x1, y1 := cellOf(t, m, y0, to)
	return drag(m, x0, y0, x1+ansi.StringWidth(to)-1, y1)
}

// TestMouseDragCopiesTheSource: a drag over a wrapped paragraph, a list, a
// code block and a table copies the markdown they came from, byte for
// byte: markers kept, soft breaks as written, no wrap or indent added.
func TestMouseDragCopiesTheSource(t *testing.T) {
	t.Parallel()
	m := answered(t)
	cases := []struct{ from, to, want string }{
		{"quick", "rests", "quick **brown** fox jumps over the lazy dog, then it keeps on running across the `wide` field until evening comes at last and it rests"},
		{"first", "nested", "first item\n- second *item*\n  1. nested"},
		{"func", "}", "func main() {\n    println(\"hi\")\n}"}, // the source as cleaned: tabs expanded
		{"name", "beta", "name | size |\n|------|-----:|\n| alpha | 12 |\n| beta"},
		{"evening", "first", "evening comes at last and it rests.\n\n- first"},
	}
	entries := m.items.transcript.Len()
	for _, c := range cases {
		msgs := dragWords(t, m, c.from, c.to)
		clipboardOf(t, msgs, c.want)
		for _, msg := range msgs {
			m.Update(msg)
		}
	}
	if m.items.transcript.Len() != entries {
		t.Error("a copy added to the transcript, under the mouse")
	}
	rows := strings.Split(plain(m), "\n")
	if hintRow := rows[len(rows)-1]; !strings.Contains(hintRow, "sent 44 B to the terminal's clipboard") {
		t.Errorf("the hint line does not say what was copied: %q", hintRow)
	}
	rows = strings.Split(m.View().Content, "\n")
	_, y := cellOf(t, m, 0, "evening")
	if !strings.Contains(rows[y], "\x1b[7m") {
		t.Errorf("the selected row is not highlighted: %q", rows[y])
	}
}

// TestMouseDragAcrossEntries: a drag from an answer into the notice under
// it copies the answer's source, then the notice's text, a blank line
// apart.
func TestMouseDragAcrossEntries(t *testing.T) {
	t.Parallel()
	m := answered(t)
	m.Update(NoticeMsg{Text: "a notice below"})
	msgs := dragWords(t, m, "Last", "below")
	clipboardOf(t, msgs, "Last words.\n\n"+strings.TrimSpace(strings.Split(plain(m), "\n")[lastRow(t, m, "a notice below")]))
}

// lastRow is the screen row holding s.
func lastRow(t *testing.T, m *Model, s string) int {
	_, y := cellOf(t, m, 0, s)
	return y
}

// TestMouseDoubleAndTripleClick: two clicks on a word copy its source (no
// markers), three the paragraph's.
func TestMouseDoubleAndTripleClick(t *testing.T) {
	t.Parallel()
	m := answered(t)
	x, y := cellOf(t, m, 0, "brown")
	x += 2
	m.Update(tea.MouseClickMsg(left(x, y)))
	m.Update(tea.MouseReleaseMsg(left(x, y)))
	_, cmd := m.Update(tea.MouseClickMsg(left(x, y)))
	clipboardOf(t, run(cmd), "brown")
	m.Update(tea.MouseReleaseMsg(left(x, y)))
	_, cmd = m.Update(tea.MouseClickMsg(left(x, y)))
	clipboardOf(t, run(cmd), "The quick **brown** fox jumps over the lazy dog, then it keeps on running across the `wide` field until evening comes at last and it rests.")
	m.Update(tea.MouseReleaseMsg(left(x, y)))

	// a click later is one click again: it copies nothing
	later := m.frame.clock().Add(time.Second)
	m.frame.clock = func() time.Time { return later }
	m.Update(tea.MouseClickMsg(left(x, y)))
	if _, cmd := m.Update(tea.MouseReleaseMsg(left(x, y))); cmd != nil {
		t.Errorf("a click on a paragraph did something: %#v", run(cmd))
	}
}

// TestMouseClickCopiesCode: a click on a code block copies its code and
// marks its rows.
func TestMouseClickCopiesCode(t *testing.T) {
	t.Parallel()
	m := answered(t)
	x, y := cellOf(t, m, 0, "println")
	m.Update(tea.MouseClickMsg(left(x, y)))
	_, cmd := m.Update(tea.MouseReleaseMsg(left(x, y)))
	msgs := run(cmd)
	clipboardOf(t, msgs, "func main() {\n    println(\"hi\")\n}") // tabs expanded, as shown
	rows := strings.Split(m.View().Content, "\n")
	for _, s := range []string{"func", "println", "}"} {
		if _, y := cellOf(t, m, y-1, s); !strings.Contains(rows[y], "\x1b[7m") {
			t.Errorf("the code row of %q is not marked: %q", s, rows[y])
		}
	}
}

// TestMouseClickTogglesReasoning: a click on a thought's header opens it,
// another closes it; a click on its body does not.
func TestMouseClickTogglesReasoning(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse")
	pump(t, m, nil)
	e := m.items.reasoning[0]
	m.Update(press("home"))
	const header = "Thought:"
	click := func() {
		m.Update(press("home"))
		x, y := cellOf(t, m, 0, header)
		m.Update(tea.MouseClickMsg(left(x, y)))
		m.Update(tea.MouseReleaseMsg(left(x, y)))
		m.frame.clock = func() time.Time { return time.Now().Add(time.Hour) } // the next click is not a double
	}
	click()
	if !e.b.(interface{ Expanded() bool }).Expanded() {
		t.Fatal("a click on the header did not open the thought")
	}
	if n := strings.Count(e.View(100), "\n"); n < 2 {
		t.Fatalf("the opened thought shows %d rows", n+1)
	}
	click()
	if e.b.(interface{ Expanded() bool }).Expanded() {
		t.Error("a second click did not close the thought")
	}
}

// TestMouseOffHandsTheMouseToTheTerminal: f2 turns mouse capture off (the
// status line says so, clicks do nothing) and on again.
func TestMouseOffHandsTheMouseToTheTerminal(t *testing.T) {
	t.Parallel()
	m := answered(t)
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("the mouse is not captured at start")
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyF2})
	if m.View().MouseMode != tea.MouseModeNone {
		t.Error("f2 did not hand the mouse to the terminal")
	}
	rows := strings.Split(plain(m), "\n")
	if status := rows[len(rows)-2]; !strings.Contains(status, "mouse off") {
		t.Errorf("the status line does not say the mouse is off: %q", status)
	}
	x, y := cellOf(t, m, 0, "println")
	m.Update(tea.MouseClickMsg(left(x, y)))
	if _, cmd := m.Update(tea.MouseReleaseMsg(left(x, y))); cmd != nil {
		t.Errorf("a click with the mouse off did something: %#v", run(cmd))
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyF2})
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("f2 again did not take the mouse back")
	}
	rows = strings.Split(plain(m), "\n")
	if status := rows[len(rows)-2]; strings.Contains(status, "mouse off") {
		t.Errorf("the status line still says the mouse is off: %q", status)
	}
}

// TestMouseClickOpensPanels: a click on the line of a turn's hosted
// searches opens their panels; a click on a panel's header closes it.
func TestMouseClickOpensPanels(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/openai-web-search-6-calls.sse")
	pump(t, m, nil)
	if len(m.items.panels) == 0 {
		t.Fatal("no panels")
	}
	x := m.items.panels[0].b.(interface{ Expanded() bool })
	m.Update(press("home"))
	cx, cy := cellOf(t, m, 0, "searches")
	m.Update(tea.MouseClickMsg(left(cx, cy)))
	m.Update(tea.MouseReleaseMsg(left(cx, cy)))
	if !x.Expanded() {
		t.Fatalf("a click on the searches line did not open it:\n%s", plain(m))
	}
	m.frame.clock = func() time.Time { return time.Now().Add(time.Hour) } // not a double click
	m.Update(press("home"))
	cx, cy = cellOf(t, m, 0, "searches")
	m.Update(tea.MouseClickMsg(left(cx, cy)))
	m.Update(tea.MouseReleaseMsg(left(cx, cy)))
	if x.Expanded() {
		t.Errorf("a second click did not close it:\n%s", plain(m))
	}
}

// TestMouseCostsNothingPerFrame: no source map is built while an answer
// streams (only a selection builds one, for the entries it touches), a
// drag's motion costs less than a frame's View, and a View with the whole
// screen selected costs about what one without does.
func TestMouseCostsNothingPerFrame(t *testing.T) {
	costtest.SkipIfRace(t)
	m := answered(t)
	for i, s := range m.items.transcript.slots {
		if s.smap != nil {
			t.Errorf("entry %d built a source map with no selection", i)
		}
	}
	x0, y0 := cellOf(t, m, 0, "Intro")
	x1, y1 := cellOf(t, m, 0, "Last")
	m.Update(tea.MouseClickMsg(left(x0, y0)))
	m.Update(tea.MouseMotionMsg(left(x1, y1)))
	view := costtest.Func(func() { m.View() })
	y := y0
	costtest.AtMost(t, "a drag's motion against a View", view, costtest.Func(func() {
		y = y0 + (y+1-y0)%(y1-y0+1)
		m.Update(tea.MouseMotionMsg(left(x1, y)))
	}), 1.5)
	m.Update(tea.MouseMotionMsg(left(x1, y1)))
	full := m.items.transcript.mark
	plainView := costtest.Func(func() { m.items.transcript.mark = markRange{}; m.View() })
	marked := costtest.Func(func() { m.items.transcript.mark = full; m.View() })
	costtest.AtMost(t, "a View with the screen selected against one without", plainView, marked, 3)
}

// TestMouseDragScrollsAtTheEdge: a drag held at the top row scrolls up a
// line per move, and the selection reaches what came into view.
func TestMouseDragScrollsAtTheEdge(t *testing.T) {
	t.Parallel()
	m := answered(t)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	m.Update(resizeMsg{seq: m.frame.resizeSeq})
	if strings.Contains(plain(m), "Intro") {
		t.Fatal("the answer fits: nothing to scroll")
	}
	x, y := cellOf(t, m, 0, "Last")
	m.Update(tea.MouseClickMsg(left(x+10, y)))
	for range 40 {
		m.Update(tea.MouseMotionMsg(left(0, 0)))
	}
	_, cmd := m.Update(tea.MouseReleaseMsg(left(0, 0)))
	clipboardOf(t, run(cmd), strings.ReplaceAll(selectionAnswer, "\t", "    ")) // the whole answer, as cleaned
}
