package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestBatchTakesEverythingWaiting: events that arrived while the consumer was
// busy come out as one batch, complete and in order; a retry and the final
// piece are delivered on their own terms.
func TestBatchTakesEverythingWaiting(t *testing.T) {
	in := make(chan piece, 100)
	for i := 0; i < 50; i++ {
		in <- piece{ev: Event{Kind: KindTextDelta, Delta: string(rune('a' + i%26))}}
	}
	in <- piece{final: true}
	close(in)
	out := make(chan Batch)
	go batch(context.Background(), in, out)
	var got []Batch
	for b := range out {
		got = append(got, b)
	}
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

func TestBatchRetryIsSentAlone(t *testing.T) {
	in := make(chan piece, 4)
	in <- piece{retry: &RetryInfo{Attempt: 1}}
	in <- piece{ev: Event{Kind: KindCreated}}
	in <- piece{final: true}
	close(in)
	out := make(chan Batch)
	go batch(context.Background(), in, out)
	b1, b2 := <-out, <-out
	if b1.Retry == nil || len(b1.Events) != 0 || len(b2.Events) != 1 || !b2.Final {
		t.Errorf("%+v %+v", b1, b2)
	}
	if _, ok := <-out; ok {
		t.Error("channel not closed")
	}
}

// TestBatchIsBounded: events waiting while the consumer is busy come out in
// batches of at most maxBatchBytes (plus the event that filled it), so a slow
// consumer holds the reader back instead of letting the stream pile up.
func TestBatchIsBounded(t *testing.T) {
	delta := strings.Repeat("x", 1<<10)
	const n = 200 // 200 KiB waiting
	in := make(chan piece, n+1)
	for i := 0; i < n; i++ {
		in <- piece{ev: Event{Kind: KindTextDelta, Delta: delta}}
	}
	in <- piece{final: true}
	close(in)
	out := make(chan Batch)
	go batch(context.Background(), in, out)
	total, batches := 0, 0
	for b := range out {
		batches++
		total += len(b.Events)
		if size := len(b.Events) * len(delta); size > maxBatchBytes+len(delta) {
			t.Errorf("batch %d holds %d events, %d bytes: over the %d-byte bound", batches, len(b.Events), size, maxBatchBytes)
		}
	}
	if total != n || batches < 3 {
		t.Errorf("%d events in %d batches, want %d in at least 3", total, batches, n)
	}
}

// TestBatchDropsPendingAfterCancel: once the stream is cancelled, events not
// yet handed over are dropped and the final batch comes next.
func TestBatchDropsPendingAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	in := make(chan piece, 300)
	out := make(chan Batch)
	go batch(ctx, in, out)
	for i := 0; i < 200; i++ {
		in <- piece{ev: Event{Kind: KindTextDelta, Delta: "x"}}
	}
	stop := errors.New("stop")
	cancel(stop)
	in <- piece{final: true, err: stop}
	close(in)
	var events int
	var last Batch
	for b := range out {
		events += len(b.Events)
		last = b
	}
	if !last.Final || last.Err != stop {
		t.Fatalf("last batch %+v", last)
	}
	if events == 200 {
		t.Errorf("all 200 pending events were handed over after the cancel")
	}
}
