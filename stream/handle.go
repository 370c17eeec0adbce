package stream

import (
	"context"
	"io"
	"time"
)

// Batch is what a Handle hands its consumer: every event decoded since the
// previous batch, in stream order. Events are never merged or reordered, and
// never dropped until the stream is cancelled; batching only lets a consumer
// that is busy (rendering a frame) take everything that arrived meanwhile in
// one receive.
//
// A batch is bounded (maxBatchBytes, maxBatchEvents): while a full batch
// waits for its consumer, the reader waits too, so a slow consumer slows
// the stream down instead of letting it pile up in memory. Once the stream
// is cancelled, events not yet handed over are dropped and the Final batch
// comes next.
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

// Start opens a streaming request with c and reads it on a goroutine. A
// request with Background set is resumed when its stream drops (see
// openBackground).
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
		if req.Background {
			return openBackground(ctx, &cl, req, retry)
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

// Bounds on one batch: the events' payload bytes (see pieceSize) and their
// number. They bound the work a consumer gets at once (a chat renders what a
// batch brought before the next frame) as much as the memory in flight.
const (
	maxBatchBytes  = 16 << 10
	maxBatchEvents = 512
)

func start(parent context.Context, open opener, pace time.Duration, secrets *Redactor) *Handle {
	ctx, cancel := context.WithCancelCause(parent)
	out := make(chan Batch)
	in := make(chan piece, 256)
	go read(ctx, open, pace, secrets, in)
	go batch(ctx, in, out)
	return &Handle{C: out, cancel: cancel}
}

// read runs the request and the decoder, passing every event on, with
// every secret in secrets replaced (see Redactor). It always ends with a
// final piece.
func read(ctx context.Context, open opener, pace time.Duration, secrets *Redactor, in chan<- piece) {
	defer close(in)
	send := func(p piece) bool {
		if ctx.Err() != nil {
			return false // a select with both ready picks at random
		}
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
	d, ok := body.(eventSource) // a background stream (openBackground)
	if !ok {
		dec := NewDecoder(body)
		dec.SetRedactor(secrets)
		d = dec
	}
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
// soon as it is ready. A full batch stops taking pieces until it is handed
// over. After ctx is done, pending events are dropped: only the final piece
// (and a retry notice) still goes out.
func batch(ctx context.Context, in <-chan piece, out chan<- Batch) {
	defer close(out)
	var pending Batch
	size := 0 // pieceSize of the pending events
	has := false
	take := func(p piece) {
		pending, has = add(pending, p), true
		size += pieceSize(&p)
	}
	for {
		if len(pending.Events) > 0 && ctx.Err() != nil {
			pending.Events, size = nil, 0
			has = pending.Final || pending.Retry != nil
		}
		if !has {
			p, ok := <-in
			if !ok {
				return
			}
			pending, size = Batch{}, 0
			take(p)
			continue
		}
		if pending.Final || pending.Retry != nil {
			out <- pending
			if pending.Final {
				for range in { // drain (nothing follows a final piece)
				}
				return
			}
			pending, has, size = Batch{}, false, 0
			continue
		}
		recv := in
		if size >= maxBatchBytes || len(pending.Events) >= maxBatchEvents {
			recv = nil // full: the reader waits until this batch is taken
		} else if p, ok, ready := tryRecv(in); ready {
			// Take everything already waiting before offering the batch.
			if !ok {
				pending.Final = true
			} else {
				take(p)
			}
			continue
		}
		select {
		case p, ok := <-recv:
			if !ok {
				pending.Final = true
				continue
			}
			take(p)
		case out <- pending:
			pending, has, size = Batch{}, false, 0
		case <-ctx.Done():
			// dropped at the top of the loop
		}
	}
}

// pieceSize is the payload an event carries: its text and raw JSON.
func pieceSize(p *piece) int {
	ev := &p.ev
	n := len(ev.Delta) + len(ev.DeltaRaw) + len(ev.Text) + len(ev.Raw) + len(ev.PartialImage) + len(ev.Output)
	if ev.Item != nil {
		n += len(ev.Item.Raw)
	}
	if ev.Response != nil {
		n += len(ev.Response.Raw)
	}
	return n
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
