package costtest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fixed is Work that takes no time and reports d per run, counting runs.
func fixed(d time.Duration, runs *int) Work {
	return func() time.Duration { *runs++; return d }
}

// TestSampleRepeatsUntilTheSpan: cheap work is run until a sample has
// taken the span and costs its time per run; work dearer than the span
// runs once.
func TestSampleRepeatsUntilTheSpan(t *testing.T) {
	runs := 0
	if got := sample(fixed(time.Millisecond, &runs), 5*time.Millisecond); got != time.Millisecond || runs != 5 {
		t.Errorf("1 ms work: %v per run after %d runs", got, runs)
	}
	runs = 0
	if got := sample(fixed(30*time.Millisecond, &runs), 10*time.Millisecond); got != 30*time.Millisecond || runs != 1 {
		t.Errorf("long work: %v per run after %d runs", got, runs)
	}
	runs = 0
	if got := sample(fixed(0, &runs), MinSample); got != 0 || runs != maxRuns {
		t.Errorf("work that measures nothing: %v after %d runs", got, runs)
	}
}

// TestRoundsFitTheBudget: cheap work gets MaxRounds samples, dear work
// MinRounds, and between them as many as fit in the budget (RoundsBudget,
// ShortRoundsBudget under -short).
func TestRoundsFitTheBudget(t *testing.T) {
	at20 := map[bool]int{false: 7, true: 3}[testing.Short()] // 300 or 150 ms over 2×20 ms
	for d, want := range map[time.Duration]int{0: MaxRounds, time.Microsecond: MaxRounds, 20 * time.Millisecond: at20, 50 * time.Millisecond: 3, 200 * time.Millisecond: 3, time.Second: MinRounds} {
		if got := rounds(d); got != want {
			t.Errorf("rounds(%v) = %d, want %d", d, got, want)
		}
	}
}

// TestMeasureSamplesForTheSameSpan: after a first run of each side, every
// sample of both lasts as long as one run of the dearer side, but at least
// MinSample and at most MaxSample, in rounds(the dearer run) rounds.
func TestMeasureSamplesForTheSameSpan(t *testing.T) {
	r := rounds(MinSample) // 7, or 3 under -short
	for _, c := range []struct {
		base, work         time.Duration
		baseRuns, workRuns int
	}{
		{time.Millisecond, 20 * time.Millisecond, 1 + r*20, 1 + r}, // 20 ms samples, rounds(20 ms)
		{time.Millisecond, time.Second, 1 + 3*int(MaxSample/time.Millisecond), 1 + 3},
		{time.Millisecond, 2 * time.Millisecond, 1 + r*int(MinSample/time.Millisecond), 1 + r*int(MinSample/(2*time.Millisecond))},
		{20 * time.Millisecond, time.Millisecond, 1 + r, 1 + r*20},
	} {
		var b, w int
		got := Measure(fixed(c.base, &b), fixed(c.work, &w))
		if b != c.baseRuns || w != c.workRuns || got.Base != c.base || got.Work != c.work {
			t.Errorf("%v against %v: %d and %d runs (want %d and %d), %v", c.work, c.base, b, w, c.baseRuns, c.workRuns, got)
		}
	}
}

// TestMeasureTakesTurnsAndKeepsTheLeast: the baseline's and the work's
// samples alternate, MinRounds of each (dear work) after a first run of each, and each
// side's cost is its least sample, so one slow sample (a pause) changes
// nothing.
func TestMeasureTakesTurnsAndKeepsTheLeast(t *testing.T) {
	var order strings.Builder
	baseTimes := []time.Duration{200, 150, 300, 140} // ms, each over MaxSample: one run a sample
	workTimes := []time.Duration{900, 800, 5000, 700}
	b, w := 0, 0
	base := func() time.Duration { order.WriteByte('b'); b++; return baseTimes[b-1] * time.Millisecond }
	work := func() time.Duration { order.WriteByte('w'); w++; return workTimes[w-1] * time.Millisecond }
	c := Measure(base, work)
	if c.Base != 140*time.Millisecond || c.Work != 700*time.Millisecond {
		t.Errorf("least samples: %v", c)
	}
	if got := order.String(); got != strings.Repeat("bw", 1+MinRounds) {
		t.Errorf("order of runs %s: want the baseline's and the work's samples in turns", got)
	}
	if r := c.Ratio(); r != 5 {
		t.Errorf("ratio %v, want 5", r)
	}
}

// recorder is a testing.TB that keeps what AtMost logs and reports.
type recorder struct {
	testing.TB
	logs, errs []string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Logf(f string, args ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, args...)) }
func (r *recorder) Errorf(f string, args ...any) { r.errs = append(r.errs, fmt.Sprintf(f, args...)) }

// TestAtMostMeasuresAgainOnce: a ratio over the bound (the machine paused
// through a whole measurement) takes as many samples again, and the least
// of all passes; over it in all of them fails, in one line that says what,
// both costs and the bound; under it, nothing more is sampled.
func TestAtMostMeasuresAgainOnce(t *testing.T) {
	var runs int
	base := fixed(10*time.Millisecond, new(int))
	slowFirst := func() time.Duration { // 40 ms for a whole measurement (its rounds), then 10 ms
		runs++
		if runs <= 1+rounds(40*time.Millisecond) {
			return 40 * time.Millisecond
		}
		return 10 * time.Millisecond
	}
	r := &recorder{}
	if c := AtMost(r, "frame", base, slowFirst, 2); len(r.errs) != 0 || len(r.logs) != 2 || c.Ratio() != 1 {
		t.Errorf("a pause in one measurement: %v, errors %q, logs %q", c, r.errs, r.logs)
	}
	r = &recorder{}
	AtMost(r, "frame", base, fixed(40*time.Millisecond, new(int)), 2)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "frame costs 4.0 times its baseline (40ms against 10ms), twice; the bound is 2") {
		t.Errorf("over the bound twice: errors %q", r.errs)
	}
	r = &recorder{}
	AtMost(r, "frame", base, fixed(15*time.Millisecond, new(int)), 2)
	if len(r.errs) != 0 || len(r.logs) != 1 {
		t.Errorf("under the bound: errors %q, logs %q", r.errs, r.logs)
	}
}

// TestAQuadraticFails times the same loop at n and 8n, once linear and
// once quadratic, against the bound the suite's linear tests use (20):
// the linear one passes, the quadratic one (64 times) does not.
func TestAQuadraticFails(t *testing.T) {
	SkipIfRace(t)
	data := make([]int, 8*2000)
	for i := range data {
		data[i] = i % 7
	}
	var sink int
	linear := func(n int) Work {
		return Func(func() {
			for range n { // n passes of a fixed 2000, so 8n costs 8 times n
				for _, v := range data[:2000] {
					sink += v
				}
			}
		})
	}
	quadratic := func(n int) Work {
		return Func(func() {
			for range n {
				for _, v := range data[:n] {
					sink += v
				}
			}
		})
	}
	c := Measure(linear(250), linear(2000))
	t.Logf("linear: %v", c)
	if c.Ratio() > 20 || c.Ratio() < 4 {
		t.Errorf("linear: %v", c)
	}
	c = Measure(quadratic(250), quadratic(2000))
	t.Logf("quadratic: %v", c)
	if c.Ratio() < 20 {
		t.Errorf("quadratic: %v", c)
	}
	_ = sink
}
