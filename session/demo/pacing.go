package demo

import (
	"context"
	"io"
	"time"
)

// Pacing policy at Speed 1. Real models stream 50-150 small deltas a second
// after a pause to think; hosted tools take about a second.
const (
	thinkingPause = 700 * time.Millisecond // before the first output item
	itemGap       = 60 * time.Millisecond  // before each output_item.added
	toolPause     = 900 * time.Millisecond // a hosted tool at work
)

// deltaGap is the pause before the delta with sequence number seq: 9-15 ms,
// varied deterministically, so 67-111 deltas a second.
func deltaGap(seq int) time.Duration {
	return time.Duration(9+(seq*5)%7) * time.Millisecond
}

// frame encodes one event the way servers do: "event:", "data:", blank line.
func frame(e event) []byte {
	b := make([]byte, 0, len(e.name)+len(e.data)+17)
	b = append(b, "event: "...)
	b = append(b, e.name...)
	b = append(b, "\ndata: "...)
	b = append(b, e.data...)
	return append(b, "\n\n"...)
}

// play writes events to w in order, pausing before each one for its wait
// divided by speed (speed <= 0: no pauses). It returns ctx's error as soon as
// ctx ends, or the first write error.
func play(ctx context.Context, w io.Writer, events []event, speed float64) error {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for _, e := range events {
		if speed > 0 && e.wait > 0 {
			d := time.Duration(float64(e.wait) / speed)
			if timer == nil {
				timer = time.NewTimer(d)
			} else {
				timer.Reset(d)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-timer.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := w.Write(frame(e)); err != nil {
			return err
		}
	}
	return nil
}

// body is a response body produced lazily by a goroutine running play. It
// buffers what was written and not yet read, as a socket does: the writer
// never waits for the reader, so a reader that reads once a frame (stream's
// pacer) gets every event that came meanwhile, and the pacing stays the
// server's. The buffer holds at most the response's own events.
//
// Invariants: once the request context ends, reads fail with its error
// (context.Canceled or DeadlineExceeded), and after Close with
// io.ErrClosedPipe; frames is closed by the writer after it set err (nil:
// the end of the stream); Close stops the writer.
type body struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	frames  chan []byte
	pending []byte
	err     error
}

func (b *body) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.ctx.Err() != nil {
			return 0, context.Cause(b.ctx)
		}
		select {
		case f, ok := <-b.frames:
			if !ok {
				if b.err != nil {
					return 0, b.err
				}
				return 0, io.EOF
			}
			b.pending = f
		case <-b.ctx.Done():
			return 0, context.Cause(b.ctx)
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

func (b *body) Close() error {
	b.cancel(io.ErrClosedPipe)
	return nil
}

// frameWriter hands each write to the body as one frame.
type frameWriter chan<- []byte

func (w frameWriter) Write(p []byte) (int, error) {
	w <- p
	return len(p), nil
}

// paced starts the writer goroutine for events and returns the body it feeds.
func paced(ctx context.Context, events []event, speed float64) io.ReadCloser {
	ctx, cancel := context.WithCancelCause(ctx)
	b := &body{ctx: ctx, cancel: cancel, frames: make(chan []byte, len(events))}
	go func() {
		b.err = play(ctx, frameWriter(b.frames), events, speed)
		close(b.frames)
	}()
	return b
}
