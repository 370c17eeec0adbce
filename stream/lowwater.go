package stream

import (
	"crypto/tls"
	"net"
	"net/http/httptrace"
	"sync"
	"time"
)

// lowWaterMark is how many bytes must wait in a paced stream's socket
// before the kernel wakes its reader during a pause (SO_RCVLOWAT). A
// model's deltas at 200 a second bring about 1.5 KB a pause of a frame,
// under it: they wait for the pause's end, as they did when the reader
// slept. The end of an answer brings four events that each carry the whole
// text again, over it for any text past a few hundred bytes: it wakes the
// reader at once, so the end is read as it comes instead of at the pause's
// end. A stream faster than a few thousand bytes a frame wakes it at the
// mark, still far fewer times than once a delta.
const lowWaterMark = 4 << 10

// lowWater holds a paced stream's socket quiet while its reader pauses
// (pacer): the reader waits in its Read, with the socket's receive low-water
// mark raised, instead of sleeping with the socket open to every segment.
// Sleeping, every delta that came woke the runtime's network poller (a
// thread woken for nothing) and the end waited for the sleep to end; held,
// the kernel wakes nobody until lowWaterMark bytes wait or the pause ends,
// when a timer drops the mark back to one byte and whatever came is read.
//
// It works where the kernel signals a lowered mark at once (Linux 4.18 and
// later: tcp_set_rcvlowat calls tcp_data_ready); elsewhere the pacer
// sleeps as before (socketMark returns nil).
//
// Invariants (under mu):
//   - raised is true only between hold and release, that is while the
//     reader is inside one paced Read: outside it, and once the stream is
//     closed, the mark is one byte, so a connection reused by another
//     request reads as any other;
//   - lowered is when the timer dropped the mark during the current hold
//     (zero: it did not): bytes read after it were held by the pause, not
//     by the server.
type lowWater struct {
	set   func(n int) error                           // sets the socket's mark
	after func(d time.Duration, f func()) func() bool // runs f after d; returns its Stop
	now   func() time.Time

	mu      sync.Mutex
	raised  bool
	broken  bool // setting the mark failed once: the pacer sleeps instead
	lowered time.Time
	stop    func() bool // the pending timer's Stop
}

// hold raises the mark until the pause ends at until, and reports whether
// it did; the reader then reads (and must call release after).
func (w *lowWater) hold(until time.Time) bool {
	d := until.Sub(w.now())
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken || d <= 0 {
		return false
	}
	if err := w.set(lowWaterMark); err != nil {
		w.broken = true
		return false
	}
	w.raised, w.lowered = true, time.Time{}
	w.stop = w.after(d, w.drop)
	return true
}

// drop is the pause's end: the mark falls to one byte, which wakes the
// reader if anything waits.
func (w *lowWater) drop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.raised {
		return
	}
	w.lower()
	w.lowered = w.now()
}

// release ends a hold once the reader's Read returned, and says when the
// pause's end lowered the mark during it (zero: it did not).
func (w *lowWater) release() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
	if w.raised {
		w.lower()
	}
	return w.lowered
}

// lower sets the mark back to one byte (under mu). A failure leaves the
// hold broken for later pauses; the socket may then keep a raised mark,
// which only delays its reads to the next lowWaterMark bytes, the stream's
// end or the idle timeout, none of them lost.
func (w *lowWater) lower() {
	if err := w.set(1); err != nil {
		w.broken = true
	}
	w.raised = false
}

// connTrace notes the connection a request is sent on, for its stream's
// lowWater (nil where the platform has none).
func connTrace(w **lowWater) *httptrace.ClientTrace {
	return &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		c := i.Conn
		if t, ok := c.(*tls.Conn); ok {
			c = t.NetConn()
		}
		tc, ok := c.(*net.TCPConn)
		if !ok {
			return
		}
		rc, err := tc.SyscallConn()
		if err != nil {
			return
		}
		if set := socketMark(rc); set != nil {
			*w = &lowWater{set: set, after: afterFunc, now: time.Now}
		}
	}}
}

// afterFunc runs f after d, returning what stops it.
func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
