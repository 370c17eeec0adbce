package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/store"
	"runnel/theme"
)

// Helpers shared by the dialog tests (picker, search, tools, approval).

// dialogModel is the shape every dialog has.
type dialogModel[T any] interface {
	Update(tea.Msg) (T, tea.Cmd)
	View(width, height int) string
}

// dlgKey is the key press a key name stands for: "enter", "ctrl+d", "a", ….
func dlgKey(name string) tea.KeyPressMsg {
	codes := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown,
		"delete": tea.KeyDelete, "backspace": tea.KeyBackspace, "space": tea.KeySpace,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	}
	if c, ok := codes[name]; ok {
		k := tea.KeyPressMsg{Code: c}
		if name == "space" {
			k.Text = " "
		}
		return k
	}
	if r, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(r)[0], Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// dlgPress sends key presses by name and returns the dialog and every
// message the returned Cmds produced, in order.
func dlgPress[T dialogModel[T]](d T, keys ...string) (T, []tea.Msg) {
	var msgs []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		d, cmd = d.Update(dlgKey(k))
		msgs = append(msgs, dlgRun(cmd)...)
	}
	return d, msgs
}

// dlgType types text one rune at a time.
func dlgType[T dialogModel[T]](d T, text string) (T, []tea.Msg) {
	var msgs []tea.Msg
	for _, r := range text {
		var cmd tea.Cmd
		d, cmd = d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		msgs = append(msgs, dlgRun(cmd)...)
	}
	return d, msgs
}

// dlgRun executes a Cmd (and a batch's Cmds) and returns the messages.
func dlgRun(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, dlgRun(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// dlgStyles is a coloured theme, so that views carry real styling.
func dlgStyles() *theme.Styles {
	st := theme.New(theme.Dark())
	return &st
}

// sgrOnly matches the only escape sequences a view may hold: SGR styling.
var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkView fails unless view has at most height lines of at most width
// cells, and carries no escape sequence but SGR and no control character.
func checkView(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("view has %d lines, height is %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, width is %d: %q", i, w, width, ansi.Strip(l))
		}
		rest := sgrOnly.ReplaceAllString(l, "")
		for _, r := range rest {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Errorf("line %d holds control character %U: %q", i, r, l)
			}
		}
	}
}

var pickerNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func pickerSessions() []store.SessionInfo {
	return []store.SessionInfo{
		{ID: "s1", Title: "Fix the SSE parser", Turns: 4, Model: "gpt-5", Updated: pickerNow.Add(-3 * time.Minute), Preview: "The parser now handles split frames."},
		{ID: "s2", Title: "Dinner recipes", Turns: 1, Model: "gpt-5-mini", Updated: pickerNow.Add(-2 * time.Hour), Preview: "Try a risotto."},
		{ID: "s3", Title: "sse reconnect logic", Turns: 12, Model: "o3", Updated: pickerNow.Add(-5 * 24 * time.Hour), Preview: "Back off exponentially."},
	}
}

func TestPickerFilterNarrowsRows(t *testing.T) {
	t.Parallel()
	p := NewPicker(pickerSessions(), pickerNow, dlgStyles())
	if v := ansi.Strip(p.View(80, 30)); !strings.Contains(v, "Dinner recipes") || !strings.Contains(v, "3 of 3") {
		t.Fatalf("unfiltered view lacks a row:\n%s", v)
	}
	p, _ = dlgType(p, "SSE")
	v := ansi.Strip(p.View(80, 30))
	if !strings.Contains(v, "Fix the SSE parser") || !strings.Contains(v, "sse reconnect logic") || strings.Contains(v, "Dinner") {
		t.Fatalf("filter SSE (any case) should keep both sse rows only:\n%s", v)
	}
	if !strings.Contains(v, "2 of 3") {
		t.Errorf("count should read 2 of 3:\n%s", v)
	}
	p, _ = dlgType(p, " back") // a word of the preview narrows further
	v = ansi.Strip(p.View(80, 30))
	if strings.Contains(v, "Fix the SSE parser") || !strings.Contains(v, "sse reconnect logic") {
		t.Fatalf("filter \"SSE back\" should keep only s3:\n%s", v)
	}
	p, _ = dlgType(p, "zzz")
	if v := ansi.Strip(p.View(80, 30)); !strings.Contains(v, "no sessions match") {
		t.Errorf("a filter matching nothing should say so:\n%s", v)
	}
	for range len("zzz back") {
		p, _ = dlgPress(p, "backspace")
	}
	if p.Filter() != "SSE" {
		t.Fatalf("filter after backspaces = %q, want SSE", p.Filter())
	}
	if _, msgs := dlgPress(p, "down", "enter"); len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "s3"}) {
		t.Errorf("second match opened %v, want s3", msgs)
	}
}

func TestPickerHighlightsFilterInTitle(t *testing.T) {
	t.Parallel()
	st := dlgStyles()
	p, _ := dlgType(NewPicker(pickerSessions(), pickerNow, st), "sse")
	v := p.View(80, 30)
	if !strings.Contains(v, theme.DialogOf(st).Match.Render("SSE")) {
		t.Errorf("the matched word of the title is not highlighted:\n%q", v)
	}
}

func TestPickerEnterOpensSelected(t *testing.T) {
	t.Parallel()
	p := NewPicker(pickerSessions(), pickerNow, nil)
	_, msgs := dlgPress(p, "down", "down", "down", "up", "enter")
	if len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "s2"}) {
		t.Fatalf("enter emitted %v, want OpenSessionMsg{s2}", msgs)
	}
	if _, msgs := dlgPress(p, "esc"); len(msgs) != 1 || msgs[0] != (DialogClosedMsg{}) {
		t.Fatalf("esc emitted %v, want DialogClosedMsg", msgs)
	}
}

func TestPickerDeleteConfirm(t *testing.T) {
	t.Parallel()
	p := NewPicker(pickerSessions(), pickerNow, dlgStyles())
	p, _ = dlgPress(p, "down", "delete")
	if v := ansi.Strip(p.View(80, 30)); !strings.Contains(v, "delete “Dinner recipes”? y/n") {
		t.Fatalf("delete should ask about the selected row:\n%s", v)
	}
	p, msgs := dlgPress(p, "x", "enter") // ignored while asking
	p, _ = p.Update(tea.PasteMsg{Content: "zzz"})
	checkView(t, p.View(80, 30), 80, 30)
	if len(msgs) != 0 || p.Filter() != "" {
		t.Fatalf("keys while asking: msgs %v, filter %q; want none", msgs, p.Filter())
	}
	p, msgs = dlgPress(p, "n")
	if len(msgs) != 0 || p.Len() != 3 || strings.Contains(ansi.Strip(p.View(80, 30)), "? y/n") {
		t.Fatalf("n should cancel: msgs %v, len %d", msgs, p.Len())
	}
	p, msgs = dlgPress(p, "ctrl+d", "esc")
	if len(msgs) != 0 || p.Len() != 3 {
		t.Fatalf("esc should cancel the question only: msgs %v, len %d", msgs, p.Len())
	}
	p, msgs = dlgPress(p, "delete", "y")
	if len(msgs) != 1 || msgs[0] != (DeleteSessionMsg{ID: "s2"}) {
		t.Fatalf("y emitted %v, want DeleteSessionMsg{s2}", msgs)
	}
	v := ansi.Strip(p.View(80, 30))
	if p.Len() != 2 || strings.Contains(v, "Dinner") || !strings.Contains(v, "2 of 2") {
		t.Fatalf("the deleted row should be gone (len %d):\n%s", p.Len(), v)
	}
	if _, msgs := dlgPress(p, "enter"); len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "s3"}) {
		t.Errorf("after deleting, the selection should move to the next row: %v", msgs)
	}
	p, _ = dlgType(p, "d")
	if p.Filter() != "d" || strings.Contains(ansi.Strip(p.View(80, 30)), "? y/n") {
		t.Errorf("plain d is filter text, not delete: filter %q", p.Filter())
	}
	p, _ = dlgPress(NewPicker(pickerSessions()[:1], pickerNow, nil), "delete", "y")
	if v := ansi.Strip(p.View(60, 10)); !strings.Contains(v, "no saved sessions yet") {
		t.Errorf("deleting the last session should leave the empty message:\n%s", v)
	}
	if _, msgs := dlgPress(p, "delete", "y", "enter"); len(msgs) != 0 {
		t.Errorf("keys on an empty picker emitted %v", msgs)
	}
}

func TestPickerEmpty(t *testing.T) {
	t.Parallel()
	p := NewPicker(nil, pickerNow, dlgStyles())
	v := p.View(60, 10)
	checkView(t, v, 60, 10)
	if !strings.Contains(ansi.Strip(v), "no saved sessions yet") {
		t.Fatalf("empty picker:\n%s", v)
	}
	if _, msgs := dlgPress(p, "esc"); len(msgs) != 1 || msgs[0] != (DialogClosedMsg{}) {
		t.Errorf("esc emitted %v", msgs)
	}
}

func TestPickerRowShowsAgeTurnsModelPreview(t *testing.T) {
	t.Parallel()
	v := ansi.Strip(NewPicker(pickerSessions(), pickerNow, nil).View(100, 30))
	for _, want := range []string{"3m · 4 turns · gpt-5", "2h · 1 turn · gpt-5-mini", "5d · 12 turns · o3", "The parser now handles split frames."} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	for d, want := range map[time.Duration]string{
		0: "now", 59 * time.Second: "now", time.Minute: "1m", 59 * time.Minute: "59m", time.Hour: "1h",
		47 * time.Hour: "1d", 400 * 24 * time.Hour: "1y", -time.Hour: "now",
	} {
		if got := sessionAge(pickerNow, pickerNow.Add(-d)); got != want {
			t.Errorf("sessionAge(%v) = %q, want %q", d, got, want)
		}
	}
	if got := sessionAge(pickerNow, time.Time{}); got != "?" {
		t.Errorf("sessionAge(zero) = %q, want ?", got)
	}
}

func TestPickerViewFits(t *testing.T) {
	t.Parallel()
	var many []store.SessionInfo
	for i := range 40 {
		many = append(many, store.SessionInfo{
			ID: store.SessionID(rune('a' + i%26)), Title: strings.Repeat("長いタイトル long title ", 1+i%5), Turns: i,
			Model: "gpt-5-codex-very-long-model-name", Updated: pickerNow.Add(-time.Duration(i) * time.Hour),
			Preview: strings.Repeat("preview text ", 20),
		})
	}
	for _, w := range []int{60, 100} {
		for _, h := range []int{4, 10, 30} {
			p := NewPicker(many, pickerNow, dlgStyles())
			checkView(t, p.View(w, h), w, h)
			p, _ = dlgPress(p, "pgdown", "pgdown", "down", "down")
			checkView(t, p.View(w, h), w, h)
			p, _ = dlgPress(p, "delete")
			checkView(t, p.View(w, h), w, h)
			if !strings.Contains(ansi.Strip(p.View(w, h)), "? y/n") {
				t.Errorf("%dx%d: the question is not shown", w, h)
			}
		}
	}
	// The selected row stays in view as it moves down a long list.
	p := NewPicker(many, pickerNow, nil)
	for range 30 {
		p, _ = dlgPress(p, "down")
	}
	if !strings.Contains(p.View(60, 12), "› ") {
		t.Errorf("the selected row scrolled out of view:\n%s", p.View(60, 12))
	}
}

func TestPickerControlCharsNeverReachOutput(t *testing.T) {
	t.Parallel()
	evil := []store.SessionInfo{{
		ID: "x", Title: "pwn\x1b]0;owned\x07ed\x1b[2J\r\n\ttitle\u009b31m", Turns: 2,
		Model: "gpt\x1b[31m-5\x00", Updated: pickerNow, Preview: "prev\x1b[1Aiew\x07\x08",
	}}
	p := NewPicker(evil, pickerNow, dlgStyles())
	for _, w := range []int{60, 100} {
		checkView(t, p.View(w, 20), w, 20)
	}
	v := ansi.Strip(p.View(100, 20))
	if strings.Contains(v, "owned") || !strings.Contains(v, "pwned title") {
		t.Errorf("the title was not cleaned as expected:\n%q", v)
	}
	q, _ := dlgPress(p, "delete")
	checkView(t, q.View(60, 20), 60, 20)
	q, _ = dlgType(p, "pwn")
	checkView(t, q.View(60, 20), 60, 20)
	q, _ = dlgPress(p, "x")
	q, _ = q.Update(tea.PasteMsg{Content: "\x1b[31mzz\x07"})
	checkView(t, q.View(60, 20), 60, 20)
	if q.Filter() != "xzz" {
		t.Errorf("a pasted escape sequence should vanish whole from the filter: %q", q.Filter())
	}
}

// TestPickerBidiAndZeroWidth: session titles, models and previews holding
// bidi and zero-width characters show cleaned, every row as wide as the
// others by both width measures.
func TestPickerBidiAndZeroWidth(t *testing.T) {
	t.Parallel()
	ss := pickerSessions()
	ss[0].Title = "Fix " + bidiHostile
	ss[1].Model = "gpt\u202e-5"
	ss[2].Preview = bidiHostile + " back"
	v := NewPicker(ss, pickerNow, dlgStyles()).View(80, 30)
	checkNoFormatChars(t, "picker", v)
	if !strings.Contains(ansi.Strip(v), "Fix abcdef gh") {
		t.Errorf("cleaned title missing:\n%s", ansi.Strip(v))
	}
	for i, row := range strings.Split(v, "\n") {
		if gw, wc := ansi.StringWidth(row), ansi.StringWidthWc(row); gw != wc || gw > 80 {
			t.Errorf("row %d: %d cells, %d per rune: %q", i, gw, wc, ansi.Strip(row))
		}
	}
}
