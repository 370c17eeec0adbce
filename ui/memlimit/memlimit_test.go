package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMemoryLimitIsTheHeapGoalBetweenFloorAndCeiling: a small heap is held
// to the floor, a mid-sized one gets what GOGC=100 gives it, a big one is
// capped, and there is always room to allocate a quarter of the live heap.
func TestMemoryLimitIsTheHeapGoalBetweenFloorAndCeiling(t *testing.T) {
	const mb = 1 << 20
	other := uint64(7 * mb)
	for _, live := range []uint64{0, 3 * mb, 5 * mb, 20 * mb, 60 * mb, 120 * mb, 400 * mb} {
		got := memoryLimit(live, other)
		goal := int64(other + 2*live)
		switch {
		case got < floorMemory:
			t.Errorf("live %d MB: limit %d MB is under the floor", live/mb, got/mb)
		case got < int64(other+live+live/4):
			t.Errorf("live %d MB: limit %d MB leaves no room to allocate", live/mb, got/mb)
		case goal >= floorMemory && goal <= ceilingMemory && got != goal:
			t.Errorf("live %d MB: limit %d MB, want GOGC's goal %d MB", live/mb, got/mb, goal/mb)
		case goal > ceilingMemory && got > max(ceilingMemory, int64(other+live+live/4)):
			t.Errorf("live %d MB: limit %d MB is over the ceiling", live/mb, got/mb)
		}
	}
}

// TestAfterGCRunsAfterEveryCollection: the hook that retunes the limit runs
// once per collection, again and again.
func TestAfterGCRunsAfterEveryCollection(t *testing.T) {
	ran := make(chan struct{}, 16)
	afterGC(func() { ran <- struct{}{} })
	for i := range 3 {
		runtime.GC()
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Fatalf("the hook did not run after collection %d", i+1)
		}
	}
}

// TestGOMEMLIMITIsLeftAlone: a limit the user set is not replaced; without
// one, the limit is set.
func TestGOMEMLIMITIsLeftAlone(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	debug.SetMemoryLimit(1 << 40)
	Tune(func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] })
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("GOMEMLIMIT was set, but the limit changed to %d", got)
	}
	Tune(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got != floorMemory {
		t.Fatalf("limit %d, want the floor %d at start", got, floorMemory)
	}
}
