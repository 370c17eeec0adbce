package stream

// This file resumes the stream of a background response (Request.Background)
// that dropped or stalled before the response ended.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// eventSource is what a Handle's reader pulls events from: a Decoder, or a
// resumer around one (which an opener returns in place of the body).
type eventSource interface {
	Next() bool
	Event() *Event
	Err() error
}

// Bounds on recovering one background response.
const (
	// MaxReconnects is how many times in a row a dropped background stream
	// is reopened before the turn ends with the drop's error.
	MaxReconnects = 5
	// MaxPolls is how many times a response is fetched, with backoff, from
	// a server that cannot resume streams, before giving up.
	MaxPolls = 40
)

// resumer reads a background response's stream. When the stream drops,
// stalls (the idle timeout) or closes before a terminal event, it reopens it
// with OpenAfter after the last sequence number delivered, waiting the
// client's backoff first and announcing each attempt through notify; a
// server that cannot resume is polled with Retrieve until the response ends,
// whose final object becomes one terminal event.
//
// Invariants:
//   - last is the highest sequence number delivered (-1 before any);
//   - after a reopen, an event whose sequence number is at or below floor
//     (the last one delivered before it) is a duplicate and is dropped;
//   - fails counts reopen attempts since a new sequence number was last
//     delivered and never passes MaxReconnects;
//   - nothing is reopened before an event with a sequence number was
//     delivered (a reattach starts from its saved one): without one, a
//     reopened stream could only repeat what was shown;
//   - once done, Next serves pending and then reports false; err is final.
type resumer struct {
	ctx     context.Context
	c       *Client
	secrets *Redactor
	notify  func(RetryInfo)

	body  io.ReadCloser
	d     *Decoder
	id    string
	last  int64
	floor int64
	ended bool // a terminal event was delivered
	fails int
	// attach: the first reopen is a reattach (Reattach), made at once
	attach bool

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
	r := &resumer{ctx: ctx, c: c, secrets: secrets, notify: notify, last: -1, floor: -1}
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
			if ev.HasSeq && ev.Seq <= r.floor {
				continue // seen before the reopen
			}
			if ev.HasSeq && ev.Seq > r.last {
				r.last = ev.Seq
				r.fails = 0 // progress: the next drop starts counting again
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
	body, err := r.c.OpenAfter(r.ctx, r.id, r.last)
	switch {
	case err == nil:
		r.use(body)
		r.floor = r.last
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
	if r.attach {
		r.attach = false
		// finished meanwhile: its final object is the whole answer
		if raw, err := r.c.Retrieve(r.ctx, r.id); err == nil {
			if ev, ok := terminalEvent(raw, r.secrets); ok {
				r.pending = append(r.pending, ev)
				r.ended = true
				r.finish(nil)
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
		r.fails++
		wait := retryWait(cause, r.fails-1, base, maxDelay, jitter)
		r.notify(RetryInfo{Attempt: r.fails, Max: MaxReconnects, Wait: wait, Err: cause, Resume: true})
		if err := sleepCtx(r.ctx, wait); err != nil {
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

// errStillRunning is the reason a poll waits.
var errStillRunning = errors.New("the server cannot resume the stream; the response is still running")

// poll fetches the response until it ends, with backoff, at most MaxPolls
// times; its final object is queued as one terminal event.
func (r *resumer) poll() {
	base, maxDelay := orDefault(r.c.BaseDelay, defaultBaseDelay), orDefault(r.c.MaxDelay, defaultMaxDelay)
	var cause error = errStillRunning
	for i := range MaxPolls {
		raw, err := r.c.Retrieve(r.ctx, r.id)
		switch {
		case r.ctx.Err() != nil:
			r.finish(context.Cause(r.ctx))
			return
		case err == nil:
			if ev, ok := terminalEvent(raw, r.secrets); ok {
				r.pending = append(r.pending, ev)
				r.ended = true
				r.finish(nil)
				return
			}
			cause = errStillRunning
		case !retryable(err):
			r.finish(err)
			return
		default:
			cause = err
		}
		if i == MaxPolls-1 {
			break
		}
		wait := retryWait(cause, i, base, maxDelay, jitter)
		r.notify(RetryInfo{Attempt: i + 1, Max: MaxPolls, Wait: wait, Err: cause, Poll: true})
		if err := sleepCtx(r.ctx, wait); err != nil {
			r.finish(err)
			return
		}
	}
	r.finish(fmt.Errorf("response %s did not finish after %d checks, so the reply is incomplete — continue it with runnel -c later", SanitizeLine(r.id), MaxPolls))
}

// terminalEvent turns a fetched response object that has ended into the
// terminal event that would have carried it; ok is false while it runs.
func terminalEvent(raw json.RawMessage, secrets *Redactor) (Event, bool) {
	var head struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return Event{}, false
	}
	typ := ""
	switch head.Status {
	case "completed":
		typ = "response.completed"
	case "incomplete":
		typ = "response.incomplete"
	case "failed", "cancelled":
		typ = "response.failed"
	default:
		return Event{}, false
	}
	var b strings.Builder
	b.WriteString("event: " + typ + "\ndata: {\"type\":\"" + typ + "\",\"response\":")
	b.Write(compactJSON(raw))
	b.WriteString("}\n\n")
	d := NewDecoder(strings.NewReader(b.String()))
	d.SetRedactor(secrets)
	if !d.Next() {
		return Event{}, false
	}
	return *d.Event(), true
}

// compactJSON puts a JSON value on one line (an SSE data line cannot hold
// a newline); raw is valid JSON (Retrieve checked it).
func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return bytes.ReplaceAll(raw, []byte("\n"), []byte(" "))
	}
	return buf.Bytes()
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
	return start(ctx, func(ctx context.Context, notify func(RetryInfo)) (io.ReadCloser, error) {
		r := newResumer(ctx, &cl, io.NopCloser(strings.NewReader("")), secrets, notify)
		r.id, r.last, r.floor, r.attach = id, after, after, true
		return r, nil
	}, 0, secrets)
}
