package ui

// This file is the composer's hint part: a short-lived line of feedback
// (what a tab completed, why it could not, what a copy did) drawn in place
// of the key hint under the status line, so it never adds to the
// transcript nor moves it. It lasts hintFor, or until the next key the
// composer gets.

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
)

// hintFor is how long a hint shows.
const hintFor = 4 * time.Second

// hintMsg shows a hint: from the composer's own parts, or from another
// child (a copy) through the root, which routes it to the composer.
type hintMsg struct {
	text string
	err  bool
}

// hintExpiredMsg ends hint seq.
type hintExpiredMsg struct{ seq int }

// hint returns a Cmd that shows text as a hint.
func hint(isErr bool, text string) tea.Cmd {
	return func() tea.Msg { return hintMsg{text: text, err: isErr} }
}

// flash is the hint shown now.
//
// Invariants: text is one sanitized line, "" for none; seq counts the hints
// shown, so only the newest one's expiry clears it.
type flash struct {
	text string
	err  bool
	seq  int
}

// set shows text and returns the Cmd that ends it.
func (f *flash) set(text string, isErr bool) tea.Cmd {
	f.seq++
	f.text, f.err = stream.SanitizeLine(text), isErr
	seq := f.seq
	return tea.Tick(hintFor, func(time.Time) tea.Msg { return hintExpiredMsg{seq} })
}

// expire ends hint seq, unless a newer one shows.
func (f *flash) expire(seq int) {
	if seq == f.seq {
		f.text = ""
	}
}

// view is the hint's line, cut to width; "" when none shows.
func (f flash) view(width int, st *theme.Styles) string {
	if f.text == "" {
		return ""
	}
	sh := theme.ShellOf(st)
	style := sh.HintDesc
	mark := "· "
	if f.err {
		style, mark = sh.Alert, "✗ "
	}
	return style.Render(ansi.Truncate(mark+f.text, max(width, 1), "…"))
}
