package main

import "runtime"

// tuneProcs runs runnel's goroutines on one processor (GOMAXPROCS=1)
// unless the GOMAXPROCS environment variable chose a number, and returns
// the number in effect. Call it once, first thing in main.
//
// runnel waits on the network and the terminal almost all the time: an
// answer streamed at a model's pace wakes it 200 times a second (a delta),
// its renderer 60 (Bubble Tea's frame ticker), its UI ten (a batch), and
// the CPU it spends between wake-ups is small. With a second processor
// every wake-up of one goroutine while the other processor idles wakes an
// OS thread that spins looking for work and finds none: that spinning
// (runtime.findRunnable, futex) was a sixth of a paced answer's CPU.
// Measured in ../shared/bench, interleaved in one run on 2 cores, a 40 KB
// answer cost 0.77x the CPU paced (200 deltas/s) and 0.72x at full speed,
// with first text and end lag unchanged. Work that could use a second
// core (a whole render of a long resumed session, the store's writes) is
// off the UI goroutine and preempted every 10 ms, so the UI still answers
// while it runs, at the cost of that work's wall time.
func tuneProcs(env func(string) string) int {
	if env("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0)
	}
	runtime.GOMAXPROCS(1)
	return 1
}
