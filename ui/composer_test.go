package ui

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// key builds a key press as Bubble Tea v2 delivers it.
func keyMsg(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "shift+enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
	case "alt+enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	case "ctrl+j":
		return tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	case "ctrl+e":
		return tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	panic("keyMsg: unknown key " + s)
}

// typeText sends each rune as a key press.
func typeText(c Composer, s string) Composer {
	for _, r := range s {
		c, _ = c.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return c
}

// run executes a Cmd (and the Cmds of a batch) and returns the messages.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func newTestComposer() Composer {
	c := NewComposer(nil)
	c.SetWidth(60)
	return c
}

func TestKeyStrings(t *testing.T) {
	t.Parallel()
	// The key map matches on these strings; make sure v2 spells them so.
	for want, k := range map[string]tea.KeyPressMsg{
		"enter": keyMsg("enter"), "shift+enter": keyMsg("shift+enter"), "alt+enter": keyMsg("alt+enter"),
		"ctrl+j": keyMsg("ctrl+j"), "ctrl+e": keyMsg("ctrl+e"), "tab": keyMsg("tab"),
		"pgup": press("pgup"), "pgdown": press("pgdown"), "home": press("home"), "end": press("end"),
	} {
		if got := k.String(); got != want {
			t.Errorf("key %#v is %q; want %q", k, got, want)
		}
	}
}

func TestComposerEnterSends(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "hello there")
	c, cmd := c.Update(keyMsg("enter"))
	msgs := run(cmd)
	if len(msgs) != 1 || !reflect.DeepEqual(msgs[0], SubmitMsg{Text: "hello there"}) {
		t.Fatalf("enter gave %#v; want SubmitMsg", msgs)
	}
	if c.Value() != "" {
		t.Errorf("composer not cleared: %q", c.Value())
	}
	if h := c.History(); len(h) != 1 || h[0] != "hello there" {
		t.Errorf("history = %q", h)
	}
	// Enter on blank text sends nothing.
	c = typeText(c, "   ")
	if _, cmd := c.Update(keyMsg("enter")); cmd != nil {
		t.Errorf("enter on blanks gave %#v", run(cmd))
	}
}

func TestComposerNewlineKeys(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"shift+enter", "alt+enter", "ctrl+j"} {
		c := typeText(newTestComposer(), "one")
		c, cmd := c.Update(keyMsg(k))
		for _, m := range run(cmd) {
			if _, ok := m.(SubmitMsg); ok {
				t.Errorf("%s sent the text", k)
			}
		}
		c = typeText(c, "two")
		if got := c.Value(); got != "one\ntwo" {
			t.Errorf("%s: value = %q; want a line break", k, got)
		}
		if c.Height() != 2 {
			t.Errorf("%s: height = %d; want 2", k, c.Height())
		}
	}
}

func TestComposerGrowsThenScrolls(t *testing.T) {
	t.Parallel()
	c := newTestComposer()
	if c.Height() != 1 {
		t.Fatalf("empty height = %d", c.Height())
	}
	for i := 0; i < 12; i++ {
		c = typeText(c, "line")
		c, _ = c.Update(keyMsg("ctrl+j"))
		want := min(i+2, composerMaxLines)
		if c.Height() != want {
			t.Fatalf("after %d breaks height = %d; want %d", i+1, c.Height(), want)
		}
		if got := strings.Count(c.View(), "\n") + 1; got != c.Height() {
			t.Fatalf("View has %d lines; Height says %d", got, c.Height())
		}
	}
	if n := strings.Count(c.Value(), "\n"); n != 12 {
		t.Errorf("value has %d breaks; input stopped early", n)
	}
}

func TestComposerPlaceholder(t *testing.T) {
	t.Parallel()
	if v := ansi.Strip(newTestComposer().View()); !strings.Contains(v, "Ask anything") {
		t.Errorf("empty view = %q; want the placeholder", v)
	}
}

func TestComposerHistory(t *testing.T) {
	t.Parallel()
	c := newTestComposer()
	for _, p := range []string{"first", "second\nline two", "third"} {
		c.SetValue(p)
		c, _ = c.Update(keyMsg("enter"))
	}
	steps := []struct{ key, want string }{
		{"up", "third"},
		{"up", "second\nline two"},
		{"up", "second\nline two"}, // cursor goes up inside the recalled text first
		{"up", "first"},
		{"up", "first"},              // the oldest stays
		{"down", "second\nline two"}, // the cursor lands at the end, on the last line
		{"down", "third"},
		{"down", ""}, // past the newest: empty again
	}
	for i, s := range steps {
		c, _ = c.Update(keyMsg(s.key))
		if got := c.Value(); got != s.want {
			t.Fatalf("step %d (%s): value = %q; want %q", i, s.key, got, s.want)
		}
	}
	// Up with text that was typed (not recalled) moves the cursor only.
	c = typeText(c, "draft")
	c, _ = c.Update(keyMsg("up"))
	if c.Value() != "draft" {
		t.Errorf("up over a draft replaced it: %q", c.Value())
	}
	// A repeat of the last prompt is stored once.
	c.Reset()
	c.SetValue("third")
	c, _ = c.Update(keyMsg("enter"))
	if h := c.History(); len(h) != 3 {
		t.Errorf("history = %q; a repeat was stored twice", h)
	}
}

func TestComposerSlashMenu(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "/")
	if n := len(c.menu.rows); n != len(Commands()) {
		t.Fatalf("menu after / has %d rows; want every command", n)
	}
	if c.Height() != 1+min(len(Commands()), menuMaxItems) {
		t.Errorf("height with menu = %d", c.Height())
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, "/model [NAME]") || !strings.Contains(v, "switch the model") {
		t.Errorf("menu view lacks /model:\n%s", v)
	}
	c = typeText(c, "mo")
	if len(c.menu.rows) != 1 || c.menu.rows[0].Name != "model" {
		t.Fatalf("menu after /mo = %v", c.menu.rows)
	}
	c, _ = c.Update(keyMsg("tab"))
	if c.Value() != "/model " {
		t.Fatalf("tab completed to %q", c.Value())
	}
	if len(c.menu.rows) != 0 {
		t.Error("menu still open while typing arguments")
	}
	c = typeText(c, "gpt-5")
	c, cmd := c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || msgs[0] != (SlashMsg{Name: "model", Args: "gpt-5"}) {
		t.Fatalf("enter gave %#v; want SlashMsg model gpt-5", msgs)
	}
	if c.Value() != "" {
		t.Errorf("composer not cleared after a command")
	}
}

func TestComposerSlashEnter(t *testing.T) {
	t.Parallel()
	// Enter on a partial name of a command without arguments runs it.
	c := typeText(newTestComposer(), "/ne")
	c, cmd := c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || msgs[0] != (SlashMsg{Name: "new"}) {
		t.Fatalf("enter on /ne gave %#v", msgs)
	}
	// On a command that needs arguments it completes instead.
	c = typeText(c, "/eff")
	c, cmd = c.Update(keyMsg("enter"))
	if cmd != nil || c.Value() != "/effort " {
		t.Fatalf("enter on /eff: value %q, msgs %#v", c.Value(), run(cmd))
	}
	// Bad arguments: a notice, and the text stays for fixing.
	c = typeText(c, "extreme")
	c, cmd = c.Update(keyMsg("enter"))
	msgs := run(cmd)
	n, ok := msgs[0].(NoticeMsg)
	if len(msgs) != 1 || !ok || !n.Err || !strings.Contains(n.Text, "minimal, low, medium, high") {
		t.Fatalf("enter on /effort extreme gave %#v", msgs)
	}
	if c.Value() != "/effort extreme" {
		t.Errorf("text was cleared: %q", c.Value())
	}
	// Unknown command.
	c.Reset()
	c = typeText(c, "/frob x")
	_, cmd = c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || !strings.Contains(msgs[0].(NoticeMsg).Text, "unknown command /frob") {
		t.Errorf("unknown command gave %#v", msgs)
	}
	// A path is a prompt, not a command.
	c.Reset()
	c = typeText(c, "/usr/bin/env is missing")
	if len(c.menu.rows) != 0 {
		t.Error("a path opened the menu")
	}
	_, cmd = c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || !reflect.DeepEqual(msgs[0], SubmitMsg{Text: "/usr/bin/env is missing"}) {
		t.Errorf("path prompt gave %#v", msgs)
	}
}

func TestComposerMenuSelection(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "/")
	c, _ = c.Update(keyMsg("down"))
	c, _ = c.Update(keyMsg("down"))
	if got := c.menu.rows[c.menu.sel.Sel()].Name; got != Commands()[2].Name {
		t.Fatalf("after two downs the selection is %q", got)
	}
	c, _ = c.Update(keyMsg("up"))
	c, _ = c.Update(keyMsg("tab"))
	if want := "/" + Commands()[1].Name + " "; c.Value() != want {
		t.Errorf("tab completed to %q; want %q", c.Value(), want)
	}
	// The menu's cursor is the dialogs' (listCursor): it stops at the ends
	// instead of wrapping, and the window follows it.
	c.Reset()
	c = typeText(c, "/")
	c, _ = c.Update(keyMsg("up"))
	if got := c.menu.rows[c.menu.sel.Sel()].Name; got != Commands()[0].Name {
		t.Errorf("up from the first row selected %q", got)
	}
	for range len(Commands()) + 3 {
		c, _ = c.Update(dlgKey("ctrl+n"))
	}
	last := Commands()[len(Commands())-1]
	if got := c.menu.rows[c.menu.sel.Sel()].Name; got != last.Name {
		t.Errorf("down past the last row selected %q", got)
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, last.Usage()) {
		t.Errorf("the window does not show the selected last row:\n%s", v)
	}
	// pgup/pgdn and home/end are not the menu's: the transcript and the
	// text keep them.
	if c2, _ := c.Update(dlgKey("home")); c2.menu.sel.Sel() != c.menu.sel.Sel() {
		t.Error("home moved the menu")
	}
}

func TestComposerTabWithoutMenuIsNotText(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "a")
	c, _ = c.Update(keyMsg("tab"))
	if c.Value() != "a" {
		t.Errorf("tab changed the text to %q", c.Value())
	}
}

func TestComposerEditorDone(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "before")
	c, cmd := c.Update(EditorDoneMsg{Text: "after\nedit"})
	if cmd != nil || c.Value() != "after\nedit" {
		t.Errorf("EditorDoneMsg: value %q", c.Value())
	}
	c, cmd = c.Update(EditorDoneMsg{Err: errors.New("editor failed: exit status 1")})
	msgs := run(cmd)
	if len(msgs) != 1 || !msgs[0].(NoticeMsg).Err || c.Value() != "after\nedit" {
		t.Errorf("editor error: msgs %#v, value %q", msgs, c.Value())
	}
}

func TestComposerCtrlEOpensEditor(t *testing.T) {
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "true")
	t.Setenv("TMPDIR", t.TempDir()) // the prompt file is never read back here
	c := typeText(newTestComposer(), "draft")
	_, cmd := c.Update(keyMsg("ctrl+e"))
	if cmd == nil {
		t.Fatal("ctrl+e gave no Cmd")
	}
	// The Cmd hands the terminal to the editor: its message is Bubble Tea's
	// internal exec request, not text.
	if _, ok := cmd().(EditorDoneMsg); ok {
		t.Error("ctrl+e finished without running the editor")
	}
}

func TestComposerPasteIsPlain(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "x")
	c, _ = c.Update(tea.PasteMsg{Content: "a\x1b[31mb\x07c\r\nd"})
	if got := c.Value(); got != "xabc\nd" {
		t.Errorf("pasted value = %q; want escape sequences gone and CRLF as one break", got)
	}
	c, _ = c.Update(EditorDoneMsg{Text: "e\x1b]0;title\x07f\r\ng"})
	if got := c.Value(); got != "ef\ng" {
		t.Errorf("edited value = %q", got)
	}
}

// TestComposerEmptyViewCache: the cached empty view is what the textarea
// draws, through width changes, blur and focus, text typed and cleared.
func TestComposerEmptyViewCache(t *testing.T) {
	t.Parallel()
	c := NewComposer(nil)
	c.SetWidth(80)
	check := func(when string) {
		t.Helper()
		if got, want := c.View(), c.ta.View(); got != want {
			t.Fatalf("%s: cached view %q, textarea draws %q", when, got, want)
		}
	}
	check("new")
	c.SetWidth(50)
	check("narrower")
	c.Blur()
	check("blurred")
	c.Focus()
	check("focused")
	c.SetValue("hello")
	check("with text")
	c.Reset()
	check("cleared")
}

// TestEscKeepsTheDraft: esc with text in the composer clears it, and up
// brings it back whole, a large paste's text included; the history search
// lists it too. (esc used to delete the draft for good.)
func TestEscKeepsTheDraft(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	long := strings.Repeat("a long prompt that took a while to write ", 20)
	paste := strings.Repeat("pasted line\n", 30)
	m.Update(tea.PasteMsg{Content: paste})
	for _, r := range long {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	want := m.composer.Text()
	if !strings.Contains(want, "pasted line") || !strings.Contains(want, "a long prompt") {
		t.Fatalf("composer holds %q", want)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.composer.Value() != "" {
		t.Fatalf("esc left %q", m.composer.Value())
	}
	if !strings.Contains(plain(m), "↑ brings it back") {
		t.Errorf("no word on how to get the draft back:\n%s", plain(m))
	}
	if r := m.composer.Recent(); len(r) == 0 || r[0] != want {
		t.Errorf("the history search does not list the draft first: %q", r)
	}
	m.Update(keyMsg("up"))
	if got := m.composer.Text(); got != want {
		t.Errorf("up brought back %q, want the draft", got)
	}
	// an empty composer: esc says nothing and keeps nothing
	m.composer.Reset()
	n := len(m.composer.History())
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if len(m.composer.History()) != n {
		t.Error("an empty composer's esc added to the history")
	}
}
