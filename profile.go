//go:build pprof

package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// profileEnv names a file the process writes a CPU profile of its whole
// life to (go tool pprof reads it): for measuring the real TUI in
// ../shared/bench, not a user-facing knob; only in a build with -tags pprof
// (profile_off.go otherwise). Unset, nothing is profiled. memProfileEnv
// names a file for the heap profile at exit (alloc_space: what the whole
// life allocated, which is what the garbage collector paid for).
const (
	profileEnv    = "RUNNEL_CPUPROFILE"
	memProfileEnv = "RUNNEL_MEMPROFILE"
)

// heapProfileEnv names a file that holds a heap profile taken at the most
// live heap the process reached (heapPeaks), for finding what a peak of
// memory holds; like profileEnv, only in a build with -tags pprof.
const heapProfileEnv = "RUNNEL_HEAPPROFILE"

// startProfile starts the profiles profileEnv, heapProfileEnv and
// memProfileEnv ask for and returns what stops them (and writes the
// allocations profile); a profile that cannot start says so in one line on
// stderr and the command runs unprofiled.
func startProfile(getenv func(string) string) (stop func()) {
	stopHeap := func() {}
	if path := getenv(heapProfileEnv); path != "" {
		stopHeap = heapPeaks(path)
	}
	stopCPU := startCPUProfile(getenv(profileEnv))
	mem := getenv(memProfileEnv)
	return func() {
		stopCPU()
		stopHeap()
		if mem != "" {
			writeHeapProfile(mem)
		}
	}
}

// writeHeapProfile writes the allocations profile to path; a failure says
// so in one line on stderr.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "runnel: %s: no heap profile: %v\n", memProfileEnv, err)
	}
}

// startCPUProfile starts a CPU profile written to path, unless path is "".
func startCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "runnel: %s: no CPU profile: %v\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// heapPeaks watches the heap every few milliseconds and, each time it has
// grown 8 MiB past the most seen, collects and, when what is live is the
// most yet, writes a heap profile to path.N (N counting from 1): the last
// file holds the peak of live heap, the others the peaks before it. It collects far more often than
// the process would, so it measures what is live, not what the collector
// would have let pile up.
func heapPeaks(path string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var seen, peak uint64
		n := 0
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v < seen+8<<20 {
				continue
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			seen = ms.HeapAlloc
			if ms.HeapAlloc <= peak {
				continue
			}
			peak = ms.HeapAlloc
			n++
			if f, err := os.Create(fmt.Sprintf("%s.%d", path, n)); err == nil {
				_ = pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
			fmt.Fprintf(os.Stderr, "runnel: heap peak %d MiB live (%s.%d)\n", peak>>20, path, n)
		}
	}()
	return func() { close(done); <-finished }
}
