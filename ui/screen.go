package ui

import (
	"slices"
	"strings"
)

// screenMemo is the screen View returned last, and the parts it was
// joined from. A View whose screen has not changed returns that same
// string, not an equal copy: Bubble Tea v2's renderer compares the view
// with the last one it drew on every tick of its 60 Hz ticker
// (cursedRenderer.flush, viewEquals), and keeps the last drawn one when a
// new view is equal to it. So after a message that changed nothing on
// screen (a status refresh, a save, a hint that expired) an equal copy
// would be compared byte by byte 60 times a second for as long as the chat
// stays idle; the same string compares by its address.
//
// The children return the same string for a view that has not changed
// (the transcript's viewMemo, the status bar's lines), so parts equal to
// the last ones compare by their addresses too, and such a View costs no
// join: after a message that changed nothing it is a few compares.
//
// Invariants: last is the last screen View returned (its content, and from
// the first View on, its address too); parts, when not nil, are the parts
// last was joined from.
type screenMemo struct {
	last  string
	parts []string
}

// same returns the string last returned when screen equals it, else screen,
// which it keeps.
func (s *screenMemo) same(screen string) string {
	if screen == s.last {
		return s.last
	}
	s.last = screen
	return screen
}

// join is the parts joined by newlines: the string last returned when the
// parts are those it was joined from, or when the join equals it.
func (s *screenMemo) join(parts []string) string {
	if s.parts != nil && slices.Equal(parts, s.parts) {
		return s.last
	}
	s.parts = append(s.parts[:0], parts...)
	return s.same(strings.Join(parts, "\n"))
}

// drawn is the screen the root's View returns for parts: the string it
// returned last when it is the same (screenMemo).
func (f *frameState) drawn(parts []string) string { return f.screen.join(parts) }
