package main

import (
	"runtime"
	"testing"
)

// TestTuneProcs: one processor unless GOMAXPROCS chose a number, which
// stays as the runtime read it.
func TestTuneProcs(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
	runtime.GOMAXPROCS(3)
	if n := tuneProcs(func(k string) string {
		if k == "GOMAXPROCS" {
			return "3"
		}
		return ""
	}); n != 3 || runtime.GOMAXPROCS(0) != 3 {
		t.Fatalf("GOMAXPROCS=3 set: tuned to %d (runtime %d), want 3", n, runtime.GOMAXPROCS(0))
	}
	if n := tuneProcs(func(string) string { return "" }); n != 1 || runtime.GOMAXPROCS(0) != 1 {
		t.Fatalf("GOMAXPROCS unset: tuned to %d (runtime %d), want 1", n, runtime.GOMAXPROCS(0))
	}
}
