package ui

import (
	"runtime"
	"testing"

	"runnel/stream/costtest"
)

// TestPacedAnswerAllocates: a 40 KB answer streamed at 200 deltas/s (510
// frames) allocates a bounded multiple of what the same answer allocates
// at full speed (a dozen frames), measured in the same run: what a frame
// allocates is its tail's render, not a copy of the whole answer (that
// made it 2.6 times, 26 MB for the frames; 1.8 and 14 MB drawn in parts,
// block.PartsRenderer). Allocation drives the garbage collector, a fifth
// of a paced answer's CPU in ../shared/bench.
func TestPacedAnswerAllocates(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	if testing.Short() {
		t.Skip("-short: streams a 40 KB answer twice")
	}
	doc := realAnswers(t, 40<<10)
	sse := sseAnswer(doc, 4)
	base := newTestModel(t, Options{})
	alloc := func(rate int) uint64 {
		m := newTestModel(t, Options{})
		m.frame.styles = base.frame.styles
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		chatFrames(t, m, sse, rate)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	full := alloc(0)
	paced := alloc(200)
	t.Logf("allocated: paced %d KB, full speed %d KB (%.1fx), answer %d KB", paced>>10, full>>10, float64(paced)/float64(full), len(doc)>>10)
	if paced > full*22/10 {
		t.Errorf("a paced answer allocated %d KB, %.1f times the %d KB at full speed, want at most 2.2", paced>>10, float64(paced)/float64(full), full>>10)
	}
}
