package stream

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a socket on a fake clock: part i arrives at start+i*gap, and a
// Read returns every part that has arrived, waiting (moving the clock) for
// the next one when none has.
type chunks struct {
	parts []string
	gap   time.Duration
	start time.Time
	clock *time.Time
	next  int
	reads int
}

func (c *chunks) Read(b []byte) (int, error) {
	if c.next == len(c.parts) {
		return 0, io.EOF
	}
	c.reads++
	if at := c.start.Add(time.Duration(c.next) * c.gap); c.clock.Before(at) {
		*c.clock = at
	}
	n := 0
	for c.next < len(c.parts) && !c.start.Add(time.Duration(c.next)*c.gap).After(*c.clock) && n+len(c.parts[c.next]) <= len(b) {
		n += copy(b[n:], c.parts[c.next])
		c.next++
	}
	return n, nil
}

// pacedRead reads the whole body through a pacer whose consumer takes its
// next batch at due (zero: Next, no notBefore), on a fake clock: a pause
// moves the clock to its end. It returns the pauses taken.
func pacedRead(t *testing.T, parts []string, gap time.Duration, due func(now time.Time) time.Time) (pauses []time.Duration, reads int, text string) {
	t.Helper()
	h, _ := newTestHandle(context.Background())
	clock := time.Unix(1_700_000_000, 0)
	body := &chunks{parts: parts, gap: gap, start: clock, clock: &clock}
	p := &pacer{r: body, h: h, now: func() time.Time { return clock }, pause: func(_ context.Context, until time.Time) {
		if until.After(clock) {
			pauses = append(pauses, until.Sub(clock))
			clock = until
		}
	}}
	var sb strings.Builder
	buf := make([]byte, 64<<10)
	for {
		h.due = due(clock) // the consumer asks again after each read
		n, err := p.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return pauses, body.reads, sb.String()
}

// TestPacerReadsASlowStreamOnceAFrame: deltas that trickle in (200 a second)
// are read once per frame of the consumer, every byte in order, while a
// stream that comes faster than slowRate, or a consumer with no frame, is
// never paused.
func TestPacerReadsASlowStreamOnceAFrame(t *testing.T) {
	delta := `data: {"type":"response.output_text.delta","delta":"abcd"}` + "\n\n"
	parts := make([]string, 1000)
	for i := range parts {
		parts[i] = delta
	}
	frame := 100 * time.Millisecond
	nextFrame := func(now time.Time) time.Time { return now.Truncate(frame).Add(frame) }

	pauses, reads, text := pacedRead(t, parts, 5*time.Millisecond, nextFrame)
	if text != strings.Join(parts, "") {
		t.Fatal("the paced stream lost or reordered bytes")
	}
	// 1000 deltas 5 ms apart are 5 s, 50 frames: about one read a frame
	if reads > 60 {
		t.Errorf("%d reads for 50 frames of deltas: the reader is not paced", reads)
	}
	for _, d := range pauses {
		if d <= 0 || d > frame {
			t.Fatalf("a pause of %s: not up to the next frame", d)
		}
	}
	// unpaced, the same stream takes a read per delta
	if _, reads, _ := pacedRead(t, parts, 5*time.Millisecond, func(time.Time) time.Time { return time.Time{} }); reads != len(parts) {
		t.Errorf("a consumer with no frame (Next): %d reads for %d deltas, want one each", reads, len(parts))
	}

	// the same bytes 64 KB at a time, 10 ms apart: 6.4 MB/s, a backlog
	big := strings.Repeat(delta, (64<<10)/len(delta))
	if pauses, _, _ := pacedRead(t, []string{big, big, big, big}, 10*time.Millisecond, nextFrame); len(pauses) != 0 {
		t.Errorf("a fast stream was paused %d times", len(pauses))
	}
	// its last bytes, a small read, are not held for the frame either
	end := `data: {"type":"response.completed"}` + "\n\n"
	if pauses, _, _ := pacedRead(t, []string{big, big, end}, 10*time.Millisecond, nextFrame); len(pauses) != 0 {
		t.Errorf("the end of a fast stream waited for the frame (%d pauses)", len(pauses))
	}
}

// TestPacerPauseEndsOnCancel: a stream cancelled while its reader waits for
// the frame is not held until then.
func TestPacerPauseEndsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sleep := sleepUntil()
	done := make(chan struct{})
	go func() {
		sleep(ctx, time.Now().Add(time.Hour))
		close(done)
	}()
	cancel()
	<-done // a pause that did not end on cancel would hang the test
	sleep(context.Background(), time.Now().Add(-time.Second))
}

// TestHandleRecordsTheConsumersFrame: NextBy records its notBefore for the
// reader (the pacer waits for it); Next records none.
func TestHandleRecordsTheConsumersFrame(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}})
	at := time.Now().Add(-time.Millisecond)
	if b, _ := h.NextBy(at); len(b.Events) != 1 {
		t.Fatal("a batch due was not taken")
	}
	if !h.readBy(time.Now()).Equal(at) {
		t.Errorf("notBefore %v, want %v", h.readBy(time.Now()), at)
	}
	h.put(piece{final: true})
	h.Next()
	if !h.readBy(time.Now()).IsZero() {
		t.Error("Next left a frame for the reader to wait for")
	}
}

// TestPacerReadsOnAfterATextEnds: once a text or an item has closed, the
// reader does not wait for the consumer's frame (the rest of the item and
// the response's end follow at once, each a batch of its own) until the
// next delta comes; a delta brings the pause back.
func TestPacerReadsOnAfterATextEnds(t *testing.T) {
	h, _ := newTestHandle(context.Background())
	due := time.Now().Add(time.Hour)
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "x"}})
	h.due = due
	if !h.readBy(time.Now()).Equal(due) {
		t.Fatal("a delta: the reader does not wait for the frame")
	}
	for _, k := range []Kind{KindTextDone, KindItemDone} {
		h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "y"}})
		h.put(piece{ev: Event{Kind: k}})
		h.put(piece{ev: Event{Kind: KindPartDone}}) // what follows a text's end, before the item's
		h.due = due
		if by := h.readBy(time.Now()); !by.IsZero() {
			t.Errorf("after %v: the reader waits until %v, not reading on", k, by)
		}
	}
	h.put(piece{ev: Event{Kind: KindTextDelta, Delta: "z"}})
	h.due = due
	if !h.readBy(time.Now()).Equal(due) {
		t.Error("a delta after an item's end: the reader does not wait for the frame again")
	}
}
