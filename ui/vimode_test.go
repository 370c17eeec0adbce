package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/keymap"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
	"runnel/ui/block"
)

// viKey is the key press Bubble Tea delivers for s ("esc", "ctrl+k",
// "enter" or one character).
func viKey(s string) tea.KeyPressMsg {
	switch s {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if c, ok := strings.CutPrefix(s, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(c)[0], Mod: tea.ModCtrl}
	}
	return keyPress(s)
}

// viKeys sends each key of a space-separated list ("esc b c w").
func viKeys(d *driver, keys string) {
	for _, k := range strings.Fields(keys) {
		d.send(viKey(k))
	}
}

// viModel is a chat in the vi preset against srv.
func viModel(t *testing.T, srv *streamtest.Server) (*Model, *driver) {
	o := modelTestOptions(t, srv, "gpt-5")
	o.Keys = keymap.Default("vi")
	m := newTestModel(t, o)
	return m, newDriver(t, m)
}

// TestViComposerEditsAndSends: in the vi preset the composer starts in
// insert mode (the status line says INSERT); esc is normal mode (NORMAL),
// not a clear; b, cw and a typed word fix a typo; enter in normal mode
// sends, and the next prompt starts in insert mode.
func TestViComposerEditsAndSends(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse")))
	m, d := viModel(t, srv)
	if row := statusRow(plain(m)); !strings.Contains(row, "INSERT") {
		t.Fatalf("status line %q lacks INSERT", row)
	}
	d.typeKeys("hello wrld")
	viKeys(d, "esc")
	if m.composer.Value() != "hello wrld" || !strings.Contains(statusRow(plain(m)), "NORMAL") {
		t.Fatalf("after esc: %q, status %q", m.composer.Value(), statusRow(plain(m)))
	}
	viKeys(d, "b c w")
	d.typeKeys("world")
	viKeys(d, "esc 0 x u")
	if got := m.composer.Value(); got != "hello world" {
		t.Fatalf("edited to %q, want hello world", got)
	}
	viKeys(d, "enter")
	d.until("the answer", func() bool {
		return m.turns.cur == nil && m.statusBar.status.State == Idle && len(m.items.answers) == 1
	})
	if m.composer.Value() != "" || m.composer.ViMode() != "INSERT" {
		t.Errorf("after send: %q in %s mode", m.composer.Value(), m.composer.ViMode())
	}
	if len(m.turns.conv.Turns) != 1 || m.turns.conv.Turns[0].Prompt != "hello world" {
		t.Errorf("sent %+v", m.turns.conv.Turns)
	}
}

// TestViNavigation: ctrl+k enters the transcript's navigation mode on the
// last block; j/k, gg/G and ]]/[[ move the cursor by block and by turn,
// / searches with n and N, y copies the block under the cursor through
// the sanitizing copy, o opens its panel, and i returns to the composer.
func TestViNavigation(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse")))
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/openai-code-interpreter-3-calls.sse")))
	m, d := viModel(t, srv)
	for i, p := range []string{"first question", "second question"} {
		d.typeKeys(p)
		viKeys(d, "enter")
		d.until("the answer", func() bool {
			return m.turns.cur == nil && m.statusBar.status.State == Idle && len(m.items.answers) == i+1
		})
	}
	last := m.items.transcript.Len() - 1
	viKeys(d, "ctrl+k")
	if !m.items.nav.on || m.items.nav.cur != last || !strings.Contains(statusRow(plain(m)), "NAVIGATE") {
		t.Fatalf("ctrl+k: on %v at %d of %d, status %q", m.items.nav.on, m.items.nav.cur, last, statusRow(plain(m)))
	}
	if v := plain(m); !strings.Contains(v, "▼───") || !strings.Contains(v, "y copy") {
		t.Errorf("no cursor rule, or no navigation hint, on screen:\n%s", v)
	}
	steps := []struct {
		keys string
		want int
	}{
		{"k", m.items.transcript.drawn(last-1, -1)}, {"j", last}, {"j", last}, // stops at the end; skips blocks that draw nothing
		{"[ [", m.items.turnEntry[1]}, {"[ [", m.items.turnEntry[0]}, {"[ [", 0},
		{"] ]", m.items.turnEntry[0]}, {"] ]", m.items.turnEntry[1]}, {"g g", 0}, {"G", last},
	}
	for _, s := range steps {
		viKeys(d, s.keys)
		if m.items.nav.cur != s.want {
			t.Fatalf("%q: cursor at %d, want %d", s.keys, m.items.nav.cur, s.want)
		}
	}
	// search backwards from the end wraps to the first prompt; n goes on
	viKeys(d, "/ q u e s t i o n")
	if row := statusRow(plain(m)); !strings.Contains(row, "NAVIGATE /question") {
		t.Errorf("status while typing: %q", row)
	}
	viKeys(d, "enter")
	first := m.items.nav.cur
	if !strings.Contains(m.items.transcript.blockText(first), "question") {
		t.Fatalf("search landed on %d: %q", first, m.items.transcript.blockText(first))
	}
	viKeys(d, "n")
	if m.items.nav.cur == first || !strings.Contains(m.items.transcript.blockText(m.items.nav.cur), "question") {
		t.Fatalf("n: at %d %q", m.items.nav.cur, m.items.transcript.blockText(m.items.nav.cur))
	}
	viKeys(d, "N")
	if m.items.nav.cur != first {
		t.Fatalf("N: at %d, want %d", m.items.nav.cur, first)
	}
	// y on the last answer copies its markdown source, cleaned
	viKeys(d, "G")
	for m.items.nav.cur > 0 && m.items.transcript.blockText(m.items.nav.cur) != m.items.answers[1] {
		viKeys(d, "k")
	}
	_, cmd := m.Update(viKey("y"))
	clipboardOf(t, run(cmd), stream.Sanitize(m.items.answers[1]))
	// o opens the panel under the cursor
	p := m.items.panels[0]
	m.items.nav.cur = p.idx
	open := p.b.(block.Expander).Expanded()
	viKeys(d, "o")
	if p.b.(block.Expander).Expanded() == open {
		t.Error("o did not open the panel")
	}
	viKeys(d, "i")
	if m.items.nav.on || strings.Contains(plain(m), "▼───") || !strings.Contains(statusRow(plain(m)), "INSERT") {
		t.Errorf("i: still navigating, or status %q", statusRow(plain(m)))
	}
}

// TestViHelpListsEveryBinding: in the vi preset "?" lists every enabled
// binding of the key map, the vi keys and the navigation keys.
func TestViHelpListsEveryBinding(t *testing.T) {
	t.Parallel()
	k := NewKeyMap(keymap.Default("vi"))
	v := ansi.Strip(HelpView(200, nil, k))
	for _, g := range k.FullHelp() {
		for _, b := range g {
			if b.Enabled() && !strings.Contains(v, b.Help().Key+"  ") && !strings.Contains(v, b.Help().Key+" ") {
				t.Errorf("help lacks %q (%s)", b.Help().Key, b.Help().Desc)
			}
		}
	}
	for _, want := range []string{"Vi composer", "Navigate (transcript)", "ctrl+k", "gg", "]] [[", "x dd dw cw"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q:\n%s", want, v)
		}
	}
	if d := ansi.Strip(HelpView(200, nil, DefaultKeyMap())); strings.Contains(d, "Vi composer") || strings.Contains(d, "Navigate") {
		t.Errorf("the default preset lists vi keys:\n%s", d)
	}
}

// TestKeyMapRebound: an action the config rebinds matches its new keys
// and "?" shows them; the default keeps its labels.
func TestKeyMapRebound(t *testing.T) {
	t.Parallel()
	km := keymap.Default("default")
	km.Keys["copy_last"] = []string{"alt+y"}
	km.Keys["navigate"] = []string{"ctrl+k"}
	k := NewKeyMap(km)
	if !key.Matches(tea.KeyPressMsg{Code: 'y', Mod: tea.ModAlt}, k.CopyLast) || key.Matches(viKey("ctrl+y"), k.CopyLast) {
		t.Error("copy_last not rebound")
	}
	if k.CopyLast.Help().Key != "alt+y" || k.Navigate.Help().Key != "ctrl+k" || !k.Navigate.Enabled() {
		t.Errorf("labels %q %q", k.CopyLast.Help().Key, k.Navigate.Help().Key)
	}
	if d := DefaultKeyMap(); d.Navigate.Enabled() || d.Quit.Help().Key != "ctrl+c ×2" || d.Vi {
		t.Error("default key map changed")
	}
}

// TestHintNamesReboundKeys: the key hint under the composer names the keys
// the config bound, not the default ones.
func TestHintNamesReboundKeys(t *testing.T) {
	t.Parallel()
	km := keymap.Default("default")
	km.Keys["help"] = []string{"f1"}
	m := newTestModel(t, Options{Keys: km})
	if v := plain(m); !strings.Contains(v, "f1 keys") || strings.Contains(v, "? keys") {
		t.Errorf("hint does not name f1:\n%s", v)
	}
}

// TestTranscriptMarkAndReveal: the marked entry's separator is a rule and
// no text is covered; Reveal scrolls up to an entry above the view, down
// just enough to show one below it whole, and not at all for one on screen.
func TestTranscriptMarkAndReveal(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(30, 6)
	for i := range 6 {
		tr.Append(&fakeEntry{name: fmt.Sprintf("e%d", i), n: 2})
	}
	// every entry spans 3 lines (separator, 2 lines), entry 0 spans 2
	tr.ScrollTo(0)
	tr.Mark(1)
	v := ansi.Strip(tr.View())
	if !strings.Contains(v, "▼───") || !strings.Contains(v, "e1 0") || !strings.Contains(v, "e1 1") {
		t.Fatalf("marked view:\n%s", v)
	}
	top := func() int { a, _ := tr.top(); return a }
	tr.Reveal(1) // on screen: no move
	if top() != 0 {
		t.Errorf("Reveal of an entry on screen moved the view to %d", top())
	}
	tr.Reveal(3) // lines 8-10: scroll down 5 lines, entry 3 ends at the bottom
	if a, off := tr.top(); a != 2 || off != 0 {
		t.Errorf("Reveal(3): top at entry %d line %d, want 2, 0:\n%s", a, off, ansi.Strip(tr.View()))
	}
	if v := ansi.Strip(tr.View()); !strings.HasSuffix(strings.TrimRight(v, "\n"), "e3 1") {
		t.Errorf("Reveal(3) does not end with entry 3:\n%s", v)
	}
	tr.Reveal(0)
	if a, off := tr.top(); a != 0 || off != 0 {
		t.Errorf("Reveal(0): top at %d, %d", a, off)
	}
	tr.Mark(-1)
	if strings.Contains(ansi.Strip(tr.View()), "▼") {
		t.Error("Mark(-1) left the rule")
	}
}

// TestTranscriptMarkCoversNoText: with the theme's styles, the bar takes
// the first cell only where it is blank, and no marked line is wider or
// narrower than it was.
func TestTranscriptMarkCoversNoText(t *testing.T) {
	t.Parallel()
	st := newTestModel(t, Options{}).frame.styles
	tr := NewTranscript(30, 8)
	tr.SetStyles(st)
	tr.Append(&textEntry{"first"})
	tr.Append(&textEntry{"  indented line\nflush line"})
	before := strings.Split(ansi.Strip(tr.View()), "\n")
	tr.Mark(1)
	after := strings.Split(ansi.Strip(tr.View()), "\n")
	want := []string{"first", "▼───────────────────────────── ", "▌ indented line", "flush line"}
	for i, w := range want {
		if strings.TrimRight(after[i], " ") != strings.TrimRight(w, " ") {
			t.Errorf("line %d: %q, want %q", i, after[i], w)
		}
		if i != 1 && ansi.StringWidth(after[i]) != ansi.StringWidth(before[i]) {
			t.Errorf("line %d changed width: %q → %q", i, before[i], after[i])
		}
	}
}

// TestReboundScrollKeysSurviveNew: a new session's transcript keeps the
// configured scrolling keys.
func TestReboundScrollKeysSurviveNew(t *testing.T) {
	t.Parallel()
	km := keymap.Default("default")
	km.Keys["page_up"] = []string{"ctrl+b"}
	m := newTestModel(t, Options{Keys: km})
	m.Update(SlashMsg{Name: "new"})
	for i := range 40 {
		m.items.notice(block.Info, fmt.Sprintf("line %d", i))
	}
	m.Update(viKey("ctrl+b"))
	if m.items.transcript.follow {
		t.Error("ctrl+b (page_up) did not scroll after /new")
	}
}

// TestViCursorAcrossWrappedLines: the vi cursor lands on the right line
// and column of the textarea when lines wrap: j from a long first line
// goes to the second logical line, and x deletes there.
func TestViCursorAcrossWrappedLines(t *testing.T) {
	t.Parallel()
	c := NewComposer(nil)
	c.SetKeys(NewKeyMap(keymap.Default("vi")))
	c.SetWidth(20)
	long := strings.Repeat("word ", 12) // wraps over several rows
	c.SetValue(long + "\nabc\nlast")
	for _, k := range []string{"esc", "g", "k", "k", "0"} {
		c, _ = c.Update(viKey(k))
	}
	if c.ta.Line() != 0 || c.ta.Column() != 0 {
		t.Fatalf("at line %d col %d, want 0 0", c.ta.Line(), c.ta.Column())
	}
	for _, k := range []string{"$", "j", "x"} {
		c, _ = c.Update(viKey(k))
	}
	if got := c.Value(); got != long+"\nab\nlast" {
		t.Errorf("j x from a wrapped line: %q", got)
	}
	if c.ta.Line() != 1 || c.ta.Column() != 1 {
		t.Errorf("cursor at line %d col %d, want 1 1", c.ta.Line(), c.ta.Column())
	}
}

// TestViNavigationEditsATurn: e on any block of a turn (here the first
// answer) puts that turn's prompt in the composer as an edit, leaving
// navigation mode; sending it starts a branch there.
func TestViNavigationEditsATurn(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse")))
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse")))
	m, d := viModel(t, srv)
	for i, p := range []string{"first question", "second question"} {
		d.typeKeys(p)
		viKeys(d, "enter")
		d.until("the answer", func() bool {
			return m.turns.cur == nil && m.statusBar.status.State == Idle && len(m.items.answers) == i+1
		})
	}
	viKeys(d, "ctrl+k")
	viKeys(d, "[ [")
	viKeys(d, "[ [")
	viKeys(d, "j") // the first answer
	if m.items.nav.cur <= m.items.turnEntry[0] || m.items.nav.cur >= m.items.turnEntry[1] {
		t.Fatalf("cursor at %d, not in the first turn (%v)", m.items.nav.cur, m.items.turnEntry)
	}
	viKeys(d, "e")
	d.until("the edit", func() bool { return m.turns.editing != nil })
	if m.items.nav.on || m.composer.Value() != "first question" || m.turns.editing != m.turns.conv.Turns[0] {
		t.Errorf("e: navigating %v, composer %q, editing the first turn %v", m.items.nav.on, m.composer.Value(), m.turns.editing == m.turns.conv.Turns[0])
	}
}
