package httppolicy

// This file bounds a response body: its size (a whole body, or each event
// of an event stream) and the gaps between its bytes.

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// ErrBodyLimit is what every *BodyLimitError matches with errors.Is.
var ErrBodyLimit = errors.New("response body too large")

// BodyLimitError is a body (or one event of an event stream) that passed
// its client's bound: reading stopped there.
type BodyLimitError struct {
	Host  string
	Limit int64
	Event bool // one event of an event stream
}

func (e *BodyLimitError) Error() string {
	what := "its answer"
	if e.Event {
		what = "one event of its stream"
	}
	return fmt.Sprintf("the server at %s sent more than %s in %s, the most runnel reads, so reading stopped — check that the address points at the right server",
		e.Host, FormatBytes(e.Limit), what)
}

// Is makes errors.Is(err, ErrBodyLimit) true.
func (e *BodyLimitError) Is(target error) bool { return target == ErrBodyLimit }

// IdleError is a body whose server went silent for longer than its
// client's idle bound: the body was closed.
type IdleError struct {
	Host string
	Wait time.Duration
}

func (e *IdleError) Error() string {
	return fmt.Sprintf("the server at %s sent nothing for %s, so runnel stopped waiting — try again, or check the server", e.Host, e.Wait)
}

// Timeout makes an IdleError a net.Error-like timeout.
func (e *IdleError) Timeout() bool { return true }

// body is a bounded response body.
//
// Invariants: n counts the bytes of the whole body (event false) or of the
// current event (event true), and never passes limit without err being
// set; once err is set every Read returns it.
type body struct {
	rc    io.ReadCloser
	host  string
	limit int64 // <0: none
	event bool
	// refused is told the *BodyLimitError when the body passes limit
	refused func(error)
	n       int64
	nl      int // event: 1 after "\n", 2 after "\n\r"; a "\n" then ends the event
	err     error

	idle  time.Duration
	timer *time.Timer
	fired atomic.Bool
}

// arm starts the idle bound: a silence of d closes the body.
func (b *body) arm(d time.Duration) {
	b.idle = d
	b.timer = time.AfterFunc(d, func() {
		b.fired.Store(true)
		_ = b.rc.Close()
	})
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	if b.timer != nil {
		if b.fired.Load() {
			b.err = &IdleError{Host: b.host, Wait: b.idle}
			return 0, b.err
		}
		if n > 0 {
			b.timer.Reset(b.idle)
		}
	}
	if b.limit >= 0 {
		if cut, over := b.count(p[:n]); over {
			b.err = &BodyLimitError{Host: b.host, Limit: b.limit, Event: b.event}
			b.refused(b.err)
			if cut == 0 {
				return 0, b.err
			}
			return cut, nil // what fits first; the next Read says why it stops
		}
	}
	return n, err
}

// count adds p to the count; over when it passes the limit, with how many
// bytes of p fit.
func (b *body) count(p []byte) (cut int, over bool) {
	if !b.event {
		if b.n+int64(len(p)) > b.limit {
			return int(b.limit - b.n), true
		}
		b.n += int64(len(p))
		return 0, false
	}
	for i, c := range p {
		switch {
		case c == '\n' && b.nl > 0:
			b.n, b.nl = 0, 0 // a blank line: the event ended
			continue
		case c == '\n':
			b.nl = 1
		case c == '\r' && b.nl == 1:
			b.nl = 2
		default:
			b.nl = 0
		}
		b.n++
		if b.n > b.limit {
			return i, true
		}
	}
	return 0, false
}

func (b *body) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	return b.rc.Close()
}

// FormatBytes writes n bytes for people: "512 bytes", "64 KiB", "32 MiB",
// "1.5 GiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
