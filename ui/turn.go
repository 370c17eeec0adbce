package ui

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/pace"
)

// errStopped is the cause given to a stream the user interrupted.
var errStopped = errors.New("stopped by user")

// batchMsg carries one batch of a turn's stream.
type batchMsg struct {
	gen   int
	batch stream.Batch
}

// frameMsg is the frame tick: changed entries are re-rendered on it. seq
// names the scheduled tick (pace.Tick.Seq); a tick that was superseded by a
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
//   - at most one waitBatch for the turn is outstanding: the pacer
//     (turns.pacer, ui/pace) asks for each batch once the last is folded
//     in, so the stream wakes the UI at most once per frame.
type turn struct {
	gen     int
	sess    *session.Turn
	handle  *stream.Handle
	acc     stream.Accumulator
	started time.Time
	stopped bool                  // the user interrupted it
	ended   bool                  // the final batch arrived
	err     error                 // why the stream ended, when it did badly
	changed map[*stream.Item]bool // items to re-render on the next frame
	log     *session.TurnLog      // the turn's record in the history, nil without one
	req     stream.Request        // the request as sent (tools resolved)
	retry   retryNote             // the retry notice counting down, if one is
	effort  string                // the reasoning effort the server reports, once found
	bg      bgState               // background mode: where the stream is, to pick it up again
}

// retryNote is the retry notice of a turn. Invariant: reconn and polling
// describe entry, and are false while entry is nil.
type retryNote struct {
	entry   *plainEntry // the notice counting down, nil when none is
	reconn  bool        // it is a reconnect or a poll
	polling bool        // … a poll
}

// bgState is a background turn's place in its stream.
type bgState struct {
	id     string // the response id, once known
	seq    int64  // the last sequence number applied
	attach bool   // the turn picks up a stored one (reattach)
}

// waitBatch receives the next batch of h, holding what comes for up to
// hold unless it ends something or begins a flow after a pace.Pause (see
// stream.Handle.NextPaced).
func waitBatch(gen int, h *stream.Handle, hold time.Duration) tea.Cmd {
	return func() tea.Msg {
		b, ok := h.NextPaced(hold, pace.Pause)
		if !ok {
			return batchMsg{gen: gen, batch: stream.Batch{Final: true}}
		}
		return batchMsg{gen: gen, batch: b}
	}
}

// frameTick schedules frame seq in d (frameState.tick replaces it in tests).
func frameTick(gen, seq int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(t time.Time) tea.Msg { return frameMsg{gen: gen, seq: seq, now: t} })
}

// startTurn begins streaming a request, recorded in log (nil: none); limit
// bounds each response's text (Accumulator.Limit).
func startTurn(ctx context.Context, gen int, c *stream.Client, st *session.Turn, req stream.Request, now time.Time, limit int, log *session.TurnLog) *turn {
	t := &turn{gen: gen, sess: st, handle: stream.Start(ctx, c, req), started: now, changed: map[*stream.Item]bool{}, req: req, bg: bgState{seq: -1}, log: log}
	t.acc.Limit = limit
	return t
}

// startReplay plays a recording as if it were a turn.
func startReplay(h *stream.Handle, gen int, now time.Time, limit int) *turn {
	t := &turn{gen: gen, sess: &session.Turn{}, handle: h, started: now, changed: map[*stream.Item]bool{}}
	t.acc.Limit = limit
	return t
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

// flushChanged calls f for each item changed since the last frame, and
// forgets them.
func (t *turn) flushChanged(f func(*stream.Item)) {
	for it := range t.changed {
		f(it)
	}
	clear(t.changed)
}

// usage sums the turn's token usage; once it has ended, a response whose
// usage never came counts as Unknown (while it streams, it is yet to come).
func (t *turn) usage() Usage {
	var u Usage
	for _, s := range t.acc.Responses() {
		if !t.ended && usageUnknown(s) {
			continue
		}
		u = u.Add(usageOf(s))
	}
	return u
}

// usageOf is a response's usage; Unknown when it never came.
func usageOf(s *stream.Snapshot) Usage {
	if usageUnknown(s) {
		return Usage{Unknown: 1}
	}
	u := s.Usage
	if u == nil {
		return Usage{}
	}
	x := Usage{Input: u.InputTokens, Output: u.OutputTokens}
	if u.OutputDetails != nil {
		x.Reasoning = u.OutputDetails.ReasoningTokens
	}
	return x
}

// reportedEffort is the reasoning effort a response object reports, "" when
// it reports none.
func reportedEffort(raw json.RawMessage) string {
	var r struct {
		Reasoning *struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Reasoning == nil {
		return ""
	}
	return stream.SanitizeLine(r.Reasoning.Effort)
}
