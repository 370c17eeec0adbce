package session

import (
	"testing"
	"time"
)

// heldJournal is a journal with no store whose writer's waits are the
// test's: each wait sends its end and the queue's length on waits, and
// returns what the test sends on answers.
func heldJournal(t *testing.T) (j *Journal, waits chan [2]any, answers chan bool) {
	j = startJournal(nil, "", Settings{})
	waits, answers = make(chan [2]any), make(chan bool)
	j.hold = func(until time.Time, _ <-chan struct{}) bool {
		waits <- [2]any{until, len(j.ops)}
		return <-answers
	}
	t.Cleanup(func() {
		go func() {
			for range waits {
			}
		}()
		go func() {
			for {
				answers <- false
			}
		}()
		j.Close()
	})
	return j, waits, answers
}

// TestDeferHoldsTheWriter: a write queued while Defer holds the writer
// starts only once the hold ends, and no wait is longer than SaveEvery.
func TestDeferHoldsTheWriter(t *testing.T) {
	j, waits, answers := heldJournal(t)
	before := time.Now()
	j.Defer(time.Hour)
	ran := make(chan struct{})
	j.enqueue(func() { close(ran) })
	w := <-waits
	if until := w[0].(time.Time); until.Sub(before) > SaveEvery+time.Second {
		t.Fatalf("the writer waits until %v from the hold, more than SaveEvery", until.Sub(before))
	}
	select {
	case <-ran:
		t.Fatal("the write ran while the writer was held")
	default:
	}
	answers <- false // the wait ends (Close, or the time came and the hold is over)
	<-ran
}

// TestDeferWithoutHoldRunsAtOnce: with no hold, or one that is over, the
// writer never waits.
func TestDeferWithoutHoldRunsAtOnce(t *testing.T) {
	j, waits, _ := heldJournal(t)
	j.Defer(-time.Second)
	ran := make(chan struct{})
	j.enqueue(func() { close(ran) })
	select {
	case <-ran:
	case w := <-waits:
		t.Fatalf("the writer waited (until %v) with no hold", w[0])
	}
}

// TestDeferNeverFillsTheQueue: a hold lets at most holdQueue writes wait:
// with more queued, the writer runs them, so asking for a write (the UI)
// never blocks on a held writer.
func TestDeferNeverFillsTheQueue(t *testing.T) {
	j, waits, answers := heldJournal(t)
	gate, busy := make(chan struct{}), make(chan struct{})
	j.enqueue(func() { close(busy); <-gate })
	<-busy // the writer is busy: it met no hold before this write, and meets the next one only with every write below queued
	j.Defer(time.Hour)
	n := 3 * holdQueue
	done := make(chan struct{}, n)
	for range n {
		j.enqueue(func() { done <- struct{}{} })
	}
	close(gate)
	go func() {
		for w := range waits {
			if q := w[1].(int); q >= holdQueue {
				t.Errorf("the writer waited with %d writes queued", q)
			}
			answers <- true // the time came: the hold still holds, so it waits on
		}
	}()
	// the writes beyond holdQueue run while the hold lasts
	for range n - holdQueue {
		<-done
	}
}

// TestCloseEndsTheHold: Close runs what a hold keeps waiting, at once.
func TestCloseEndsTheHold(t *testing.T) {
	j := startJournal(nil, "", Settings{})
	j.Defer(time.Hour)
	ran := false
	j.enqueue(func() { ran = true })
	j.Close()
	if !ran {
		t.Fatal("a held write was dropped by Close")
	}
	closed := make(chan struct{})
	close(closed)
	if waitUntil(time.Now().Add(time.Hour), closed) {
		t.Fatal("waitUntil waited out the hour after Close")
	}
}
