package ui

import (
	"runtime"
	"testing"

	"runnel/ui/block"
)

// BenchmarkSessionMemory streams 60 answers of about 10 KB into one chat at
// full speed and reports the heap each answer leaves behind (after a GC,
// from the 20th answer on), as a ratio to the answer's own size in the same
// run (x-answer: 1 would be the text kept once, nothing else).
func BenchmarkSessionMemory(b *testing.B) {
	doc := realAnswers(b, 10<<10)
	sse := sseAnswer(doc, 4)
	const turns, from = 60, 20
	var grown float64
	for b.Loop() {
		m := newTestModel(b, Options{})
		var ms runtime.MemStats
		var at uint64
		for i := range turns {
			m.items.appendEntry(&plainEntry{b: block.NewUser("a question"), fs: m.frame})
			chatFrames(b, m, sse, 0)
			_ = m.View()
			if i == from-1 || i == turns-1 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				if i == from-1 {
					at = ms.HeapInuse
				}
			}
		}
		grown += float64(int64(ms.HeapInuse)-int64(at)) / (turns - from)
		runtime.KeepAlive(m)
	}
	per := grown / float64(b.N)
	b.ReportMetric(per/1024, "KB/answer")
	b.ReportMetric(per/float64(len(doc)), "x-answer")
}
