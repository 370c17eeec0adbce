package costtest

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// MinSample and MaxSample bound how long a sample runs: the work is
// repeated until its measured time reaches the span (see Measure), and a
// sample's cost is the time per run.
const (
	MinSample = 20 * time.Millisecond
	MaxSample = 50 * time.Millisecond
)

// MinRounds and MaxRounds bound how many samples of each side Measure
// takes: as many as take RoundsBudget in all (ShortRoundsBudget under
// go test -short), within the bounds. On a busy machine most samples are
// interrupted, and more of them make a clean one likelier; cheap work gets
// more. The quick suite takes fewer samples of the same span: a sample is
// timed on the thread's CPU clock, so a preempted slice is not in it, and
// AtMost samples again before it fails.
const (
	MinRounds         = 3
	MaxRounds         = 15
	RoundsBudget      = 300 * time.Millisecond
	ShortRoundsBudget = 150 * time.Millisecond
)

// budget is the rounds' budget of this run: RoundsBudget, or
// ShortRoundsBudget under -short.
func budget() time.Duration {
	if testing.Short() {
		return ShortRoundsBudget
	}
	return RoundsBudget
}

// maxRuns bounds the runs in one sample, for work that measures nothing.
const maxRuns = 1 << 20

// Work is one run of the work to time. It returns the time its measured
// part took, so that set-up (building the input, filling a cache) can stay
// out of the comparison; Func times a whole call.
type Work func() time.Duration

// Func makes Work of f, timing all of each call.
func Func(f func()) Work {
	return func() time.Duration {
		t0 := Now()
		f()
		return Since(t0)
	}
}

// Since is the time on Now's clock since t0, a reading of it. A Work that
// times a part of each run reads this clock, as Func does.
func Since(t0 time.Duration) time.Duration { return Now() - t0 }

// Cost is what one run of the baseline and of the work cost: the least of
// their samples.
type Cost struct{ Base, Work time.Duration }

// Ratio is the work's cost in baselines.
func (c Cost) Ratio() float64 { return float64(c.Work) / float64(max(c.Base, 1)) }

func (c Cost) String() string {
	return fmt.Sprintf("baseline %v, work %v: %.2f×", c.Base, c.Work, c.Ratio())
}

// Measure times base and work in turns, rounds of a sample of each (see
// MinRounds), and returns the least time per run of each. A first run of each (not counted: it
// warms caches) sets the span, the longer run between MinSample and
// MaxSample; every sample then starts after a garbage collection and
// repeats its work until it has taken the span. Samples of the same
// length meet the same interruptions: on a busy machine a short one could
// fall between two and look cheaper than it is.
func Measure(base, work Work) Cost {
	runtime.LockOSThread()
	longest := max(base(), work())
	runtime.UnlockOSThread()
	span := min(max(MinSample, longest), MaxSample)
	c := Cost{Base: time.Duration(1<<63 - 1), Work: time.Duration(1<<63 - 1)}
	for range rounds(max(span, longest)) {
		c.Base = min(c.Base, sample(base, span))
		c.Work = min(c.Work, sample(work, span))
	}
	return c
}

// rounds is how many samples of each side fit in the budget when one
// takes d, within MinRounds and MaxRounds.
func rounds(d time.Duration) int {
	return min(max(MinRounds, int(budget()/(2*max(d, 1)))), MaxRounds)
}

// sample runs w after a garbage collection until its measured time reaches
// span, and returns the time per run.
func sample(w Work, span time.Duration) time.Duration {
	runtime.GC()
	runtime.LockOSThread() // Now times this thread's CPU
	defer runtime.UnlockOSThread()
	var total time.Duration
	runs := 0
	for total < span && runs < maxRuns {
		total += w()
		runs++
	}
	return total / time.Duration(runs)
}

// AtMost fails t when work costs more than limit times base. The two are
// measured (Measure) and logged under what; over the limit, as many
// samples again are taken and each side's cost is the least of all its
// samples (a longer minimum, not a second verdict: a side that a busy
// machine slowed in every sample stays slow). It returns the costs.
func AtMost(t testing.TB, what string, base, work Work, limit float64) Cost {
	t.Helper()
	c := Measure(base, work)
	t.Logf("%s: %v", what, c)
	if c.Ratio() <= limit {
		return c
	}
	more := Measure(base, work)
	c = Cost{Base: min(c.Base, more.Base), Work: min(c.Work, more.Work)}
	t.Logf("%s, with as many samples again: %v", what, c)
	if c.Ratio() > limit {
		t.Errorf("%s costs %.1f times its baseline (%v against %v), twice; the bound is %g", what, c.Ratio(), c.Work, c.Base, limit)
	}
	return c
}

// SkipAllocsIfRace skips a test that counts what code allocates under the
// race detector, which allocates for itself: the plain run counts it.
func SkipAllocsIfRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("allocation counts: not under the race detector (the plain run counts them)")
	}
}

// SkipIfRace skips t under the race detector, which slows code unevenly:
// the plain run (go test ./...) times what it would have.
func SkipIfRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("timing: not under the race detector (the plain run times it)")
	}
}
