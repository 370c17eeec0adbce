package ui

// screenMemo is the screen View returned last. A View whose screen has not
// changed returns that same string, not an equal copy: Bubble Tea v2's
// renderer compares the view with the last one it drew on every tick of its
// 60 Hz ticker (cursedRenderer.flush, viewEquals), and keeps the last drawn
// one when a new view is equal to it. So after a message that changed
// nothing on screen (a status refresh, a save, a hint that expired) an equal
// copy would be compared byte by byte 60 times a second for as long as the
// chat stays idle; the same string compares by its address. It costs View
// one compare of the screen, on the messages only.
//
// Invariant: last is the last screen View returned (its content, and from
// the first View on, its address too).
type screenMemo struct{ last string }

// same returns the string last returned when screen equals it, else screen,
// which it keeps.
func (s *screenMemo) same(screen string) string {
	if screen == s.last {
		return s.last
	}
	s.last = screen
	return screen
}

// drawn is the screen the root's View returns for screen: the string it
// returned last when screen equals it (screenMemo).
func (f *frameState) drawn(screen string) string { return f.screen.same(screen) }
