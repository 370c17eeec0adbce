package block

import "testing"

// TestGrowingClean: cleaning a growing text piece by piece gives clean of
// the whole at every step, across escapes and runes cut between deltas and
// a text that is rewritten.
func TestGrowingClean(t *testing.T) {
	text := "plain é words\x1b[31m red\x1b[0m\tand a tab, a cut rune é, \x1b]0;title\x07 done\r\n"
	var g growing
	for i := 0; i <= len(text); i++ {
		if got, want := g.clean(text[:i]), clean(text[:i]); got != want {
			t.Fatalf("after %d bytes: %q, want %q", i, got, want)
		}
	}
	if got, want := g.clean("rewritten\ttext"), clean("rewritten\ttext"); got != want {
		t.Errorf("rewritten: %q, want %q", got, want)
	}
}
