package stream

import (
	"context"
	"io"
	"time"
)

// Batch is what a Handle hands its consumer: every event decoded since the
// previous batch, in stream order. Events are never dropped, merged or
// reordered; batching only lets a consumer that is busy (rendering a frame)
// take everything that arrived meanwhile in one receive.
type Batch struct {
	Events []Event
	Retry  *RetryInfo // a retry is about to wait (before the first byte)
	Final  bool       // the last batch; the channel closes after it
	Err    error      // with Final: why the stream ended (nil at a clean end)
}

// Handle is a stream being read on a background goroutine.
type Handle struct {
	C      <-chan Batch // batches, ending with one Final batch, then closed
	cancel context.CancelCauseFunc
}

// Cancel stops the stream. The consumer should keep receiving from C until it
// closes; the Final batch carries the cancellation cause.
func (h *Handle) Cancel(cause error) { h.cancel(cause) }

// Start opens a streaming request with c and reads it on a goroutine.
func Start(ctx context.Context, c *Client, req Request) *Handle {
	secrets := c.redactor(&req)
	return start(ctx, func(ctx context.Context, retry func(RetryInfo)) (io.ReadCloser, error) {
		cl := *c
		cl.Secrets = secrets
		prev := c.OnRetry
		cl.OnRetry = func(ri RetryInfo) {
			if prev != nil {
				prev(ri)
			}
			retry(ri)
		}
		return cl.Open(ctx, req)
	}, 0, secrets)
}

// StartReader reads an already-open SSE stream (a recording, stdin) on a
// goroutine, waiting pace between events (0 for full speed).
func StartReader(ctx context.Context, r io.Reader, pace time.Duration) *Handle {
	return start(ctx, func(context.Context, func(RetryInfo)) (io.ReadCloser, error) {
		return io.NopCloser(r), nil
	}, pace, nil)
}

type opener func(ctx context.Context, retry func(RetryInfo)) (io.ReadCloser, error)

// piece is one thing the reader goroutine passes to the batcher.
type piece struct {
	ev    Event
	retry *RetryInfo
	final bool
	err   error
}

func start(parent context.Context, open opener, pace time.Duration, secrets *Redactor) *Handle {
	ctx, cancel := context.WithCancelCause(parent)
	out := make(chan Batch)
	in := make(chan piece, 256)
	go read(ctx, open, pace, secrets, in)
	go batch(in, out)
	return &Handle{C: out, cancel: cancel}
}

// read runs the request and the decoder, passing every event on, with
// every secret in secrets replaced (see Redactor). It always ends with a
// final piece.
func read(ctx context.Context, open opener, pace time.Duration, secrets *Redactor, in chan<- piece) {
	defer close(in)
	send := func(p piece) bool {
		select {
		case in <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	body, err := open(ctx, func(ri RetryInfo) { send(piece{retry: &ri}) })
	if err != nil {
		in <- piece{final: true, err: err}
		return
	}
	defer body.Close()
	d := NewDecoder(body)
	d.SetRedactor(secrets)
	guard := &deltaGuard{r: secrets}
	var tick *time.Ticker
	if pace > 0 {
		tick = time.NewTicker(pace)
		defer tick.Stop()
	}
	stopped := false
	for !stopped && d.Next() {
		ev := d.Event()
		for _, held := range guard.filter(ev) {
			if !send(piece{ev: held}) {
				stopped = true
				break
			}
		}
		if stopped || !send(piece{ev: *ev}) {
			stopped = true
			break
		}
		if tick != nil {
			select {
			case <-tick.C:
			case <-ctx.Done():
			}
		}
	}
	for _, ev := range guard.flush() {
		if stopped || !send(piece{ev: ev}) {
			break
		}
	}
	err = d.Err()
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	in <- piece{final: true, err: err}
}

// batch collects pieces while the consumer is busy and hands them over as
// soon as it is ready.
func batch(in <-chan piece, out chan<- Batch) {
	defer close(out)
	var pending Batch
	has := false
	for {
		if !has {
			p, ok := <-in
			if !ok {
				return
			}
			pending, has = add(Batch{}, p), true
			continue
		}
		if pending.Final || pending.Retry != nil {
			out <- pending
			if pending.Final {
				for range in { // drain (nothing follows a final piece)
				}
				return
			}
			pending, has = Batch{}, false
			continue
		}
		// Take everything already waiting before offering the batch.
		if p, ok, ready := tryRecv(in); ready {
			if !ok {
				pending.Final = true
			} else {
				pending = add(pending, p)
			}
			continue
		}
		select {
		case p, ok := <-in:
			if !ok {
				pending.Final = true
				continue
			}
			pending = add(pending, p)
		case out <- pending:
			pending, has = Batch{}, false
		}
	}
}

func tryRecv(in <-chan piece) (p piece, ok, ready bool) {
	select {
	case p, ok = <-in:
		return p, ok, true
	default:
		return piece{}, false, false
	}
}

func add(b Batch, p piece) Batch {
	switch {
	case p.final:
		b.Final, b.Err = true, p.err
	case p.retry != nil:
		b.Retry = p.retry
	default:
		b.Events = append(b.Events, p.ev)
	}
	return b
}
