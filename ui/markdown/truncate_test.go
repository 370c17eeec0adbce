package markdown

import (
	"math/rand"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

// TestTruncateIsAnsiTruncate: truncate gives what xansi.Truncate gives, on
// random text of ASCII, CJK, combining marks, emoji with joiners and
// modifiers and zero-width characters, at every width; and on text whose
// escape sequence comes before the cut. (The wrapper's text is sanitized:
// it holds none; Truncate keeps those after the cut, which truncate does
// not look for.)
func TestTruncateIsAnsiTruncate(t *testing.T) {
	t.Parallel() // a property run with a renderer (or none) of its own; it counts and times nothing
	pieces := []string{"a", "b", " ", "漢", "字", "e\u0301", "\u0301", "👍🏽", "👩\u200d👩\u200d👧", "\u200b", "🇫🇷", "x", "é", "ﾊ", "\t"}
	r := rand.New(rand.NewSource(7))
	for range 3000 {
		var b strings.Builder
		for range r.Intn(40) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		if r.Intn(4) == 0 {
			s = "\x1b[31m" + s
		}
		for n := 0; n < 30; n++ {
			if got, want := truncate(s, n), xansi.Truncate(s, n, ""); got != want {
				t.Fatalf("truncate(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
