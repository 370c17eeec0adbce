package ui

// This file is the turns child's side of the turn in flight while it
// streams: it folds each batch in (turns.fold) and draws it on a frame
// (turns.frame), and hands the root only the facts to route, to the
// transcript and the status line (Model.batch, Model.tick). The end of
// the turn is turnend.go's (turns.end).

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/pace"
)

// folded is what a batch of the turn in flight brought, for the root to
// route (Model.batch).
type folded struct {
	skip     bool               // nothing to show: an older turn's batch, or the turn went again (next sends it)
	now      time.Time          // when it was folded in, on the frame clock
	next     tea.Cmd            // the pacer's Cmds: the next batch, a frame tick
	draw     pace.Draw          // what the pacer draws now (pace.NoDraw: wait for the frame)
	problems []error            // malformed events, skipped (turn.apply)
	retrying bool               // the stream retries: the frame clock is moved to now, its countdown measured from it
	retry    *plainEntry        // the retry's countdown, a new line for the transcript; nil when one shows already
	snaps    []*stream.Snapshot // the turn's responses so far
	current  *stream.Snapshot   // the response streaming, for the status line
	effort   string             // the reasoning effort the server reports
	usage    Usage              // the turn's token usage so far
	ended    bool               // the final batch came: the turn ends (turns.end)
}

// fold folds a stream batch into the turn in flight, now: the
// conversation hears of a server-side conversation started, the turn
// engine of a chain the server ignored (the turn goes again, created) and
// of the stream, a retry's countdown settles or goes on, and the pacer
// says whether the batch is drawn now and when the next is taken.
func (ts *turns) fold(msg batchMsg) folded {
	t := ts.cur
	if t == nil || msg.gen != t.gen {
		return folded{skip: true}
	}
	now := ts.fs.clock()
	if cs := msg.batch.Conversation; cs != nil {
		ts.conversationStarted(*cs) // conversations mode (serverconv.go)
	}
	echoedBefore, itemsBefore := echoState(t)
	problems := t.apply(msg.batch)
	if cmd := ts.created(t, echoedBefore, itemsBefore); cmd != nil {
		return folded{skip: true, next: cmd} // the server ignored the chain: sent again with the history (turns.go)
	}
	facts := batchFacts(msg.batch, t)
	if t.log != nil && (facts.Closing || facts.Ended) {
		// the end of a text, an item or the turn is drawn now: the store's
		// writes wait until Bubble Tea has written that frame (one
		// processor: a write that started first would hold the frame)
		t.log.Defer(ts.endHold)
	}
	pl, next := ts.plan(facts, now)
	f := folded{now: now, next: next, draw: pl.Draw, problems: problems}
	if len(msg.batch.Events) > 0 {
		t.settleRetry("the retry worked", ts.fs)
	}
	if r := msg.batch.Retry; r != nil && r.Foreground {
		ts.foreground(t, r)
	} else if r != nil {
		f.retrying = true
		f.retry = t.retrying(r, now, ts.fs) // nil: the retry before failed too, its line goes on
	}
	if len(msg.batch.Events) > 0 {
		ts.next(session.Event{Kind: session.Streamed}) // the status line shows it (statusBar.sync)
	}
	f.snaps, f.current, f.effort, f.usage, f.ended = t.snapshots(), t.acc.Current(), t.effort, t.usage(), t.ended
	return f
}

// endHold is how long the store's writes wait after a batch that closes a
// text, an item or the turn: its frame, drawn at once, Bubble Tea's next
// renderer tick (1/60 s), which writes it to the terminal, and the closing
// batches after it, which come one at a time when each carries the whole
// text. A frame's worth (33 ms) was too short for a long answer: its
// closing events took longer than that to decode and draw, and the store's
// writes came in between (a 400 KB answer at full speed, status line's
// ready after the mock's last byte, load 0.6-0.8, 4 runs each: main
// 156-200 ms, 33 ms 100-180, 100 ms 77-196, medians 186, 153, 118).
// Its own figure: it is not the pacer's drawing interval, though equal.
const endHold = 100 * time.Millisecond

// batchFacts is what the pacer is told of batch b, folded into turn t.
func batchFacts(b stream.Batch, t *turn) pace.Facts {
	facts := pace.Facts{Cause: pace.Batch, Full: b.More, Fresh: b.Fresh, Ended: t.ended, Stopped: t.stopped}
	for i := range b.Events {
		k := b.Events[i].Kind
		facts.Delta = facts.Delta || b.Events[i].Delta != ""
		// the batch ends a text, an item or the response: its end is complete
		facts.Closing = facts.Closing || k == stream.KindTextDone || k == stream.KindItemDone || k.IsTerminal()
	}
	return facts
}

// frame is the turn in flight's side of a frame at now: its record in
// the history notes what changed (and where a background stream is),
// refresh is called with each item changed since the last frame, and
// those are forgotten. It returns the index of the retry countdown's
// entry, which redraws on every frame (ok false: none shows, or no turn
// is in flight).
func (ts *turns) frame(now time.Time, refresh func(*stream.Item)) (countdown int, ok bool) {
	t := ts.cur
	if t == nil {
		return 0, false
	}
	if t.log != nil {
		if t.bg.id != "" {
			t.log.Background(t.bg.id, t.bg.seq)
		}
		t.log.Note(now, t.snapshots(), func(it *stream.Item) bool { return t.changed[it] })
	}
	t.flushChanged(refresh)
	if e := t.retry.entry; e != nil {
		return e.idx, true
	}
	return 0, false
}
