package ui

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// cappedAnswer is a response streaming text past limit in 64-byte deltas,
// with no .done values: the chat stops reading at the limit, so the
// values that would repeat the whole text never come.
func cappedAnswer(t testing.TB, limit int) []byte {
	doc := realAnswers(t, 256<<10)
	doc = strings.Repeat(doc, limit/len(doc)+2)
	sse := sseAnswer(doc, 64)
	i := bytes.Index(sse, []byte(`{"type":"response.output_text.done"`))
	return sse[:i-len("data: ")]
}

// liveHeap is the heap in use right after a collection.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// peakHeap streams a response to a chat with limit flat out and returns
// the most live heap (after a collection, every 4th frame and at the end)
// the chat held for it.
func peakHeap(t *testing.T, limit int) uint64 {
	sse := cappedAnswer(t, limit)
	m := newTestModel(t, Options{MaxResponseBytes: limit})
	base := liveHeap()
	var peak uint64
	frames := 0
	chatFramesHook = func() {
		if frames++; frames%4 == 0 {
			peak = max(peak, liveHeap())
		}
	}
	defer func() { chatFramesHook = nil }()
	chatFrames(t, m, sse, 0)
	_ = m.View()
	peak = max(peak, liveHeap())
	runtime.KeepAlive(m)
	runtime.KeepAlive(sse)
	return peak - base
}

// TestCappedResponsePeakHeap streams responses flat out to the chat's
// response limit, at two limits, and splits the peak live heap into what
// grows with the text (the text, its accumulation) and what does not (the
// last pages rendered, the transcript's lines: ui/block's pager bounds
// them). At the default limit (32 MiB) the sum must stay within 4× the
// text: at most 3.5 bytes held per byte of text (the text, its store's
// room, and the store it outgrew while the text is copied), and at most
// 32 MiB for the pages, not a copy of the whole text per layer. (The
// fixed part was 10 MiB while the transcript kept old renders alive past
// its rows, 1 MiB since; the two peaks are each 4 to 6 MiB lower, and the
// fit puts what is left on the text: 3.3 bytes per byte.)
func TestCappedResponsePeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two responses of 4 and 8 MiB take tens of seconds (smaller ones are still filling the pager's pages)")
	}
	l1, l2 := 4<<20, 8<<20
	p1, p2 := peakHeap(t, l1), peakHeap(t, l2)
	perByte := (float64(p2) - float64(p1)) / float64(l2-l1)
	fixed := float64(p1) - perByte*float64(l1)
	const limit = 32 << 20 // knob.DefaultResponseLimit
	at := (fixed + perByte*limit) / limit
	t.Logf("peak live heap %.1f MiB at %d MiB of text, %.1f MiB at %d MiB: %.2f bytes per byte of text + %.1f MiB; at %d MiB: %.2f× the text",
		float64(p1)/(1<<20), l1>>20, float64(p2)/(1<<20), l2>>20, perByte, fixed/(1<<20), limit>>20, at)
	if perByte > 3.5 || fixed > 32<<20 || at > 4 {
		t.Errorf("a capped response costs %.2f bytes per byte of text + %.1f MiB: %.2f× the text at the default limit, want at most 3.5 + 32 MiB, 4×", perByte, fixed/(1<<20), at)
	}
}
