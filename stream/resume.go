package stream

// This file resumes the stream of a background response (Request.Background)
// that dropped or stalled before the response ended.

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// eventSource is what a Handle's reader pulls events from: a Decoder, or a
// resumer around one (which an opener returns in place of the body).
type eventSource interface {
	Next() bool
	Event() *Event
	Err() error
}

// Bounds on recovering one background response, whatever progress each
// reconnect makes.
const (
	// MaxReconnects is how many times in a row a dropped background stream
	// is reopened without bringing a new event before the turn ends with
	// the drop's error.
	MaxReconnects = 5
	// MaxResumes is how many times in all one turn's stream is reopened.
	MaxResumes = 20
	// ResumeBudget is how long one turn's stream may go without new events
	// in all, counted from the last new event before each drop to the
	// first after it (stalls and backoff included; healthy streaming is
	// not). No reconnect starts, and no backoff waits, past it.
	ResumeBudget = 10 * time.Minute
	// MaxPolls is how many times a response is fetched, with backoff, from
	// a server that cannot resume streams, before giving up.
	MaxPolls = 40
	// PollWindow is how long a server that cannot resume streams is polled
	// before giving up: no check is made, and no backoff waits, past it.
	PollWindow = 5 * time.Minute
)

// clock is what a resumer reads the time from, waits with and draws its
// backoff jitter from; nil fields are the real ones (Client.clock, for
// tests that run the bounds without waiting).
type clock struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	rnd   func(n int64) int64
}

func (c *clock) Now() time.Time {
	if c == nil || c.now == nil {
		return time.Now()
	}
	return c.now()
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if c == nil || c.sleep == nil {
		return sleepCtx(ctx, d)
	}
	return c.sleep(ctx, d)
}

func (c *clock) Jitter(n int64) int64 {
	if c == nil || c.rnd == nil {
		return jitter(n)
	}
	return c.rnd(n)
}

// resumer reads a background response's stream. When the stream drops,
// stalls (the idle timeout) or closes before a terminal event, it reopens it
// with OpenAfter after the last sequence number delivered, waiting the
// client's backoff first and announcing each attempt through notify; a
// server that cannot resume is polled with Retrieve until the response ends,
// whose final object becomes one terminal event. A reopened stream must go
// on where the last one stopped: an event of another response, or one that
// goes back, ends the turn with a *resumeOrderError.
//
// Invariants:
//   - last is the highest sequence number delivered (-1 before any);
//   - after a reopen (resumed), an event whose sequence number is at or
//     below floor (the last one delivered before it) is the server's
//     repeat and is dropped while none above floor came (moved); once one
//     did, an event at or below last ends the turn;
//   - fails counts reopen attempts since a new sequence number was last
//     delivered and never passes MaxReconnects; resumes counts them all
//     and never passes MaxResumes;
//   - spent is the time without new events of the drops recovered since;
//     down says a drop is being recovered, since progressAt (the last new
//     event, or the start); spent plus the current drop's time never
//     passes ResumeBudget before a reconnect;
//   - nothing is reopened before an event with a sequence number was
//     delivered (a reattach starts from its saved one): without one, a
//     reopened stream could only repeat what was shown;
//   - once done, Next serves pending and then reports false; err is final.
type resumer struct {
	ctx     context.Context
	c       *Client
	secrets *Redactor
	notify  func(RetryInfo)
	clock   *clock

	body  io.ReadCloser
	d     *Decoder
	id    string
	last  int64
	floor int64
	ended bool // a terminal event was delivered
	// attach: the first reopen is a reattach (Reattach), made at once
	attach bool

	resumed, moved bool
	fails, resumes int
	down           bool
	progressAt     time.Time
	spent          time.Duration

	pending []Event
	ev      *Event
	done    bool
	err     error
}

// openBackground opens req (Background set) with c and returns the
// resumer that reads it. A server that refuses background mode gets req
// again without it, announced by a RetryInfo with Foreground set, and the
// plain body comes back.
func openBackground(ctx context.Context, c *Client, req Request, notify func(RetryInfo)) (io.ReadCloser, error) {
	body, err := c.Open(ctx, req)
	if err != nil && BackgroundRejected(err) {
		notify(RetryInfo{Attempt: 1, Max: 1, Err: err, Foreground: true})
		req.Background, req.Store = false, nil
		return c.Open(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	return newResumer(ctx, c, body, c.Secrets, notify), nil
}

// newResumer reads body, the stream of a background response, recovering
// drops as the resumer does. The caller closes it.
func newResumer(ctx context.Context, c *Client, body io.ReadCloser, secrets *Redactor, notify func(RetryInfo)) *resumer {
	r := &resumer{ctx: ctx, c: c, secrets: secrets, notify: notify, clock: c.clock, last: -1, floor: -1}
	r.progressAt = r.clock.Now()
	r.use(body)
	return r
}

func (r *resumer) use(body io.ReadCloser) {
	r.body = body
	r.d = NewDecoder(body)
	r.d.SetRedactor(r.secrets)
}

// Close closes the current body.
func (r *resumer) Close() error {
	if r.body == nil {
		return nil
	}
	return r.body.Close()
}

// Read is not for use: a resumer is an io.ReadCloser only so that an opener
// can hand it to a Handle's reader, which takes events from it with Next.
func (r *resumer) Read([]byte) (int, error) { return 0, errResumerRead }

var errResumerRead = errors.New("stream: a resumer is read with Next, not Read")

func (r *resumer) Event() *Event { return r.ev }
func (r *resumer) Err() error    { return r.err }

func (r *resumer) Next() bool {
	for {
		if len(r.pending) > 0 {
			ev := r.pending[0]
			r.pending = r.pending[1:]
			r.ev = &ev
			return true
		}
		if r.done {
			return false
		}
		if r.d.Next() {
			ev := r.d.Event()
			if r.resumed {
				if err := r.check(ev); err != nil {
					r.finish(err)
					continue
				}
				if ev.HasSeq && ev.Seq <= r.floor {
					continue // seen before the reopen
				}
			}
			if ev.HasSeq && ev.Seq > r.last {
				r.last = ev.Seq
				r.fails = 0 // progress: the next drop starts counting again
				r.moved = r.resumed
				r.progressed()
			}
			if ev.Response != nil && ev.Response.ID != "" {
				r.id = ev.Response.ID
			}
			if ev.Kind.IsTerminal() {
				r.ended = true
			}
			r.ev = ev
			return true
		}
		err := r.d.Err()
		if r.ctx.Err() != nil {
			r.finish(context.Cause(r.ctx))
			continue
		}
		if r.ended {
			r.finish(nil) // the response ended: a break after it loses nothing
			continue
		}
		if r.id == "" || (r.last < 0 && !r.attach) || !dropped(err) {
			// no id, or no sequence numbers to resume after without
			// repeating what was shown: a drop as in foreground mode
			r.finish(err)
			continue
		}
		r.reconnect(err)
	}
}

func (r *resumer) finish(err error) { r.done, r.err = true, err }

// check reports why ev, from a reopened stream, cannot continue the
// response: it belongs to another response, or it goes back to or below
// the last event delivered once the stream has moved past its start.
func (r *resumer) check(ev *Event) error {
	if ev.Response != nil && ev.Response.ID != "" && ev.Response.ID != r.id {
		return &resumeOrderError{id: r.id, other: ev.Response.ID}
	}
	if ev.HasSeq && r.moved && ev.Seq <= r.last {
		return &resumeOrderError{id: r.id, last: r.last, seq: ev.Seq}
	}
	return nil
}

// progressed records a new event: the drop being recovered, if any, is
// over, and its time without events is spent.
func (r *resumer) progressed() {
	now := r.clock.Now()
	if r.down {
		r.spent += now.Sub(r.progressAt)
		r.down = false
	}
	r.progressAt = now
}

// outage is the time without new events so far: the drops recovered and
// the current one.
func (r *resumer) outage() time.Duration {
	if !r.down {
		return r.spent
	}
	return r.spent + r.clock.Now().Sub(r.progressAt)
}

// dropped reports whether a stream that ended with err (nil: closed before
// the response ended) may be picked up again.
func dropped(err error) bool {
	if err == nil || errors.Is(err, ErrIdleTimeout) {
		return true
	}
	var broken *brokenStreamError
	var conn *connError
	return errors.As(err, &broken) || errors.As(err, &conn) || errors.Is(err, io.ErrUnexpectedEOF)
}

// errEndedEarly is the cause shown when a stream closed cleanly before its
// response ended.
var errEndedEarly = errors.New("the stream ended before the response did")

// dropError is how a drop is announced with the first reconnect: what
// happened, without the advice to try again that ends a turn.
type dropError struct{ err error }

func (e *dropError) Error() string {
	switch {
	case errors.Is(e.err, ErrIdleTimeout):
		return "the stream went quiet"
	case e.err == errEndedEarly:
		return e.err.Error()
	}
	return "the stream dropped"
}

func (e *dropError) Unwrap() error { return e.err }

// reopen opens the rest of the stream after r.last once. ended reports
// that the reconnect is over (resumed, polling, or finished); otherwise err
// is why this try failed and another may work.
func (r *resumer) reopen() (ended bool, err error) {
	r.resumes++
	body, err := r.c.OpenAfter(r.ctx, r.id, r.last)
	switch {
	case err == nil:
		r.use(body)
		r.floor, r.resumed, r.moved = r.last, true, false
	case r.ctx.Err() != nil:
		r.finish(context.Cause(r.ctx))
	case NotResumable(err):
		r.poll()
	case !retryable(err) && !errors.Is(err, ErrIdleTimeout):
		r.finish(err)
	default:
		return false, err
	}
	return true, nil
}

// reconnect reopens the stream after r.last, with backoff. When every
// attempt fails, the turn ends with the drop's own error.
func (r *resumer) reconnect(cause error) {
	r.Close()
	r.body = nil
	if cause == nil {
		cause = errEndedEarly
	}
	drop := cause // what ends the turn if no reopen works
	if !r.attach {
		cause = &dropError{err: cause}
	}
	r.down = true
	if r.attach {
		r.attach = false
		// finished meanwhile: its final object is the whole answer
		if raw, err := r.c.Retrieve(r.ctx, r.id); err == nil {
			if ev, ok, err := r.final(raw); err != nil || ok {
				if ok {
					r.pending = append(r.pending, ev)
					r.ended = true
				}
				r.finish(err)
				return
			}
		} else if !retryable(err) && r.ctx.Err() == nil {
			r.finish(err) // gone (expired, another project): the saved part stays
			return
		}
		ended, err := r.reopen()
		if ended {
			return
		}
		cause = err
	}
	base, maxDelay := orDefault(r.c.BaseDelay, defaultBaseDelay), orDefault(r.c.MaxDelay, defaultMaxDelay)
	for r.fails < MaxReconnects {
		wait := retryWait(cause, r.fails, base, maxDelay, r.clock.Jitter)
		if r.resumes >= MaxResumes || r.outage()+wait > ResumeBudget {
			r.finish(&resumeLimitError{id: r.id, resumes: r.resumes, outage: r.outage(), timeUp: r.resumes < MaxResumes, drop: drop})
			return
		}
		r.fails++
		r.notify(RetryInfo{Attempt: r.resumes + 1, Max: MaxResumes, Wait: wait, Err: cause, Resume: true})
		if err := r.clock.Sleep(r.ctx, wait); err != nil {
			r.finish(err)
			return
		}
		ended, err := r.reopen()
		if ended {
			return
		}
		cause = err
	}
	r.finish(drop)
}

// Reattach follows background response id from after its sequence number
// after (a client that was killed mid-stream, starting again). It fetches
// the response first: one that has ended comes back as its terminal event,
// the whole answer. One still running streams on from after (or, from a
// server that cannot resume streams, is polled until it ends). Drops are
// recovered as for Start.
func Reattach(ctx context.Context, c *Client, id string, after int64) *Handle {
	secrets := c.redactor(nil)
	cl := *c
	cl.Secrets = secrets
	return start(ctx, func(ctx context.Context, notify func(RetryInfo), _ func(ConversationStart)) (io.ReadCloser, error) {
		r := newResumer(ctx, &cl, io.NopCloser(strings.NewReader("")), secrets, notify)
		r.id, r.last, r.floor, r.attach = id, after, after, true
		return r, nil
	}, 0, secrets)
}
