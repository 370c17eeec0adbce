package block

import (
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/costtest"
)

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

// TestFitterGrowing: fitting a growing render step by step equals fitting
// it whole, with rows that overflow early, late and in a rewritten middle.
func TestFitterGrowing(t *testing.T) {
	long := strings.Repeat("x", 30)
	steps := []string{
		"short\n" + long,
		"short\n" + long + "\nmore",
		"short\n" + long + "\nmore rows\nand " + long,
		"short\nchanged\nmore rows\nand " + long + "\n",
		"short\nchanged\nmore rows\nand " + long + "\nend",
	}
	var f fitter
	for i, s := range steps {
		var whole fitter
		if got, want := f.fit(s, 10), whole.fit(s, 10); got != want {
			t.Fatalf("step %d: %q, want %q", i, got, want)
		}
		for _, row := range strings.Split(f.out, "\n") {
			if ansi.StringWidth(row) > 10 {
				t.Fatalf("step %d: row %q wider than 10", i, row)
			}
		}
	}
	if got := f.fit(steps[len(steps)-1], 40); got != steps[len(steps)-1] {
		t.Errorf("at a width everything fits: %q", got)
	}
}

// TestGrowingCleanCopiesWhatIsNew: a growing text with tabs (a Go answer)
// is cleaned step by step with about what is new allocated, not the whole
// text at every step, and equals clean of the whole at every step.
func TestGrowingCleanCopiesWhatIsNew(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	var b strings.Builder
	for b.Len() < 64<<10 {
		b.WriteString("func f() {\n\treturn x // é, a tab above\n}\n\n")
	}
	text := b.String()
	const step = 128 // 512 steps
	var g growing
	for i := step; i <= len(text); i += step { // checked once whole, at every step
		if got, want := g.clean(text[:i]), clean(text[:i]); got != want {
			t.Fatalf("after %d bytes: differs from clean of the whole", i)
		}
	}
	g = growing{}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := step; i <= len(text); i += step {
		g.clean(text[:i])
	}
	runtime.ReadMemStats(&after)
	// the kept clean text grows as append grows a slice (about 5 times the
	// text in all), each step's tabs are replaced in a copy of the step; a
	// copy of the whole at every step is about 600 times (38 MB)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(16*len(text)) {
		t.Errorf("cleaning %d KB in %d steps allocated %d KB, want under %d KB", len(text)>>10, len(text)/step, got>>10, 16*len(text)>>10)
	}
}
