package costtest

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// MinSample is how long a sample runs at least: the work is repeated until
// its measured time reaches it, and a sample's cost is the time per run.
const MinSample = 5 * time.Millisecond

// Rounds is how many samples of each side Measure takes.
const Rounds = 3

// maxRuns bounds the runs in one sample, for work that measures nothing.
const maxRuns = 1 << 20

// Work is one run of the work to time. It returns the time its measured
// part took, so that set-up (building the input, filling a cache) can stay
// out of the comparison; Func times a whole call.
type Work func() time.Duration

// Func makes Work of f, timing all of each call.
func Func(f func()) Work {
	return func() time.Duration {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
}

// Cost is what one run of the baseline and of the work cost: the least of
// Rounds samples each.
type Cost struct{ Base, Work time.Duration }

// Ratio is the work's cost in baselines.
func (c Cost) Ratio() float64 { return float64(c.Work) / float64(max(c.Base, 1)) }

func (c Cost) String() string {
	return fmt.Sprintf("baseline %v, work %v: %.2f×", c.Base, c.Work, c.Ratio())
}

// Measure times base and work in turns, Rounds samples of each, and returns
// the least time per run of each. Every sample starts after a garbage
// collection and repeats its work until it has taken MinSample.
func Measure(base, work Work) Cost {
	c := Cost{Base: time.Duration(1<<63 - 1), Work: time.Duration(1<<63 - 1)}
	for range Rounds {
		c.Base = min(c.Base, sample(base))
		c.Work = min(c.Work, sample(work))
	}
	return c
}

// sample runs w after a garbage collection until its measured time reaches
// MinSample, and returns the time per run.
func sample(w Work) time.Duration {
	runtime.GC()
	var total time.Duration
	runs := 0
	for total < MinSample && runs < maxRuns {
		total += w()
		runs++
	}
	return total / time.Duration(runs)
}

// AtMost fails t when work costs more than limit times base. The two are
// measured (Measure) and logged under what; a ratio over the limit is
// measured again once, as a pause of the machine can spoil one
// measurement, and fails t only if it is over the limit again. It returns
// the last measurement.
func AtMost(t testing.TB, what string, base, work Work, limit float64) Cost {
	t.Helper()
	c := Measure(base, work)
	t.Logf("%s: %v", what, c)
	if c.Ratio() <= limit {
		return c
	}
	c = Measure(base, work)
	t.Logf("%s, measured again: %v", what, c)
	if c.Ratio() > limit {
		t.Errorf("%s costs %.1f times its baseline (%v against %v), twice; the bound is %g", what, c.Ratio(), c.Work, c.Base, limit)
	}
	return c
}

// SkipIfRace skips t under the race detector, which slows code unevenly:
// the plain run (go test ./...) times what it would have.
func SkipIfRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("timing: not under the race detector (the plain run times it)")
	}
}
