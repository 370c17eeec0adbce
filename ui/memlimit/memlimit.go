// Package memlimit keeps runnel's heap small: it sets the garbage
// collector's memory limit at start and retunes it after every collection.
// It only tunes the Go runtime; it allocates nothing for the program and
// never fails.
package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's memory limit, retuned after every collection.
//
// Go lets the heap grow to twice what was marked live at the last
// collection (GOGC=100). runnel's live heap is small, 3 to 8 MB while an
// answer renders, but rendering makes garbage fast, so the heap would
// double past 13 MB and its pages stay in RSS. Below floorMemory the limit
// holds it back instead; collecting so small a heap costs a few
// milliseconds of CPU (a 40 KB answer at full speed: 25 collections instead
// of 12, 4 MB less RSS). Above the floor the limit is what GOGC allows
// anyway, so it changes nothing, up to ceilingMemory, past which garbage is
// collected rather than kept. The limit always leaves a quarter of the live
// heap to allocate in, so a large session is collected more often but
// never thrashes. The ceiling is what an answer streamed to the response
// limit (32 MiB) peaks at: its text and last pages are 55-60 MiB live, and
// at 128 MiB the heap ran on to the ceiling, 4.7× the text in RSS.
const (
	floorMemory   = 18 << 20
	ceilingMemory = 96 << 20
)

// memoryLimit is the limit for a heap of live bytes in use after a
// collection, in a process whose runtime holds other bytes besides the heap
// (stacks, GC metadata, ...).
func memoryLimit(live, other uint64) int64 {
	limit := min(other+2*live, ceilingMemory)
	limit = max(limit, floorMemory, other+live+live/4)
	return int64(limit)
}

// Tune sets the memory limit now and after every collection, unless
// GOMEMLIMIT set one. Call it once, first thing in main.
func Tune(env func(string) string) {
	if env("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(floorMemory)
	afterGC(retune)
}

var memSamples = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/unused:bytes",
}

// retune sets the limit from the collection that just ended.
func retune() {
	s := make([]metrics.Sample, len(memSamples))
	for i, name := range memSamples {
		s[i].Name = name
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	live, total := v[0], v[1]
	heap := v[2] + v[3] + v[4] + v[5]
	other := uint64(0)
	if total > heap {
		other = total - heap
	}
	debug.SetMemoryLimit(memoryLimit(live, other))
}

// afterGC calls f on the runtime's cleanup goroutine after each garbage
// collection, from the next one on: a sentinel object that nothing
// references is reclaimed by every cycle, and its cleanup arms the next
// before it calls f, so a collection that f's work (or its caller) sets
// off is seen too.
func afterGC(f func()) {
	sentinel := new(gcSentinel)
	runtime.AddCleanup(sentinel, func(f func()) {
		afterGC(f)
		f()
	}, f)
}

// gcSentinel is large enough not to share a block with other small objects,
// which would delay its cleanup.
type gcSentinel struct {
	_ [16]byte
	_ *int
}
