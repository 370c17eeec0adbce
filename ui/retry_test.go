package ui

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// retryTurn starts a turn whose stream is sse, delivered only when the test
// reads it, with the model's clock at t0 and its frame clock stale (the chat
// was idle for 15s).
func retryTurn(t *testing.T, sse []byte, t0 time.Time) *Model {
	m := newTestModel(t, Options{})
	m.frame.clock = func() time.Time { return t0 }
	m.frame.now = t0.Add(-15 * time.Second)
	m.turns.gen++
	h := stream.StartReader(t.Context(), bytes.NewReader(sse), 0)
	m.turns.cur = &turn{gen: m.turns.gen, sess: m.turns.conv.Say("hi"), handle: h, started: t0, changed: map[*stream.Item]bool{}}
	m.statusBar.status.State = Waiting
	return m
}

func rateLimited(wait time.Duration) *stream.RetryInfo {
	return &stream.RetryInfo{Attempt: 1, Max: 3, Wait: wait,
		Err: &stream.APIError{Status: 429, RetryAfter: wait}}
}

// TestRetryCountdown: a 429 with Retry-After 2 shows "retrying in 2s" however
// long the chat was idle, counts down on frames, and is replaced by the
// outcome once the retry's stream arrives. It never says "wait and try
// again": runnel retries on its own.
func TestRetryCountdown(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_700_000_000, 0)
	m := retryTurn(t, streamtest.Text("resp_ok", "the answer"), t0)
	m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Retry: rateLimited(2 * time.Second)}})
	v := plain(m)
	if !strings.Contains(v, "retrying in 2s") || !strings.Contains(v, "retry 1 of 3") {
		t.Fatalf("want the real wait, 2s:\n%s", v)
	}
	if strings.Contains(v, "try again") {
		t.Errorf("the notice tells the user to try again while runnel retries:\n%s", v)
	}
	m.Update(frameMsg{gen: m.turns.gen, now: t0.Add(1100 * time.Millisecond)})
	if v := plain(m); !strings.Contains(v, "retrying in 1s") {
		t.Fatalf("no countdown after 1.1s:\n%s", v)
	}
	m.Update(frameMsg{gen: m.turns.gen, now: t0.Add(2100 * time.Millisecond)})
	if v := plain(m); !strings.Contains(v, "retrying now") {
		t.Fatalf("at the deadline:\n%s", v)
	}
	for m.turns.cur != nil {
		b, ok := <-m.turns.cur.handle.Chan()
		if !ok {
			b = stream.Batch{Final: true}
		}
		m.Update(batchMsg{gen: m.turns.gen, batch: b})
	}
	m.Update(frameMsg{gen: m.turns.gen, now: t0.Add(3 * time.Second)})
	v = plain(m)
	if !strings.Contains(v, "the answer") || !strings.Contains(v, "the retry worked") {
		t.Errorf("want the answer and the retry's outcome:\n%s", v)
	}
	if strings.Contains(v, "retrying") {
		t.Errorf("the countdown stays after the retry succeeded:\n%s", v)
	}
}

// TestRetryFailedOutcome: a retry that fails again is shown in the same
// line, with a new countdown, not in a line below; a final failure settles
// that line, and the error has its own notice, once.
func TestRetryFailedOutcome(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_700_000_000, 0)
	m := retryTurn(t, nil, t0)
	m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Retry: rateLimited(2 * time.Second)}})
	n := m.items.transcript.Len()
	second := rateLimited(4 * time.Second)
	second.Attempt = 2
	m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Retry: second}})
	v := plain(m)
	if m.items.transcript.Len() != n || strings.Contains(v, "retry 1 of 3") || !strings.Contains(v, "retry 2 of 3 · retrying in 4s") {
		t.Fatalf("the second retry is not in the first one's place (%d entries, then %d):\n%s", n, m.items.transcript.Len(), v)
	}
	m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Final: true, Err: errors.New("429 Too Many Requests: rate limited")}})
	v = plain(m)
	if strings.Contains(v, "retrying in") || !strings.Contains(v, "retry 2 of 3 · failed") || strings.Count(v, "✗ 429") != 1 {
		t.Errorf("after the final failure:\n%s", v)
	}
}
