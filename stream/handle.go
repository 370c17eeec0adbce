package stream

import (
	"context"
	"io"
	"sync"
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
	// Conversation is what Start did about the request's NewConversation
	// (in the first batch, before any event).
	Conversation *ConversationStart
	Final        bool // the last batch; Next returns false after it
	More         bool // the batch was full and held the reader back: more is already waiting
	// Fresh: the batch was handed over before its hold because a delta came
	// after a quiet spell (NextPaced): a new flow of text begins with it.
	Fresh bool
	Err   error // with Final: why the stream ended (nil at a clean end)
}

// Handle is a stream being read on a background goroutine.
//
// There is no goroutine between the reader and the consumer: the reader
// appends each event to the pending batch under a lock, and wakes the
// consumer only when it is waiting in Next. A consumer that asks once per
// frame is woken at most once per frame, however many deltas arrive.
//
// Invariants (under mu):
//   - pending holds what was decoded since the last Next, in stream order;
//     size is the payload of its events (pieceSize).
//   - waiting says whether and for what a consumer is parked in NextBy; the
//     reader clears it when it sends the one wake-up token.
//   - blocked is true while the reader waits for a full batch to be taken.
//   - done is true once the Final batch was handed over.
//   - due is the notBefore of the consumer's latest NextBy: nothing is
//     taken before it, so the reader may wait for it (pacer).
//   - quiet is the pause of the consumer's latest NextPaced (0: none):
//     urgent is set when pending holds an event that must not wait for due
//     (a delta that came more than quiet after the event before it, fresh,
//     or one that closes a text, an item or the response); lastEv is when
//     the last event was added; stale says the reader's last read took
//     bytes already waiting (none of them can be fresh); closing says an
//     event that closes a text or an item came and no delta since.
type Handle struct {
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	pending Batch
	size    int
	waiting int // waitNone, waitAny or waitUrgent
	blocked bool
	done    bool
	due     time.Time
	quiet   time.Duration
	lastEv  time.Time
	urgent  bool
	fresh   bool
	clock   func() time.Time // nil: time.Now (tests set it)
	stale   bool             // the reader's last read took bytes that were already waiting (readWaited)
	closing bool             // a text or an item closed, no delta since: the reader does not pause (readBy)
	hint    int              // how many events the last batches held
	wake    chan struct{}    // cap 1: something arrived for a waiting consumer
	space   chan struct{}    // cap 1: the full batch the reader waits on was taken

	once sync.Once
	c    chan Batch
}

// readBy is when the reader must read again (pacer): when the consumer
// will next take a batch (due), and for a consumer that asked with a quiet
// (NextPaced), within it, so a delta after a pause or the end of a
// response is seen within the frame it comes in. (Reading every half quiet
// woke the reader 60 times a second for a paced answer, twice the CPU of
// its reads for nothing the user sees.) Once a text or an item has
// closed, and until a delta comes, the reader does not pause: what follows
// a text's end is the rest of its item and the response's end, sent at
// once, each a batch of its own when it carries the whole text (a pause
// before each held the end of a paced answer up to a frame per event).
func (h *Handle) readBy(now time.Time) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return time.Time{}
	}
	if by := now.Add(h.quiet); h.quiet > 0 && (h.due.IsZero() || by.Before(h.due)) {
		return by
	}
	return h.due
}

// Cancel stops the stream. The consumer should keep calling Next (or
// receiving from Chan) until the end; the Final batch carries the
// cancellation cause.
func (h *Handle) Cancel(cause error) { h.cancel(cause) }

// Next returns everything that arrived since the previous call as one
// batch, waiting for something when nothing has. After the Final batch it
// returns false. Only one goroutine may call Next (or NextBy) at a time, and
// none may once Chan was called.
func (h *Handle) Next() (Batch, bool) { return h.NextBy(time.Time{}) }

// NextWithin is NextBy with notBefore hold from now, by the wall clock the
// stream reads (0: at once, as Next). A consumer on a clock of its own (a
// UI's injected one) says how long, and the stream says when.
func (h *Handle) NextWithin(hold time.Duration) (Batch, bool) {
	if hold <= 0 {
		return h.Next()
	}
	return h.NextBy(time.Now().Add(hold))
}

// NextPaced is NextWithin for a consumer that draws text as it comes: a
// delta that comes more than quiet after the event before it (the first
// words after a pause), and an event that closes a text, an item or the
// response (the end), are handed over at once, with what came before them;
// a batch handed over for such a delta is Fresh. The reader reads at least
// every quiet meanwhile, so neither waits for the hold.
func (h *Handle) NextPaced(hold, quiet time.Duration) (Batch, bool) {
	var by time.Time
	if hold > 0 {
		by = time.Now().Add(hold)
	}
	return h.next(by, quiet)
}

// NextBy is Next for a consumer that draws frames: events that arrive before
// notBefore are held (the reader does not wake the consumer for them) and
// handed over at notBefore, together with all that came meanwhile. The end
// of the stream, a retry, or a batch full enough to hold the reader back is
// handed over at once. So a consumer that asks with notBefore set to its
// next frame is woken at most once per frame, and the stream's end is not
// held back.
func (h *Handle) NextBy(notBefore time.Time) (Batch, bool) { return h.next(notBefore, 0) }

// next is NextBy with NextPaced's quiet (0: none).
func (h *Handle) next(notBefore time.Time, quiet time.Duration) (Batch, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.due, h.quiet = notBefore, quiet
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		if h.done {
			return Batch{}, false
		}
		if len(h.pending.Events) > 0 && h.ctx.Err() != nil {
			h.pending.Events, h.size = nil, 0 // cancelled: only the end still goes out
		}
		if h.pending.Final || h.pending.Retry != nil || h.pending.Conversation != nil || h.blocked || h.urgent {
			break
		}
		var due <-chan time.Time
		if wait := time.Until(notBefore); wait > 0 {
			// before the frame only what must not wait for it wakes the
			// consumer, pending or not: one wake a batch, where waiting
			// for any piece first woke it twice (at the first piece of the
			// batch, and at the frame)
			if timer == nil {
				timer = time.NewTimer(wait)
			}
			due = timer.C
			h.waiting = waitUrgent
		} else if len(h.pending.Events) > 0 {
			break
		} else {
			h.waiting = waitAny
		}
		cancelled := h.ctx.Done()
		if h.ctx.Err() != nil {
			cancelled = nil // already dropped: wait for the final piece
		}
		h.mu.Unlock()
		select {
		case <-h.wake:
		case <-due:
		case <-cancelled: // drop what is pending; the final piece follows
		}
		h.mu.Lock()
		h.waiting = waitNone
	}
	b := h.pending
	b.More, b.Fresh = h.blocked, h.fresh
	h.pending, h.size = Batch{}, 0
	h.urgent, h.fresh = false, false
	h.hint = max(len(b.Events), h.hint/2)
	h.done = b.Final
	if h.blocked {
		h.blocked = false
		signal(h.space)
	}
	return b, true
}

// How a consumer waits in NextBy: not at all, for any piece, or only for
// one that must not wait for the frame (the end, a retry, a full batch).
const (
	waitNone = iota
	waitAny
	waitUrgent
)

// Chan returns the batches on a channel, closed after the Final batch, for
// consumers that want to select or range. It starts a goroutine that calls
// Next; call either Chan or Next, not both.
func (h *Handle) Chan() <-chan Batch {
	h.once.Do(func() {
		h.c = make(chan Batch)
		go func() {
			defer close(h.c)
			for {
				b, ok := h.Next()
				if !ok {
					return
				}
				h.c <- b
			}
		}()
	})
	return h.c
}

// put adds a piece to the pending batch, waking a waiting consumer. A full
// batch holds the reader until it is taken; a cancelled stream takes no
// more events. It reports whether the piece was taken.
func (h *Handle) put(p piece) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for !p.final && h.full() && !h.folds(&p) {
		if h.ctx.Err() != nil {
			return false
		}
		h.blocked = true
		if h.waiting != waitNone {
			h.waiting = waitNone
			signal(h.wake) // the consumer must take this batch now
		}
		h.mu.Unlock()
		select {
		case <-h.space:
		case <-h.ctx.Done():
		}
		h.mu.Lock()
	}
	if p.retry == nil && p.conv == nil && !p.final && h.ctx.Err() != nil {
		return false
	}
	if h.pending.Events == nil && !p.final && p.retry == nil && p.conv == nil {
		// room for as many as the last batches held: growing by doubling
		// to 512 events of a fast stream made twice its size in garbage
		h.pending.Events = make([]Event, 0, max(h.hint, 1))
	}
	h.pending = add(h.pending, p)
	h.size += pieceSize(&p)
	if !p.final && p.retry == nil && p.conv == nil {
		h.mark(&p.ev)
	}
	if h.waiting == waitAny || (h.waiting == waitUrgent && (p.final || p.retry != nil || p.conv != nil || h.urgent)) {
		h.waiting = waitNone
		signal(h.wake)
	}
	return true
}

// readWaited tells the handle whether the reader's last read waited for
// its bytes: when it did not, they were waiting in the socket while the
// reader paused (pacer), and the quiet before them is the reader's, not the
// server's: no delta of theirs is fresh.
func (h *Handle) readWaited(waited bool) {
	h.mu.Lock()
	h.stale = !waited
	h.mu.Unlock()
}

// mark notes an event just added: whether it must not wait for the
// consumer's due (see urgent), and when it came.
func (h *Handle) mark(ev *Event) {
	now := time.Now
	if h.clock != nil {
		now = h.clock
	}
	t := now()
	if h.quiet > 0 {
		if ev.Delta != "" && !h.stale && (h.lastEv.IsZero() || t.Sub(h.lastEv) > h.quiet) {
			h.urgent, h.fresh = true, true
		}
		if k := ev.Kind; k == KindTextDone || k == KindItemDone || k.IsTerminal() {
			h.urgent = true
		}
	}
	switch {
	case ev.Delta != "":
		h.closing = false
	case ev.Kind == KindTextDone || ev.Kind == KindItemDone:
		h.closing = true
	}
	h.lastEv = t
}

// folds reports whether p, though the pending batch is full, joins it: the
// events that end a response (a text's, a part's and an item's end, the
// response's own, [DONE]) each carry the whole text again, so each filled
// a batch of its own, and the end of a 40 KB answer reached the consumer as
// four batches, each applied and drawn before the next was decoded (on one
// processor, 3–5 ms apiece). They join one while the batch stays under
// maxEndBytes; a longer answer's end still comes a bounded batch at a time.
func (h *Handle) folds(p *piece) bool {
	if p.retry != nil || p.conv != nil || h.pending.Retry != nil || len(h.pending.Events) >= maxBatchEvents {
		return false
	}
	switch k := p.ev.Kind; {
	case k == KindTextDone, k == KindPartDone, k == KindItemDone, k == KindDone, k.IsTerminal():
		return h.size+pieceSize(p) <= maxEndBytes
	}
	return false
}

// maxEndBytes bounds a batch that the end of a response joins (folds): the
// four closing events of an answer of about 128 KB.
const maxEndBytes = 1 << 20

// full reports whether the pending batch must be taken before the reader
// adds to it.
func (h *Handle) full() bool {
	return h.size >= maxBatchBytes || len(h.pending.Events) >= maxBatchEvents || h.pending.Retry != nil
}

// signal leaves a token in a channel of capacity 1 without waiting.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Start opens a streaming request with c and reads it on a goroutine. A
// request with Background set is resumed when its stream drops (see
// openBackground).
func Start(ctx context.Context, c *Client, req Request) *Handle {
	secrets := c.redactor(&req)
	return start(ctx, func(ctx context.Context, retry func(RetryInfo), conv func(ConversationStart)) (io.ReadCloser, error) {
		if nc := req.NewConversation; nc != nil && req.Conversation == "" {
			id, err := c.CreateConversation(ctx, nc.Metadata)
			switch {
			case err == nil:
				req.Conversation, req.PreviousResponseID = id, ""
				conv(ConversationStart{ID: id})
			case NoConversations(err):
				if nc.History != nil {
					req.Input = nc.History
				}
				conv(ConversationStart{Err: err})
			default:
				return nil, err
			}
		}
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
	return start(ctx, func(context.Context, func(RetryInfo), func(ConversationStart)) (io.ReadCloser, error) {
		return io.NopCloser(r), nil
	}, pace, nil)
}

// opener opens the stream; it reports a retry's wait and what it did about
// a NewConversation, each as a piece of the next batch.
type opener func(ctx context.Context, retry func(RetryInfo), conv func(ConversationStart)) (io.ReadCloser, error)

// piece is one thing the reader adds to the pending batch.
type piece struct {
	ev    Event
	conv  *ConversationStart
	retry *RetryInfo
	final bool
	err   error
}

// Bounds on one batch: the events' payload bytes (see pieceSize) and their
// number. They bound the work a consumer gets at once (a chat applies what a
// batch brought, then renders) as much as the memory in flight (an Event is
// about 350 bytes). A full batch is handed over at once, marked More (see
// NextBy), so they do not cap a fast stream at one batch per frame (they
// did: a 40 KB answer in 4-byte deltas took 20 frames after its last byte);
// bigger batches only raised peak RSS (4,096 events: about 3 MB).
const (
	maxBatchBytes  = 32 << 10
	maxBatchEvents = 512
)

func start(parent context.Context, open opener, pace time.Duration, secrets *Redactor) *Handle {
	ctx, cancel := context.WithCancelCause(parent)
	h := &Handle{ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1), space: make(chan struct{}, 1)}
	go h.read(open, pace, secrets)
	return h
}

// read runs the request and the decoder, adding every event to the pending
// batch, with every secret in secrets replaced (see Redactor). It always
// ends with a final piece.
func (h *Handle) read(open opener, pace time.Duration, secrets *Redactor) {
	ctx := h.ctx
	body, err := open(ctx, func(ri RetryInfo) { h.put(piece{retry: &ri}) }, func(cs ConversationStart) { h.put(piece{conv: &cs}) })
	if err != nil {
		h.put(piece{final: true, err: err})
		return
	}
	defer body.Close()
	d, ok := body.(eventSource) // a background stream (openBackground)
	if !ok {
		p := &pacer{r: body, h: h, now: time.Now, pause: sleepUntil()}
		if s, ok := body.(interface{ lowWater() *lowWater }); ok {
			p.water = s.lowWater()
		}
		dec := NewDecoder(p)
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
			if !h.put(piece{ev: held}) {
				stopped = true
				break
			}
		}
		if stopped || !h.put(piece{ev: *ev}) {
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
		if stopped || !h.put(piece{ev: ev}) {
			break
		}
	}
	err = d.Err()
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	h.put(piece{final: true, err: err})
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

func add(b Batch, p piece) Batch {
	switch {
	case p.final:
		b.Final, b.Err = true, p.err
	case p.retry != nil:
		b.Retry = p.retry
	case p.conv != nil:
		b.Conversation = p.conv
	default:
		b.Events = append(b.Events, p.ev)
	}
	return b
}
