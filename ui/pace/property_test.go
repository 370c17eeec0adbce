package pace

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// decider is what the simulation drives: the Pacer, or a planted bug
// wrapped around it (TestPacerPropertiesCatchAHeldFirstDelta).
type decider interface {
	Decide(Facts, time.Time) Plan
	Seq() int
	WaitTicking() bool
}

// firstWithin is how soon the first words of a flow and the end of a text
// must be drawn after they come: the frame Bubble Tea shows them on (60 a
// second). A burst is drawn less often (BurstDraw); these never wait.
const firstWithin = time.Second / 60

// sim drives a Pacer as the chat does, on a fake clock, with random turns,
// a stream that behaves as stream.Handle's NextPaced does (events come at
// random times; what came is held until the hold asked for is over, and
// handed over at once when it is none, when the batch is full, when a delta
// comes more than Pause after the event before it (Fresh), or when a text,
// an item or the response ends), tool output, stops and approvals, every
// scheduled tick delivered when it is due (superseded ones too), and a Drew
// after every draw. It keeps its own account of what the Pacer promised and
// checks each Plan against the policy's properties.
type sim struct {
	t      *testing.T
	onFail func(string) // nil: t.Fatal
	r      *rand.Rand
	p      decider
	now    time.Time

	ticks     []Tick      // every tick scheduled, for delivery
	due       []time.Time // … and when it comes
	lastSeq   int         // the tick scheduled last
	pending   bool        // lastSeq is scheduled and not yet obeyed
	pendFast  bool        // … and is fast
	waitTick  bool        // a wait tick is scheduled
	waitDue   time.Time
	shown     time.Time // the frame clock
	turn      bool      // a turn is in flight
	asked     bool      // a batch is asked for and has not come
	askedAt   time.Time // … when, and with which hold
	hold      time.Duration
	ended     bool
	stopped   bool
	delta     bool      // the turn has had a batch with a delta
	lastFull  bool      // the last batch was full
	fullAt    time.Time // the last full batch of the turn
	flowAt    time.Time // the batch with the turn's first delta
	batchDraw time.Time // the last batch drawn when it came
	approval  bool
	draws     int

	// the stream: what came since the last batch, and when it goes out
	in        int       // events pending
	inDelta   bool      // … one is a delta
	inFull    bool      // … they fill a batch
	inClosing bool      // … one ends a text, an item or the response
	inEnd     bool      // … the stream ended
	inFresh   bool      // … a delta came after a Pause
	lastEv    time.Time // when the last event came
	sawDelta  bool      // a delta came in this turn
	handAt    time.Time // when the pending batch is handed over (zero: when something comes)
	owed      time.Time // the first words of a flow, or the end of a text, came then and are not drawn yet
	owedOut   bool      // … and were handed over
	endOwed   time.Time // the response's end (its terminal event) came then and is not drawn yet
	endOut    bool      // … and was handed over
	inTerm    bool      // the response's terminal event is pending
	endNext   bool      // the stream's end comes with the next event (after the terminal one)
}

func (s *sim) fail(format string, args ...any) {
	s.t.Helper()
	msg := fmt.Sprintf("at %v: "+format, append([]any{s.now.Sub(t0)}, args...)...)
	if s.onFail != nil {
		s.onFail(msg)
	}
	s.t.Fatal(msg)
}

// decide asks the Pacer, checks the properties every plan has, and keeps
// the account.
func (s *sim) decide(f Facts) Plan {
	s.t.Helper()
	pl := s.p.Decide(f, s.now)
	if pl.Tick.Seq != 0 {
		if pl.Tick.Seq <= s.lastSeq {
			s.fail("tick %d scheduled after tick %d", pl.Tick.Seq, s.lastSeq)
		}
		fast := pl.Tick.In == FrameInterval
		if !fast && pl.Tick.In != SpinnerStep && pl.Tick.In != StallCheck {
			s.fail("a tick in %v", pl.Tick.In)
		}
		if s.pending && (s.pendFast || !fast) {
			s.fail("a second tick (%+v) while one is scheduled (fast %v)", pl.Tick, s.pendFast)
		}
		s.lastSeq, s.pending, s.pendFast = pl.Tick.Seq, true, fast
		s.ticks = append(s.ticks, pl.Tick)
		s.due = append(s.due, s.now.Add(pl.Tick.In))
	}
	if pl.Take {
		if !s.turn || s.asked || s.ended {
			s.fail("Take with turn %v, asked %v, ended %v", s.turn, s.asked, s.ended)
		}
		switch {
		case pl.Hold < 0 || pl.Hold > StreamInterval:
			s.fail("held %v", pl.Hold)
		case s.lastFull && pl.Hold != 0:
			s.fail("held %v in a burst", pl.Hold)
		}
		s.asked, s.askedAt, s.hold = true, s.now, pl.Hold
		s.handOut()
	}
	if pl.Draw == DrawDraft && (!s.turn || !within(s.now, s.fullAt, DraftFor) && !within(s.now, s.flowAt, DraftFor)) {
		s.fail("a draft with turn %v, %v after the last full batch, %v after the flow began", s.turn, s.now.Sub(s.fullAt), s.now.Sub(s.flowAt))
	}
	if pl.WaitTick != 0 {
		if !s.approval || s.pending || s.waitTick {
			s.fail("a wait tick with approval %v, tick %v, wait tick %v", s.approval, s.pending, s.waitTick)
		}
		s.waitTick, s.waitDue = true, s.now.Add(pl.WaitTick)
	}
	if pl.Draw != NoDraw {
		s.draws++
		s.shown = s.now
		if s.owedOut {
			s.owed, s.owedOut = time.Time{}, false
		}
		if s.endOut {
			s.endOwed, s.endOut = time.Time{}, false
		}
	}
	if !s.endOwed.IsZero() && s.now.Sub(s.endOwed) > firstWithin {
		s.fail("the response's end came %v ago and is not drawn", s.now.Sub(s.endOwed))
	}
	if !s.owed.IsZero() && s.now.Sub(s.owed) > firstWithin {
		s.fail("the first words of a flow (or the end of a text) came %v ago and are not drawn", s.now.Sub(s.owed))
	}
	seq, wait := s.p.Seq(), s.p.WaitTicking()
	if want := map[bool]int{true: s.lastSeq}[s.pending]; seq != want || wait != s.waitTick {
		s.fail("Scheduled() = %d, %v; the plans said %d, %v", seq, wait, want, s.waitTick)
	}
	return pl
}

// drew tells the Pacer the frame was drawn, with random liveness.
func (s *sim) drew() {
	s.t.Helper()
	f := Facts{Cause: Drew, Turn: s.turn, Animating: s.r.IntN(8) == 0, Tools: s.r.IntN(8) == 0}
	pl := s.decide(f)
	switch {
	case f.Animating || f.Tools:
		if !s.pending || !s.pendFast {
			s.fail("something animates and no fast tick is scheduled")
		}
	case f.Turn:
		if !s.pending {
			s.fail("a turn is in flight and no tick is scheduled")
		}
	case pl.Tick.Seq != 0:
		s.fail("an idle chat scheduled tick %+v", pl.Tick)
	}
	if pl.Draw != NoDraw || pl.Take {
		s.fail("Drew planned %+v", pl)
	}
}

// arrive is an event of the turn's stream coming now.
func (s *sim) arrive() {
	s.t.Helper()
	n := s.r.IntN(40)
	closes := false
	isDelta := n >= 10 && n < 34
	switch {
	case s.endNext:
		s.endNext, s.inEnd, isDelta = false, true, false // [DONE] and the end of the stream
	case n == 0:
		// the response's terminal event; the stream's end with it or next
		s.inClosing, s.inTerm = true, true
		if s.r.IntN(2) == 0 {
			s.inEnd = true
		} else {
			s.endNext = true
		}
		if s.endOwed.IsZero() {
			s.endOwed = s.now
		}
	case n < 4:
		s.inClosing, closes = true, true // a text or an item ends
	case n < 10:
		s.inFull, isDelta = true, true // a flood: a batch's worth at once
	}
	if isDelta {
		if s.lastEv.IsZero() || s.now.Sub(s.lastEv) > Pause {
			s.inFresh = true
		}
		if (!s.sawDelta || s.inFresh) && s.owed.IsZero() {
			s.owed = s.now
		}
		s.sawDelta, s.inDelta = true, true
	}
	if closes && s.owed.IsZero() {
		s.owed = s.now
	}
	s.in++
	s.lastEv = s.now
	s.handOut()
}

// handOut decides when the stream hands over what came: at once when the
// consumer asked with no hold, or what came must not wait; at the end of
// the hold otherwise.
func (s *sim) handOut() {
	s.handAt = time.Time{}
	if !s.asked || s.in == 0 {
		return
	}
	s.handAt = s.askedAt.Add(s.hold)
	if s.hold == 0 || s.inFull || s.inClosing || s.inEnd || s.inFresh || s.handAt.Before(s.now) {
		s.handAt = s.now
	}
}

// batch delivers what came, as the batch asked for.
func (s *sim) batch() {
	s.t.Helper()
	f := Facts{Cause: Batch, Turn: true, Stopped: s.stopped, Delta: s.inDelta, Full: s.inFull,
		Closing: s.inClosing, Ended: s.inEnd, Fresh: s.inFresh}
	if !s.owed.IsZero() {
		s.owedOut = true
	}
	if !s.endOwed.IsZero() && s.inTerm {
		s.endOut = true
	}
	s.in, s.inDelta, s.inFull, s.inClosing, s.inEnd, s.inFresh, s.inTerm, s.handAt = 0, false, false, false, false, false, false, time.Time{}
	fresh := f.Delta && (!s.delta || f.Fresh)
	if f.Delta && !s.delta {
		s.flowAt = s.now
	}
	burst := !fresh && (s.lastFull || f.Full) && !f.Closing
	s.asked = false
	s.delta = s.delta || f.Delta
	s.lastFull = f.Full
	if f.Full {
		s.fullAt = s.now
	}
	if f.Ended {
		s.ended = true
	}
	pl := s.decide(f)
	switch {
	case f.Ended:
		if pl.Draw == NoDraw {
			s.fail("the end of the turn was not drawn")
		}
	case f.Stopped:
		if pl.Draw != NoDraw {
			s.fail("a stopped turn's batch was drawn")
		}
	case pl.Draw == NoDraw && f.Closing:
		// the end of a text, an item or the response: drawn within a frame
		// (the owed and endOwed checks in decide)
	case pl.Draw == NoDraw:
		if !burst || !s.pending || !s.pendFast {
			s.fail("a batch held back (burst %v) without a fast tick to draw it (%v, %v)", burst, s.pending, s.pendFast)
		}
	case burst:
		if !s.batchDraw.IsZero() && s.now.Sub(s.batchDraw) < BurstDraw {
			s.fail("a burst drawn %v after the last draw", s.now.Sub(s.batchDraw))
		}
	}
	if pl.Draw != NoDraw && !f.Ended {
		s.batchDraw = s.now
	}
	if f.Ended {
		if !s.asked && pl.Take {
			s.fail("asked after the end")
		}
	} else if !f.Stopped && pl.Draw == NoDraw && !s.asked {
		s.fail("a batch held back and the next not asked for")
	}
	if pl.Draw != NoDraw {
		s.drew()
	}
	if f.Ended {
		s.turn = false // the chat drops the turn after drawing its end
	}
}

// frame delivers tick tk.
func (s *sim) frame(tk Tick) {
	s.t.Helper()
	obeyed := tk.Seq == s.lastSeq && s.pending
	if obeyed {
		s.pending = false
	}
	pl := s.decide(Facts{Cause: Frame, Turn: s.turn, Seq: tk.Seq})
	if !obeyed && pl != (Plan{}) {
		s.fail("a superseded tick %d (last %d) planned %+v", tk.Seq, s.lastSeq, pl)
	}
	if pl.Draw != NoDraw {
		s.drew()
	}
}

// step moves the clock to the next thing that happens and does it.
func (s *sim) step() {
	s.t.Helper()
	next := s.now.Add(time.Duration(s.r.IntN(60)) * time.Millisecond)
	first := -1
	for i, d := range s.due {
		if !d.After(next) && (first < 0 || d.Before(s.due[first])) {
			first = i
		}
	}
	if !s.handAt.IsZero() && !s.handAt.After(next) && (first < 0 || !s.handAt.After(s.due[first])) {
		s.now = s.handAt
		s.batch()
		s.routed()
		return
	}
	if first >= 0 {
		s.now = s.due[first]
		tk := s.ticks[first]
		s.ticks = append(s.ticks[:first], s.ticks[first+1:]...)
		s.due = append(s.due[:first], s.due[first+1:]...)
		s.frame(tk)
		s.routed()
		return
	}
	if s.waitTick && !s.waitDue.After(next) {
		s.now, s.waitTick = s.waitDue, false
		pl := s.decide(Facts{Cause: WaitTick, Shown: s.shown})
		if pl.Clock {
			if s.pending || !s.now.After(s.shown) {
				s.fail("the clock moved with a tick scheduled or backwards")
			}
			s.shown = s.now
		}
		s.routed()
		return
	}
	s.now = next
	switch n := s.r.IntN(10); {
	case !s.turn && n < 3:
		s.turn, s.asked, s.ended, s.stopped, s.delta, s.lastFull = true, false, false, false, false, false
		s.fullAt, s.batchDraw, s.flowAt = time.Time{}, time.Time{}, time.Time{}
		s.lastEv, s.sawDelta, s.owed, s.owedOut = time.Time{}, false, time.Time{}, false
		s.endOwed, s.endOut, s.endNext = time.Time{}, false, false
		s.approval = false
		pl := s.decide(Facts{Cause: Begin, Turn: true})
		if !pl.Take || pl.Hold != 0 || !s.pending {
			s.fail("a turn began with %+v", pl)
		}
	case s.turn && !s.stopped && !s.inEnd && n < 7:
		s.arrive()
	case n == 7:
		s.decide(Facts{Cause: Changed})
		if !s.pending || !s.pendFast {
			s.fail("a change without a fast tick")
		}
	case n == 8 && s.turn && !s.stopped && !s.ended:
		s.stopped = true
		s.owed, s.owedOut = time.Time{}, false // a stopped turn draws nothing more but its end
		s.inEnd, s.inClosing = true, true      // the stream is cancelled: its end comes next
		s.endNext = false
		s.in++
		s.handOut()
		s.decide(Facts{Cause: Stop, Turn: true})
		if !s.asked && !s.ended {
			s.fail("stopped and the final batch not asked for")
		}
		s.owed, s.owedOut = time.Time{}, false
	case n == 9 && !s.turn:
		s.approval = !s.approval
	}
	s.routed()
}

// routed ends every message, as Update does.
func (s *sim) routed() {
	s.t.Helper()
	s.decide(Facts{Cause: Routed, Approval: s.approval})
}

// simulate runs seeds simulations of 2000 steps each on the decider d
// makes.
func simulate(t *testing.T, seeds int, d func() decider, onFail func(string)) {
	for seed := range seeds {
		s := &sim{t: t, onFail: onFail, r: rand.New(rand.NewPCG(uint64(seed), 7)), p: d(), now: t0, shown: t0}
		for range 2000 {
			s.step()
		}
		if s.draws == 0 {
			t.Fatalf("seed %d: nothing was drawn", seed)
		}
	}
}

// TestPacerProperties runs the simulation from many seeds: ticks are
// fresh and never two are scheduled (a slow one only gives way to a fast
// one), a superseded tick does nothing, a batch is asked for once at a
// time and never after the end, the end is always drawn, a burst is drawn
// at most once per BurstDraw and a batch held back always has a fast tick
// to draw it, drafts come only within DraftFor of a full batch, holds are
// none in a burst and at most StreamInterval, the first delta of a turn,
// the first after a Pause, the end of a text and the response's end
// (its terminal event) are drawn within a frame of coming, an idle chat schedules nothing, and the approval's wait tick
// comes only when no tick will.
func TestPacerProperties(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 20
	}
	simulate(t, seeds, func() decider { return &Pacer{} }, nil)
}

// holdsFirst is a planted bug: the Pacer, but the batch that brings the
// turn's first delta is held a StreamInterval like the rest.
type holdsFirst struct {
	Pacer
	delta bool
}

func (h *holdsFirst) Decide(f Facts, now time.Time) Plan {
	switch {
	case f.Cause == Begin:
		h.delta = false
	case f.Cause == Batch && f.Delta:
		h.delta = true
	}
	pl := h.Pacer.Decide(f, now)
	if pl.Take && !h.delta && f.Cause != Begin {
		pl.Hold = StreamInterval
	}
	return pl
}

// failed stops a simulation that found what it looked for.
type failed struct{ msg string }

// caught simulates a planted bug and returns the first failure it found
// ("" for none).
func caught(t *testing.T, d func() decider) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failed)
			if !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	simulate(t, 20, d, func(m string) { panic(failed{m}) })
	return ""
}

// TestPacerPropertiesCatchAHeldFirstDelta: the simulation catches a pacer
// that holds a turn's first delta for a batch, by the time it is drawn.
func TestPacerPropertiesCatchAHeldFirstDelta(t *testing.T) {
	msg := caught(t, func() decider { return &holdsFirst{} })
	if !strings.Contains(msg, "first words") {
		t.Fatalf("the planted bug was not caught by the first-words rule (%q)", msg)
	}
}

// holdsEnd is a planted bug: the Pacer, but a batch that ends a text, an
// item or the response (and not the stream) is held for the next frame
// tick, as a burst's batch is, instead of drawn when it comes.
type holdsEnd struct{ Pacer }

func (h *holdsEnd) Decide(f Facts, now time.Time) Plan {
	pl := h.Pacer.Decide(f, now)
	if f.Cause == Batch && f.Closing && !f.Ended && !f.Stopped && pl.Draw != NoDraw {
		pl.Draw = NoDraw
		h.schedule(&pl, FrameInterval, true)
	}
	return pl
}

// TestPacerPropertiesCatchAHeldEnd: the simulation catches a pacer that
// holds the end of a response (or of a text) for a frame, by the time it
// is drawn.
func TestPacerPropertiesCatchAHeldEnd(t *testing.T) {
	msg := caught(t, func() decider { return &holdsEnd{} })
	t.Log(msg)
	if !strings.Contains(msg, "end") || !strings.Contains(msg, "not drawn") {
		t.Fatalf("the planted bug was not caught by the end rule (%q)", msg)
	}
}
