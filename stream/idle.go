package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrIdleTimeout is wrapped by the error a stream read returns when the
// server sent nothing for the client's IdleTimeout. Test with errors.Is.
var ErrIdleTimeout = errors.New("stream idle timeout")

// newIdleError is the one-line error for a stream that went quiet.
func newIdleError(host string, d time.Duration) error {
	return fmt.Errorf("%w: no data from %s for %s, so the connection was closed — set timeouts.idle in config to wait longer",
		ErrIdleTimeout, host, d)
}

// idleReader is a response body that fails when no bytes arrive for timeout,
// and that reports the caller's cancellation as the caller's error.
//
// Invariants:
//   - timer is armed from the moment the request is sent and reset after
//     every read that returns bytes; it is stopped when the body ends (any
//     error, EOF included) and by Close;
//   - when timer fires it cancels ctx with the idle error as cause; the
//     transport then closes the connection, which unblocks a pending Read;
//   - after a failed Read, the error reported is ctx's cause when ctx was
//     cancelled (the idle error, or the caller's context error), never the
//     transport's "use of closed connection" that the cancel produced;
//   - pending holds bytes read before the reader was handed out (Open reads
//     the first bytes itself to know whether a retry is still allowed) and is
//     served before body is read again;
//   - err is sticky: once set, every later Read returns it.
//
// Concurrency: Read must not be called concurrently with itself; Close may be
// called from another goroutine at any time.
type idleReader struct {
	body    io.ReadCloser
	ctx     context.Context         // the attempt's context; cancelled on idle, Close, or by the caller's ctx
	cancel  context.CancelCauseFunc // cancels ctx
	timer   *time.Timer             // fires cancel(idle error)
	timeout time.Duration
	host    string // for error messages
	pending []byte
	started bool // some byte has been returned by body
	err     error
	water   *lowWater // the connection's socket, held during a pacer's pauses (nil: none)
}

// lowWater is the stream's socket hold, for its pacer (nil: none).
func (r *idleReader) lowWater() *lowWater { return r.water }

// armIdle creates the attempt's context and starts its idle timer. The
// caller must eventually call stop (directly, or through idleReader.Close).
func armIdle(parent context.Context, timeout time.Duration, host string) (ctx context.Context, cancel context.CancelCauseFunc, timer *time.Timer) {
	ctx, cancel = context.WithCancelCause(parent)
	idleErr := newIdleError(host, timeout)
	timer = time.AfterFunc(timeout, func() { cancel(idleErr) })
	return ctx, cancel, timer
}

func (r *idleReader) Read(p []byte) (int, error) {
	if len(r.pending) > 0 {
		n := copy(p, r.pending)
		r.pending = r.pending[n:]
		return n, nil
	}
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.body.Read(p)
	if n > 0 {
		r.started = true
		r.timer.Reset(r.timeout)
	}
	if err != nil {
		r.timer.Stop()
		if err != io.EOF {
			if cause := context.Cause(r.ctx); cause != nil {
				err = cause
			} else {
				err = &brokenStreamError{host: r.host, err: err, started: r.started}
			}
		}
		r.err = err
	}
	return n, err
}

// Close stops the timer, closes the body and releases the attempt's context.
func (r *idleReader) Close() error {
	r.timer.Stop()
	err := r.body.Close()
	r.cancel(nil)
	return err
}

// prime reads until the body yields its first bytes, which it keeps in
// pending. An error means the body failed before any byte: the only point
// at which a 2xx stream may still be retried.
func (r *idleReader) prime() error {
	buf := make([]byte, 32<<10)
	for range 100 {
		n, err := r.Read(buf)
		if n > 0 {
			r.pending = buf[:n] // a sticky err, if any, follows the bytes
			return nil
		}
		if err == io.EOF {
			return &brokenStreamError{host: r.host, err: err}
		}
		if err != nil {
			return err
		}
	}
	return &brokenStreamError{host: r.host, err: io.ErrNoProgress}
}

// brokenStreamError is a 2xx stream that failed: before its first byte (the
// server accepted the request but sent nothing; retryable) or after (the
// reply is cut short; never retried, since part of it was already shown).
type brokenStreamError struct {
	host    string
	err     error
	started bool
}

func (e *brokenStreamError) Error() string {
	if e.err == io.EOF {
		return e.host + " accepted the request but sent an empty stream — try again, or check base_url"
	}
	if !e.started {
		return fmt.Sprintf("%s accepted the request but the stream failed before any data (%s) — try again",
			e.host, SanitizeLine(e.err.Error()))
	}
	return fmt.Sprintf("stream from %s broke off (%s), so the reply is incomplete — try again",
		e.host, SanitizeLine(e.err.Error()))
}

func (e *brokenStreamError) Unwrap() error { return e.err }

// Retryable reports whether the failure came before the first byte.
func (e *brokenStreamError) Retryable() bool { return !e.started }
