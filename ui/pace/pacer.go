package pace

import "time"

// FrameInterval is how soon a frame comes when something must be drawn: 30
// frames a second is smooth for text and halves the per-frame cost of 60.
const FrameInterval = time.Second / 30

// SpinnerStep is how long each spinner frame shows, and how soon a frame
// comes when only the spinner or a countdown moves.
const SpinnerStep = 100 * time.Millisecond

// StreamInterval paces the frames a streaming answer draws: the stream may
// hold what comes this long after the UI asks, so its batches come at most
// this often, each drawn when it comes. 10 frames a second is about 80
// characters a frame, a line, at a model's reading pace (200 deltas/s of 4
// bytes). In ../shared/bench a paced 40 KB answer cost 3.0 CPU-s at 20
// frames a second and 1.8 at 10: each frame re-renders the tail and Bubble
// Tea diffs the whole screen.
const StreamInterval = time.Second / 10

// Pause is how long a stream must be quiet for its next delta to begin a
// new flow: the stream hands that delta over at once (stream.Handle's
// NextPaced, Batch.Fresh), the chat draws it, and the holds start again
// from none. More than one delta a frame is a flood, batched; fewer is a
// trickle, each drawn as it comes.
const Pause = FrameInterval

// BurstDraw is how often a stream faster than the frames is drawn: a batch
// of a burst is drawn when the last draw is this old, else on the next
// frame tick. A burst scrolls faster than anyone reads, and each draw
// costs a render of the tail and Bubble Tea's diff of the whole screen
// (its renderer's own work is about 1 ms a frame at 120x40, whatever
// changed), so a burst is drawn at the chat's frame rate, not at Bubble
// Tea's 60 (16 ms drew twice the frames for the same end). The first words
// of a flow, the end of a text and the end of the turn never wait for it.
const BurstDraw = FrameInterval

// DraftFor is how long after a full batch (a stream outrunning the frames)
// live messages are drawn as drafts: highlighting is most of a frame's
// cost, so the end of a fast answer shows sooner and the View after its
// whole render colours it a frame later.
const DraftFor = 100 * time.Millisecond

// StallCheck is how soon a slow frame looks again when a batch drew the
// spinner since the last one.
const StallCheck = 3 * SpinnerStep

// Cause is the decision point: what just happened.
type Cause int

const (
	// Begin: a turn began; its stream's first batch is asked for and the
	// spinner shows until it comes.
	Begin Cause = iota + 1
	// Changed: something outside the stream changed and must be drawn
	// soon (a tool started or wrote output, a resumed panel).
	Changed
	// Batch: a batch of the turn's stream was folded in (Delta, Full,
	// Closing, Ended, Stopped).
	Batch
	// Stop: the user stopped the turn; its final batch is asked for.
	Stop
	// Frame: a frame tick came (Seq).
	Frame
	// Drew: the UI drew the frame the last Plan asked for (Animating,
	// Tools, Turn): the next tick is chosen.
	Drew
	// Routed: a message was routed (after every Update): the approval's
	// wait tick (Approval).
	Routed
	// WaitTick: the approval's wait tick came (Shown).
	WaitTick
)

// Facts are what the UI knows at a decision point. Each Cause reads only
// the fields its doc names, and Turn.
type Facts struct {
	Cause Cause
	Turn  bool // a turn is in flight: its stream is read (it still is while its end is drawn)

	// Batch
	Delta   bool // the batch carries a text delta
	Full    bool // the batch was full and held the stream back (stream.Batch.More)
	Closing bool // the batch ends a text, an item or the response: its end is complete
	Ended   bool // the final batch: the turn ends
	Stopped bool // the user stopped the turn: only its final batch is left
	Fresh   bool // the stream handed it over early: a delta came after a Pause (stream.Batch.Fresh)

	// Frame
	Seq int // the tick's Seq; 0 is a tick no schedule knows of (tests): always obeyed

	// Drew
	Animating bool // an entry animates: a live tool panel or reasoning
	Tools     bool // local tools run (not waiting for the user's approval)

	// Routed
	Approval bool // an approval waits for the user

	// WaitTick
	Shown time.Time // the frame clock: the time the view shows
}

// Draw is what a Plan draws.
type Draw int

const (
	NoDraw    Draw = iota
	DrawFull       // re-render what changed, code coloured
	DrawDraft      // re-render what changed, new code uncoloured
)

// Tick is a frame tick to schedule: the UI sends Frame with Seq after In.
// Seq 0 schedules none.
type Tick struct {
	Seq int
	In  time.Duration
}

// Plan is what to do now. After a Plan that draws, the UI draws with the
// frame clock at now, then asks again with Drew.
type Plan struct {
	Draw     Draw
	Take     bool          // ask the stream for its next batch…
	Hold     time.Duration // … which it may hold back this long (0: hand it over at once)
	Tick     Tick          // the frame tick to schedule, if Seq is not 0
	WaitTick time.Duration // schedule the approval's wait tick in this, if not 0
	Clock    bool          // move the frame clock to now without drawing
}

// Pacer decides the chat's frames (see the package doc for the policy). The
// zero value is ready: no tick scheduled, no turn.
//
// Invariants:
//   - seq names the last tick scheduled; only a Frame with that Seq (or 0)
//     is obeyed, and every tick scheduled gets a new seq.
//   - scheduled is true from a Plan with a Tick until a Frame obeys it; a
//     new tick is scheduled while one is only when that one is slow
//     (fast false) and the new one fast.
//   - waitTicking is true from a Plan with a WaitTick until the WaitTick.
//   - asked is true from a Plan with Take until the next Batch; Take is
//     never planned while it is, nor after the final batch (ended).
//   - drawn is when a Batch was last drawn at once, fullAt when the last
//     full batch came, flowAt when the turn's first delta came; delta,
//     burst, drawn, fullAt and flowAt belong to the turn and Begin clears
//     them.
type Pacer struct {
	seq         int
	scheduled   bool
	fast        bool
	waitTicking bool

	asked  bool
	ended  bool
	delta  bool
	burst  bool // the last batch was full
	drawn  time.Time
	fullAt time.Time
	flowAt time.Time
}

// Decide returns what to do now, given f.
func (p *Pacer) Decide(f Facts, now time.Time) Plan {
	var pl Plan
	switch f.Cause {
	case Begin:
		p.asked, p.ended, p.delta, p.burst = true, false, false, false
		p.drawn, p.fullAt, p.flowAt = time.Time{}, time.Time{}, time.Time{}
		pl.Take = true // the first batch: at once
		p.schedule(&pl, SpinnerStep, false)
	case Changed:
		p.schedule(&pl, FrameInterval, true)
	case Batch:
		p.batch(&pl, f, now)
	case Stop:
		p.take(&pl, true, now)
	case Frame:
		if f.Seq != 0 && f.Seq != p.seq {
			return pl // superseded by a sooner tick
		}
		p.scheduled = false
		if f.Turn && f.Seq != 0 && !p.fast && within(now, p.drawn, SpinnerStep) {
			// a batch was just drawn and moved the spinner: while batches
			// come, the slow frame is needed only once they stop
			p.schedule(&pl, StallCheck, false)
			return pl
		}
		p.draw(&pl, f, now)
	case Drew:
		switch {
		case f.Animating || f.Tools:
			p.schedule(&pl, FrameInterval, true)
		case f.Turn:
			p.schedule(&pl, SpinnerStep, false)
		}
	case Routed:
		if f.Approval && !p.scheduled && !p.waitTicking {
			p.waitTicking = true
			pl.WaitTick = SpinnerStep
		}
	case WaitTick:
		p.waitTicking = false
		pl.Clock = !p.scheduled && now.After(f.Shown)
	}
	return pl
}

// batch decides on a batch that was just folded in.
func (p *Pacer) batch(pl *Plan, f Facts, now time.Time) {
	p.asked = false
	fresh := f.Delta && (!p.delta || f.Fresh) // the first words of a flow: drawn now
	if f.Delta && !p.delta {
		p.flowAt = now // the turn's first words: the holds ramp up from none
	}
	p.delta = p.delta || f.Delta
	burst := !fresh && (p.burst || f.Full) && !f.Closing // this batch is part of a burst
	p.burst = f.Full
	if p.burst {
		p.fullAt = now
	}
	switch {
	case f.Ended:
		p.ended = true
		p.draw(pl, Facts{Turn: true}, now) // the end is always drawn
	case f.Stopped:
		p.take(pl, true, now)
	case burst && within(now, p.drawn, BurstDraw):
		// a stream faster than the frames: drawn on the next frame (a
		// render per batch would slow it down)
		p.take(pl, true, now)
		p.schedule(pl, FrameInterval, true)
	default:
		p.drawn = now
		p.draw(pl, Facts{Turn: true}, now) // the batch is the frame
	}
}

// draw plans a frame: a draft while a stream outruns the frames or its
// flow is young (the ramp's frames come faster than StreamInterval), and
// the turn's next batch.
func (p *Pacer) draw(pl *Plan, f Facts, now time.Time) {
	pl.Draw = DrawFull
	if f.Turn && (within(now, p.fullAt, DraftFor) || within(now, p.flowAt, DraftFor)) {
		pl.Draw = DrawDraft
	}
	p.take(pl, f.Turn, now)
}

// take asks for the turn's next batch unless a request is outstanding or
// the stream ended: at once before the first delta and in a burst; once
// deltas flow, held as long as they have flowed since the turn's first,
// up to StreamInterval (the first words show as they come, and the holds
// double to the batch rate). A flow after a pause is not ramped again: its
// first words came at once (Fresh), and a stream that stalls now and then
// (a loaded server) would otherwise draw its ramp again after each stall.
func (p *Pacer) take(pl *Plan, turn bool, now time.Time) {
	if !turn || p.asked || p.ended {
		return
	}
	p.asked = true
	pl.Take = true
	if p.delta && !p.burst {
		pl.Hold = min(max(now.Sub(p.flowAt), 0), StreamInterval)
	}
}

// schedule plans the next frame tick in d (fast: d is FrameInterval) unless
// one at least as soon is scheduled.
func (p *Pacer) schedule(pl *Plan, d time.Duration, fast bool) {
	if p.scheduled && (p.fast || !fast) {
		return
	}
	p.seq++
	p.scheduled, p.fast = true, fast
	pl.Tick = Tick{Seq: p.seq, In: d}
}

// within reports whether now is less than d after then; a zero then is
// never (nothing was drawn, no batch was full).
func within(now, then time.Time, d time.Duration) bool {
	return !then.IsZero() && now.Sub(then) < d
}
