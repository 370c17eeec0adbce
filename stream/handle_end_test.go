package stream

import (
	"context"
	"strings"
	"testing"
	"time"
)

// closingPieces are the events that end an answer of n bytes as OpenAI
// sends them: each of the four carries the whole text again.
func closingPieces(n int) []piece {
	text := strings.Repeat("x", n)
	raw := []byte(`{"text":"` + text + `"}`)
	return []piece{
		{ev: Event{Kind: KindTextDone, Text: text, Raw: raw}},
		{ev: Event{Kind: KindPartDone, Raw: raw}},
		{ev: Event{Kind: KindItemDone, Raw: raw, Item: &Item{Raw: raw}}},
		{ev: Event{Kind: KindCompleted, Raw: raw, Response: &Response{Raw: raw}}},
		{ev: Event{Kind: KindDone}},
		{final: true},
	}
}

// TestEndOfAnswerIsOneBatch: the events that end a 40 KB answer join the
// batch that waits for a busy consumer, though each alone fills one, so
// the chat applies and draws the end once; the end of a long answer still
// holds the reader back (a batch stays bounded).
func TestEndOfAnswerIsOneBatch(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	put := make(chan struct{})
	go func() {
		for range 50 {
			h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "abcd"}})
		}
		for _, p := range closingPieces(40 << 10) {
			h.put(p)
		}
		close(put)
	}()
	select {
	case <-put: // the consumer was busy throughout: nothing took a batch
	case <-time.After(10 * time.Second): // a failure, not a measure
		t.Fatal("the end of a 40 KB answer held the reader back")
	}
	got := drain(h)
	if len(got) != 1 || len(got[0].Events) != 55 || !got[0].Final {
		t.Fatalf("%d batches (first: %d events, final %v); want the whole end in one", len(got), len(got[0].Events), got[0].Final)
	}

	h, _ = newTestHandle(context.Background())
	go func() {
		for _, p := range closingPieces(600 << 10) {
			h.put(p)
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; {
		h.mu.Lock()
		blocked := h.blocked
		h.mu.Unlock()
		if blocked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the end of a 600 KB answer never held the reader back")
		}
	}
	n := 0
	for _, b := range drain(h) {
		size := 0
		for i := range b.Events {
			size += pieceSize(&piece{ev: b.Events[i]})
		}
		if len(b.Events) > 1 && size > maxEndBytes {
			t.Errorf("a batch of %d events holds %d bytes, over %d", len(b.Events), size, maxEndBytes)
		}
		n += len(b.Events)
	}
	if n != 5 {
		t.Errorf("%d events came of 5", n)
	}
}
