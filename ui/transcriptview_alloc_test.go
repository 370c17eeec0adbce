package ui

import (
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTranscriptViewAllocatesItsSize: on every frame of a real 40 KB answer
// streamed at 200 deltas a second (120×40), the transcript's View makes one
// allocation, of the frame's own size: it is built on every changed frame,
// and a builder sized by a guess from the screen (36 rows of twice the width)
// was three times the frame, a fifth of all a streaming answer allocated.
func TestTranscriptViewAllocatesItsSize(t *testing.T) {
	m := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	frames := 0
	chatFramesHook = func() {
		tr := m.items.shown()
		view := tr.View()
		redraw := func() { tr.memo.valid = false; _ = tr.View() } // a changed frame's View, not its memo
		if allocs := testing.AllocsPerRun(3, redraw); allocs > 1 {
			t.Fatalf("frame %d: the transcript's View made %.0f allocations, want 1", frames, allocs)
		}
		if got := allocatedBy(redraw); got > uint64(len(view))*5/4+64 { // the size class above the bytes
			t.Fatalf("frame %d: the transcript's View allocated %d bytes for a view of %d", frames, got, len(view))
		}
		frames++
	}
	defer func() { chatFramesHook = nil }()
	chatFrames(t, m, sseAnswer(realAnswers(t, 40<<10), 4), 200)
	if frames < 100 {
		t.Fatalf("only %d frames", frames)
	}
}

// allocatedBy is the fewest bytes f allocated in five runs (another
// goroutine's allocation can only add to one run).
func allocatedBy(f func()) uint64 {
	var least uint64
	for i := range 5 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		if n := b.TotalAlloc - a.TotalAlloc; i == 0 || n < least {
			least = n
		}
	}
	return least
}
