package stream

import (
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
	go batch(in, out)
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
	go batch(in, out)
	b1, b2 := <-out, <-out
	if b1.Retry == nil || len(b1.Events) != 0 || len(b2.Events) != 1 || !b2.Final {
		t.Errorf("%+v %+v", b1, b2)
	}
	if _, ok := <-out; ok {
		t.Error("channel not closed")
	}
}
