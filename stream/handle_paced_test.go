package stream

import (
	"context"
	"sync"
	"testing"
	"time"
)

// parked waits until the consumer waits in NextBy for an urgent piece (it
// holds what came).
func parked(h *Handle) {
	for {
		h.mu.Lock()
		w := h.waiting
		h.mu.Unlock()
		if w == waitUrgent {
			return
		}
	}
}

// TestNextPacedHandsOverAPauseAndTheEnd: with a quiet, a delta after a
// pause longer than it is handed over at once (Fresh), with what came
// before it, and so is an event that closes a text; deltas that flow are
// held for the hold, and a consumer without a quiet holds them all.
func TestNextPacedHandsOverAPauseAndTheEnd(t *testing.T) {
	const quiet = 33 * time.Millisecond
	var mu sync.Mutex
	at := time.Unix(1000, 0)
	h, _ := newTestHandle(context.Background())
	h.clock = func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
	step := func(d time.Duration) { mu.Lock(); at = at.Add(d); mu.Unlock() }
	got := make(chan Batch)
	ask := func(q time.Duration) { go func() { b, _ := h.NextPaced(time.Hour, q); got <- b }() }

	ask(quiet)
	h.put(piece{ev: Event{Kind: KindCreated}})
	parked(h)
	step(10 * time.Millisecond)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "flowing"}}) // within the quiet: held
	step(quiet + time.Millisecond)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "after a pause"}})
	if b := <-got; len(b.Events) != 3 || !b.Fresh {
		t.Errorf("after a pause: %d events, fresh %v; want 3 at once, fresh", len(b.Events), b.Fresh)
	}

	ask(quiet)
	step(5 * time.Millisecond)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "more"}})
	parked(h)
	if h.readBy(at).After(at.Add(quiet)) {
		t.Errorf("the reader may sleep until %v, more than the quiet", h.readBy(at))
	}
	step(time.Millisecond)
	h.put(piece{ev: Event{Kind: KindTextDone, Text: "x"}})
	if b := <-got; len(b.Events) != 2 || b.Fresh {
		t.Errorf("the end of a text: %d events, fresh %v; want 2 at once, not fresh", len(b.Events), b.Fresh)
	}

	ask(0) // no quiet: a pause is held like the rest, until the end
	step(time.Millisecond)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	parked(h)
	step(time.Second)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "b"}})
	h.put(piece{ev: Event{Kind: KindCompleted}})
	h.put(piece{final: true})
	if b := <-got; len(b.Events) != 3 || !b.Final || b.Fresh {
		t.Errorf("no quiet: %d events, final %v, fresh %v; want all three with the end", len(b.Events), b.Final, b.Fresh)
	}
}

// TestNextPacedStaleReadIsNoPause: bytes the reader finds already waiting
// after a pause of its own (its read did not wait) begin no new flow,
// however long the reader slept; bytes it waited for do.
func TestNextPacedStaleReadIsNoPause(t *testing.T) {
	at := time.Unix(1000, 0)
	h, _ := newTestHandle(context.Background())
	h.clock = func() time.Time { return at }
	h.quiet = 33 * time.Millisecond
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	h.urgent, h.fresh = false, false
	at = at.Add(time.Second)
	h.readWaited(false)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "b"}})
	if h.urgent || h.fresh {
		t.Errorf("a stale read began a flow")
	}
	at = at.Add(time.Second)
	h.readWaited(true)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "c"}})
	if !h.fresh {
		t.Errorf("a read that waited a second did not begin a flow")
	}
}
