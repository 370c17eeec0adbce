package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
)

// errStopped is the cause given to a stream the user interrupted.
var errStopped = errors.New("stopped by user")

// frameInterval paces re-rendering while anything is live: 30 frames a
// second is smooth for text and halves the per-frame cost of 60.
const frameInterval = time.Second / 30

// streamInterval paces the frames a streaming answer draws: its batches
// come at most this often (stream.Handle.NextBy), each drawn when it comes.
// 10 frames a second is about 80 characters a frame, a line, at a model's
// reading pace (200 deltas/s of 4 bytes). In ../shared/bench a paced 40 KB
// answer cost 3.0 CPU-s at 20 frames a second and 1.8 at 10: each frame
// re-renders the tail and Bubble Tea diffs the whole screen. The first
// delta, the end of a stream, a retry and a full batch are not held back.
const streamInterval = time.Second / 10

// burstDraw is how often a stream faster than the frames is drawn: a
// batch of a burst (a full one, stream.Batch.More, and the one after it) is
// drawn when the last draw is this old, else on the next frame. Bubble Tea
// writes the screen 60 times a second, so a draw between two of its frames
// is never seen; drawn every 8 ms a 40 KB answer at full speed took as many
// draws as time allowed, each rendering the tail again.
const burstDraw = 16 * time.Millisecond

// draftFor is how long after a full batch (a stream outrunning the frames)
// live messages are drawn as drafts, their new code blocks uncoloured
// (markdown.Stream.Draft): highlighting is most of a frame's cost, so the
// end of a fast answer shows sooner, and the View after FinalRender's
// answer (block.Finisher) colours it a frame later. A paced stream is
// never full.
const draftFor = 100 * time.Millisecond

// batchMsg carries one batch of a turn's stream.
type batchMsg struct {
	gen   int
	batch stream.Batch
}

// frameMsg is the frame tick: changed entries are re-rendered on it. seq
// names the scheduled tick (Model.tickSeq); a tick that was superseded by a
// sooner one is ignored. 0 is a tick no schedule knows of (tests).
type frameMsg struct {
	gen int
	seq int
	now time.Time
}

// turn is the exchange in flight.
//
// Invariants:
//   - gen identifies the turn; messages from an older turn are ignored.
//   - every event of the turn's stream is applied to acc in order.
//   - changed holds the items changed since the last frame.
//   - waiting is true while a waitBatch for the turn is outstanding; at
//     most one is. A batch is drawn when it comes (Model.batch) and the
//     next is asked for then, not before streamInterval has passed, so a
//     turn takes at most one batch per frame and its stream wakes the UI
//     at most once per frame; while it flows no frame timer runs.
//   - drawn is when the last batch was drawn: a spinner frame within
//     spinnerStep of it is not needed.
type turn struct {
	gen     int
	sess    *session.Turn
	handle  *stream.Handle
	acc     stream.Accumulator
	started time.Time
	stopped bool                  // the user interrupted it
	waiting bool                  // a waitBatch is outstanding
	ended   bool                  // the final batch arrived
	err     error                 // why the stream ended, when it did badly
	changed map[*stream.Item]bool // items to re-render on the next frame
	log     *session.TurnLog      // the turn's record in the history, nil without one
	req     stream.Request        // the request as sent (tools resolved)
	retry   *plainEntry           // the retry notice counting down, nil when none is
	effort  string                // the reasoning effort the server reports, once found
	bgID    string                // background mode: the response id, once known
	bgSeq   int64                 // background mode: the last sequence number applied
	reconn  bool                  // the retry notice showing is a reconnect or a poll
	polling bool                  // … a poll
	attach  bool                  // picks up a stored turn (reattach)
	drawn   time.Time             // when the last batch was drawn (real time)
	delta   bool                  // a delta has come: later batches wait for the frame
	burst   bool                  // the last batch was full (stream.Batch.More)
	fullAt  time.Time             // when the last full batch came (real time)
}

// waitBatch receives the next batch of h, not before notBefore unless it
// ends the stream (see stream.Handle.NextBy).
func waitBatch(gen int, h *stream.Handle, notBefore time.Time) tea.Cmd {
	return func() tea.Msg {
		b, ok := h.NextBy(notBefore)
		if !ok {
			return batchMsg{gen: gen, batch: stream.Batch{Final: true}}
		}
		return batchMsg{gen: gen, batch: b}
	}
}

// due is when the turn takes its next batch, asked at now: a frame later,
// except that the first delta is drawn when it comes, and that in a burst
// (the last batch was full) the rest is taken at once: a stream's reader
// waits for that time (stream's pacer), and the end of a fast stream must
// not.
func (t *turn) due(now time.Time) time.Time {
	if !t.delta || t.burst {
		return time.Time{}
	}
	return now.Add(streamInterval)
}

// stallCheck is how soon the slow frame looks again when a batch drew the
// spinner since the last one: a stream that flows draws it 10 times a
// second, so its slow frame wakes the chat 3 times a second, not 10.
const stallCheck = 3 * spinnerStep

// frameTick schedules frame seq in d (a variable: tests read d).
var frameTick = func(gen, seq int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(t time.Time) tea.Msg { return frameMsg{gen: gen, seq: seq, now: t} })
}

// startTurn begins streaming a request; limit bounds each response's text
// (Accumulator.Limit).
func startTurn(ctx context.Context, gen int, c *stream.Client, st *session.Turn, req stream.Request, now time.Time, limit int) (*turn, tea.Cmd) {
	h := stream.Start(ctx, c, req)
	t := &turn{gen: gen, sess: st, handle: h, started: now, changed: map[*stream.Item]bool{}, req: req, waiting: true, bgSeq: -1}
	t.acc.Limit = limit
	return t, waitBatch(gen, h, time.Time{})
}

// startReplay plays a recording as if it were a turn.
func startReplay(ctx context.Context, gen int, h *stream.Handle, now time.Time, limit int) (*turn, tea.Cmd) {
	t := &turn{gen: gen, sess: &session.Turn{}, handle: h, started: now, changed: map[*stream.Item]bool{}, waiting: true}
	t.acc.Limit = limit
	return t, waitBatch(gen, h, time.Time{})
}

// apply folds a batch in and returns the problems it reported (malformed
// events, skipped). After the user stopped the turn nothing more is applied:
// what was on screen when esc was pressed is what stays. A response that
// reaches the limit stops the stream (the rest is ignored).
func (t *turn) apply(b stream.Batch) (problems []error) {
	for i := range b.Events {
		if t.stopped {
			break
		}
		ev := &b.Events[i]
		if r := ev.Response; r != nil && t.effort == "" && len(r.Raw) <= 64<<10 {
			// response.created's small object names the effort applied; big
			// terminal objects are not decoded again for it
			t.effort = reportedEffort(r.Raw)
		}
		t.noteBackground(ev)
		it, err := t.acc.Apply(ev)
		if errors.Is(err, stream.ErrLimit) {
			t.handle.Cancel(err)
			err = nil
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if ev.Note != "" { // read leniently: applied, and said once
			problems = append(problems, errors.New(ev.Note))
		}
		if it != nil {
			t.changed[it] = true
		}
		if ev.Kind.IsTerminal() || ev.Kind == stream.KindItemAdded || ev.Kind == stream.KindItemDone {
			// terminal merges can add items no event named
			for _, s := range t.acc.Responses() {
				for _, x := range s.Items {
					t.changed[x] = true
				}
			}
		}
	}
	if b.Final {
		t.ended, t.err = true, b.Err
		if le := t.acc.LimitErr(); le != nil {
			t.err = le // the cause, even if the stream happened to end by itself
		}
		t.acc.Finish()
		t.endReattach()
	}
	return problems
}

// snapshots returns the turn's responses so far.
func (t *turn) snapshots() []*stream.Snapshot { return t.acc.Responses() }

// usage sums the turn's token usage.
func (t *turn) usage() Usage {
	var u Usage
	for _, s := range t.acc.Responses() {
		u = u.Add(usageOf(s.Usage))
	}
	return u
}

func usageOf(u *stream.Usage) Usage {
	if u == nil {
		return Usage{}
	}
	x := Usage{Input: u.InputTokens, Output: u.OutputTokens}
	if u.OutputDetails != nil {
		x.Reasoning = u.OutputDetails.ReasoningTokens
	}
	return x
}
