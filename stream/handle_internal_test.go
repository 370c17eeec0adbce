package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// newTestHandle is a Handle with no reader: the test puts the pieces.
func newTestHandle(ctx context.Context) (*Handle, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	return &Handle{ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1), space: make(chan struct{}, 1)}, cancel
}

// drain calls Next until the end.
func drain(h *Handle) []Batch {
	var got []Batch
	for {
		b, ok := h.Next()
		if !ok {
			return got
		}
		got = append(got, b)
	}
}

// TestBatchTakesEverythingWaiting: events that arrived while the consumer was
// busy come out as one batch, complete and in order.
func TestBatchTakesEverythingWaiting(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	for i := 0; i < 50; i++ {
		h.put(piece{ev: Event{Kind: KindTextDelta, Delta: string(rune('a' + i%26))}})
	}
	h.put(piece{final: true})
	got := drain(h)
	if len(got) != 1 || len(got[0].Events) != 50 || !got[0].Final {
		t.Fatalf("%d batches", len(got))
	}
	var sb strings.Builder
	for _, ev := range got[0].Events {
		sb.WriteString(ev.Delta)
	}
	if want := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 2)[:50]; sb.String() != want {
		t.Errorf("order: %q", sb.String())
	}
}

// TestNoWakeWithoutWaiter: events arriving while no consumer waits in Next
// wake nobody (no goroutine hand-off per delta); one that arrives while the
// consumer waits wakes it once.
func TestNoWakeWithoutWaiter(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	for i := 0; i < 100; i++ {
		h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}})
	}
	if len(h.wake) != 0 {
		t.Fatal("a put with no consumer waiting left a wake-up")
	}
	if b, _ := h.Next(); len(b.Events) != 100 {
		t.Fatalf("%d events", len(b.Events))
	}
	done := make(chan Batch)
	go func() { b, _ := h.Next(); done <- b }()
	for {
		h.mu.Lock()
		w := h.waiting
		h.mu.Unlock()
		if w != waitNone {
			break
		}
	}
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "y"}})
	if b := <-done; len(b.Events) != 1 || b.Events[0].Delta != "y" {
		t.Errorf("%+v", b)
	}
}

func TestBatchRetryIsSentAlone(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	h.put(piece{retry: &RetryInfo{Attempt: 1}})
	go func() {
		h.put(piece{ev: Event{Kind: KindCreated}}) // waits until the retry is taken
		h.put(piece{final: true})
	}()
	got := drain(h)
	if len(got) == 0 || got[0].Retry == nil || len(got[0].Events) != 0 {
		t.Fatalf("%+v", got)
	}
	events := 0
	for _, b := range got[1:] {
		events += len(b.Events)
	}
	if events != 1 || !got[len(got)-1].Final {
		t.Errorf("%+v", got)
	}
}

// TestBatchIsBounded: events waiting while the consumer is busy come out in
// batches of at most maxBatchBytes (plus the event that filled it), so a slow
// consumer holds the reader back instead of letting the stream pile up.
func TestBatchIsBounded(t *testing.T) {
	delta := strings.Repeat("x", 4<<10)
	const n = 200 // 800 KiB
	h, _ := newTestHandle(context.Background())
	go func() {
		for i := 0; i < n; i++ {
			h.put(piece{ev: Event{Kind: KindTextDelta, Delta: delta}})
		}
		h.put(piece{final: true})
	}()
	total, batches, more := 0, 0, 0
	for _, b := range drain(h) {
		batches++
		total += len(b.Events)
		if b.More {
			more++
		}
		if size := len(b.Events) * len(delta); size > maxBatchBytes+len(delta) {
			t.Errorf("batch %d holds %d events, %d bytes: over the %d-byte bound", batches, len(b.Events), size, maxBatchBytes)
		}
	}
	if total != n || batches < 3 {
		t.Errorf("%d events in %d batches, want %d in at least 3", total, batches, n)
	}
	if more == 0 {
		t.Error("no batch said that more was waiting behind it")
	}
}

// TestBatchDropsPendingAfterCancel: once the stream is cancelled, events not
// yet handed over are dropped and the final batch comes next.
func TestBatchDropsPendingAfterCancel(t *testing.T) {
	h, cancel := newTestHandle(context.Background())
	for i := 0; i < 200; i++ {
		h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}})
	}
	stop := errors.New("stop")
	cancel(stop)
	if h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}}) {
		t.Error("an event was taken after the cancel")
	}
	go h.put(piece{final: true, err: stop})
	var events int
	var last Batch
	for _, b := range drain(h) {
		events += len(b.Events)
		last = b
	}
	if !last.Final || last.Err != stop {
		t.Fatalf("last batch %+v", last)
	}
	if events != 0 {
		t.Errorf("%d pending events were handed over after the cancel", events)
	}
}

// TestNextByHoldsUntilTheFrame: events arriving before notBefore do not wake
// the consumer; the end of the stream does, at once, with them.
func TestNextByHoldsUntilTheFrame(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	got := make(chan Batch)
	go func() { b, _ := h.NextBy(time.Now().Add(time.Hour)); got <- b }()
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}}) // may come before or after the consumer parks
	for {
		h.mu.Lock()
		w := h.waiting
		h.mu.Unlock()
		if w == waitUrgent {
			break
		}
	}
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "b"}})
	h.put(piece{final: true})
	b := <-got
	if len(b.Events) != 2 || !b.Final {
		t.Errorf("%d events, final %v: want both deltas with the end", len(b.Events), b.Final)
	}
	// a notBefore in the past hands pending events over at once
	h2, _ := newTestHandle(context.Background())
	h2.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	if b, _ := h2.NextBy(time.Now().Add(-time.Second)); len(b.Events) != 1 {
		t.Errorf("%d events", len(b.Events))
	}
}

// TestNextByParksOnceBeforeTheFrame: a consumer that asks before its frame
// with nothing pending parks until the frame (only what must not wait
// wakes it), not until the first piece: a paced stream wakes it once a
// batch, not twice (at the batch's first delta, and again at the frame).
func TestNextByParksOnceBeforeTheFrame(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	got := make(chan Batch)
	go func() { b, _ := h.NextBy(time.Now().Add(time.Hour)); got <- b }()
	for {
		h.mu.Lock()
		w := h.waiting
		h.mu.Unlock()
		if w != waitNone {
			if w != waitUrgent {
				t.Fatalf("an empty batch before its frame parks the consumer for any piece (%d), want only what must not wait (%d)", w, waitUrgent)
			}
			break
		}
	}
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	h.mu.Lock()
	w := h.waiting
	h.mu.Unlock()
	if w != waitUrgent {
		t.Errorf("a delta before the frame woke the consumer (waiting %d)", w)
	}
	h.put(piece{final: true})
	if b := <-got; len(b.Events) != 1 || !b.Final {
		t.Errorf("%d events, final %v: want the delta with the end", len(b.Events), b.Final)
	}
}

// TestNextWithinHoldsFromNow: NextWithin holds what comes for the time
// given from now (the consumer is parked until the end wakes it, and the
// reader's pause sees that time), and with none hands it over at once.
func TestNextWithinHoldsFromNow(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	got := make(chan Batch)
	before := time.Now()
	go func() { b, _ := h.NextWithin(time.Hour); got <- b }()
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	for {
		h.mu.Lock()
		w := h.waiting
		h.mu.Unlock()
		if w == waitUrgent {
			break
		}
	}
	if due := h.readBy(time.Now()); due.Before(before.Add(time.Hour)) || due.After(time.Now().Add(time.Hour)) {
		t.Errorf("held until %v, want an hour from the call (%v)", due, before.Add(time.Hour))
	}
	h.put(piece{final: true})
	if b := <-got; len(b.Events) != 1 || !b.Final {
		t.Errorf("%d events, final %v: want the delta with the end", len(b.Events), b.Final)
	}
	h2, _ := newTestHandle(context.Background())
	h2.put(piece{ev: Event{Kind: KindTextDelta, Delta: "a"}})
	if b, _ := h2.NextWithin(0); len(b.Events) != 1 {
		t.Errorf("%d events at once, want 1", len(b.Events))
	}
	if !h2.readBy(time.Now()).IsZero() {
		t.Errorf("no hold, yet the reader would wait until %v", h2.readBy(time.Now()))
	}
}

// TestBatchIsSizedByTheLastOnes: a batch starts with room for as many
// events as the one before it, or half the room of that one, so a fast
// stream's full batches are allocated once instead of growing by doubling,
// and a slow stream's shrink to its size.
func TestBatchIsSizedByTheLastOnes(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	batch := func(n int) Batch {
		for range n {
			h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}})
		}
		b, _ := h.Next()
		return b
	}
	batch(300)
	if b := batch(300); cap(b.Events) != 300 {
		t.Fatalf("a batch of 300 after one of 300 has room for %d", cap(b.Events))
	}
	if b := batch(100); cap(b.Events) != 300 {
		t.Fatalf("a batch of 100 after one of 300 has room for %d", cap(b.Events))
	}
	if b := batch(100); cap(b.Events) != 150 {
		t.Fatalf("the next batch has room for %d, want half of 300", cap(b.Events))
	}
	for range 10 {
		batch(3)
	}
	if b := batch(2); cap(b.Events) != 3 {
		t.Fatalf("after batches of 3 a batch has room for %d, want 3", cap(b.Events))
	}
}
