package stream

import (
	"context"
	"io"
	"time"
)

// slowRate is the rate under which a stream is read a frame at a time: a
// model's deltas come at a few KB/s (200 deltas/s of 4 characters are
// about 30 KB/s of events); a stream that comes faster is a backlog the
// reader is behind on, and is read as fast as it comes.
const slowRate = 256 << 10 // bytes per second

// pacer is a stream body as the decoder reads it. While the server sends
// slowly, it reads again only when its consumer will take a batch: the
// notBefore of the consumer's NextBy. Meanwhile the deltas wait in the
// socket, and the next read takes them all at once, so a model streaming
// 200 small deltas a second wakes the reader about once a frame instead of
// once a delta (a wake costs far more than the delta).
//
// Nothing is shown later for it: the consumer takes nothing before
// notBefore anyway. A fast stream is never paused, and a consumer that
// asks with no notBefore (Next) is never paced.
//
// Where the socket can hold its bytes (lowWater: Linux 4.18 and later), a
// pause is a Read with the socket's low-water mark raised rather than a
// sleep: the kernel wakes nobody for the deltas that gather (a sleeping
// reader's socket still woke the runtime's network poller for each), and
// a burst past the mark, the end of an answer whose closing events each
// carry the whole text, is read as it comes instead of at the pause's end.
//
// It pays: in ../shared/bench's paced run (a 40 KB answer at 200 deltas/s
// through the real TUI), 7 runs alternating with a build without the pause
// cost 21.5 CPU-s against 29.5 without it (1.37×; the pairs 1.04–1.60×,
// median 1.39×, under a load of 6 to 19); on 2026-11-29 one pair read 2.35
// against 3.52. Holding the socket instead of sleeping: see README, Design,
// Frames.
//
// Invariants:
//   - at most one pause comes between two reads, and only after two reads
//     in a row whose bytes came at less than slowRate since the read
//     before (a fast stream's last bytes, a lull in it, are not paused);
//   - a pause is a sleep, or, where the stream's socket can hold its
//     bytes (lowWater), a Read with the socket's low-water mark raised,
//     which returns early only for a burst (the end of an answer);
//   - a pause ends at the consumer's notBefore, or within the quiet
//     of a consumer that asked with one (Handle.NextPaced: the first words
//     after a pause and the end are seen within a frame), or at once when
//     the stream is cancelled.
type pacer struct {
	r     io.Reader
	h     *Handle
	now   func() time.Time
	pause func(ctx context.Context, until time.Time) // see sleepUntil
	water *lowWater                                  // the socket's hold: pauses wait in Read instead (nil: they sleep)
	last  time.Time                                  // when the last read returned
	slow  int                                        // reads in a row whose bytes came at less than slowRate
}

func (p *pacer) Read(b []byte) (int, error) {
	held := false
	if p.slow >= 2 {
		if until := p.h.readBy(p.now()); !until.IsZero() {
			if held = p.water != nil && p.water.hold(until); !held {
				p.pause(p.h.ctx, until)
			}
		}
	}
	start := p.now()
	n, err := p.r.Read(b)
	now := p.now()
	if held {
		if lowered := p.water.release(); lowered.After(start) {
			start = lowered // what came before the pause's end waited for it, not for the server
		}
	}
	p.h.readWaited(now.Sub(start) >= waitedRead)
	switch {
	case p.last.IsZero() || err != nil:
	case float64(n) < slowRate*now.Sub(p.last).Seconds():
		p.slow++
	default:
		p.slow = 0
	}
	p.last = now
	return n, err
}

// waitedRead is how long a read must wait for its bytes for them to count
// as just come (Handle.readWaited): a read of bytes already waiting in the
// socket (after a pause of the reader's own) returns sooner.
const waitedRead = time.Millisecond

// sleepUntil waits until the time given or until ctx is done. It keeps one
// timer for the reader's life.
func sleepUntil() func(ctx context.Context, until time.Time) {
	var t *time.Timer
	return func(ctx context.Context, until time.Time) {
		d := time.Until(until)
		if d <= 0 {
			return
		}
		if t == nil {
			t = time.NewTimer(d)
		} else {
			t.Reset(d)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}
