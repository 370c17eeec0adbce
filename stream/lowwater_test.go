package stream

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fakeMark is a socket's low-water mark as lowWater sets it, with the
// pause's timer in the test's hands.
type fakeMark struct {
	mark    int
	sets    int
	fail    bool
	fire    func() // the pending timer's function (nil: none)
	stopped int
}

func (f *fakeMark) water(clock *time.Time) *lowWater {
	f.mark = 1
	return &lowWater{
		set: func(n int) error {
			if f.fail {
				return errors.New("setsockopt: not supported")
			}
			f.mark = n
			f.sets++
			return nil
		},
		after: func(_ time.Duration, fn func()) func() bool {
			f.fire = fn
			return func() bool { f.fire = nil; f.stopped++; return true }
		},
		now: func() time.Time { return *clock },
	}
}

// TestLowWaterRaisedOnlyInsideARead: the mark is raised by a hold and back
// to one byte after every release, whether the pause's end lowered it
// first or not; a pause already over, or a socket that refuses the mark,
// is no hold (the pacer sleeps instead), and a refusal is not tried again.
func TestLowWaterRaisedOnlyInsideARead(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	var f fakeMark
	w := f.water(&clock)

	if !w.hold(clock.Add(30 * time.Millisecond)) {
		t.Fatal("a pause of 30 ms was not held")
	}
	if f.mark != lowWaterMark {
		t.Fatalf("held: mark %d, want %d", f.mark, lowWaterMark)
	}
	if at := w.release(); !at.IsZero() || f.mark != 1 || f.stopped != 1 {
		t.Fatalf("a Read that returned before the pause's end: mark %d, lowered %v, timer stopped %d times", f.mark, at, f.stopped)
	}

	w.hold(clock.Add(30 * time.Millisecond))
	clock = clock.Add(30 * time.Millisecond)
	f.fire() // the pause ends while the reader waits
	if f.mark != 1 {
		t.Fatalf("the pause's end left the mark at %d", f.mark)
	}
	sets := f.sets
	if at := w.release(); !at.Equal(clock) || f.mark != 1 || f.sets != sets {
		t.Errorf("after the pause's end: lowered %v (want %v), mark %d, %d more sets", at, clock, f.mark, f.sets-sets)
	}

	if w.hold(clock) || w.hold(clock.Add(-time.Millisecond)) {
		t.Error("a pause already over was held")
	}

	f.fail = true
	if w.hold(clock.Add(time.Second)) {
		t.Error("a socket that refuses the mark was held")
	}
	f.fail = false
	if w.hold(clock.Add(time.Second)) || f.mark != 1 {
		t.Error("a socket that refused the mark once was tried again")
	}
}

// heldBody is a stream body read during a held pause: each Read runs what
// the test says happens while the reader waits in it, then returns data.
type heldBody struct {
	during func()
	data   string
}

func (b *heldBody) Read(p []byte) (int, error) {
	if b.during != nil {
		b.during()
	}
	return copy(p, b.data), nil
}

// TestPacerHoldsInsteadOfSleeping: where the socket can hold its bytes, a
// pause is a held Read, never a sleep; bytes read once the pause's end
// lowered the mark waited for the pause (not fresh), and bytes that came
// after it waited for the server (a real quiet: they may be).
func TestPacerHoldsInsteadOfSleeping(t *testing.T) {
	clock := time.Unix(1_700_000_000, 0)
	var f fakeMark
	h, _ := newTestHandle(context.Background())
	body := &heldBody{data: `data: {"type":"response.output_text.delta","delta":"abcd"}` + "\n\n"}
	p := &pacer{r: body, h: h, now: func() time.Time { return clock }, water: f.water(&clock), slow: 2,
		pause: func(context.Context, time.Time) { t.Fatal("the pacer slept with a socket that holds") }}
	buf := make([]byte, 4096)

	h.due = clock.Add(30 * time.Millisecond)
	body.during = func() {
		if f.mark != lowWaterMark {
			t.Fatalf("the Read ran with the mark at %d", f.mark)
		}
		clock = clock.Add(30 * time.Millisecond)
		f.fire() // the pause ends; the bytes were waiting
	}
	if _, err := p.Read(buf); err != nil {
		t.Fatal(err)
	}
	if !h.stale || f.mark != 1 {
		t.Errorf("bytes waiting at the pause's end: stale %v (want true), mark %d", h.stale, f.mark)
	}

	p.slow = 2
	h.due = clock.Add(30 * time.Millisecond)
	body.during = func() {
		clock = clock.Add(30 * time.Millisecond)
		f.fire()
		clock = clock.Add(20 * time.Millisecond) // then the server is quiet
	}
	p.Read(buf)
	if h.stale {
		t.Error("bytes that came 20 ms after the pause's end counted as held by it")
	}

	p.slow = 2
	h.due = clock.Add(30 * time.Millisecond)
	body.during = func() { clock = clock.Add(time.Millisecond) } // a burst wakes the Read before the pause ends
	p.Read(buf)
	if f.mark != 1 || f.fire != nil {
		t.Errorf("after a burst: mark %d, timer pending %v", f.mark, f.fire != nil)
	}
}
