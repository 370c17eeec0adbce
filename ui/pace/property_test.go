package pace

import (
	"math/rand/v2"
	"testing"
	"time"
)

// sim drives a Pacer as the chat does, on a fake clock, with random turns,
// batches (only when asked for), tool output, stops and approvals, every
// scheduled tick delivered when it is due (superseded ones too), and a Drew
// after every draw. It keeps its own account of what the Pacer promised and
// checks each Plan against the policy's properties.
type sim struct {
	t   *testing.T
	r   *rand.Rand
	p   Pacer
	now time.Time

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
	delta     bool      // the turn has had a delta
	lastFull  bool      // the last batch was full
	fullAt    time.Time // the last full batch of the turn
	batchDraw time.Time // the last batch drawn when it came
	approval  bool
	draws     int
}

func (s *sim) fail(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("at %v: "+format, append([]any{s.now.Sub(t0)}, args...)...)
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
		case !s.delta || s.lastFull:
			if pl.Hold != 0 {
				s.fail("held %v before the first delta or in a burst", pl.Hold)
			}
		case pl.Hold != StreamInterval:
			s.fail("held %v once deltas flow", pl.Hold)
		}
		s.asked, s.askedAt, s.hold = true, s.now, pl.Hold
	}
	if pl.Draw == DrawDraft && (!s.turn || s.fullAt.IsZero() || s.now.Sub(s.fullAt) >= DraftFor) {
		s.fail("a draft with turn %v, %v after the last full batch", s.turn, s.now.Sub(s.fullAt))
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

// batch delivers the batch asked for.
func (s *sim) batch() {
	s.t.Helper()
	f := Facts{Cause: Batch, Turn: true, Stopped: s.stopped}
	switch n := s.r.IntN(20); {
	case s.stopped || n == 0:
		f.Ended, f.Closing = true, true
	case n < 8:
		f.Full, f.Delta = true, true
	case n < 10:
		f.Closing = true
	default:
		f.Delta = s.r.IntN(4) != 0
	}
	burst := (s.lastFull || f.Full) && !f.Closing
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
		s.fullAt, s.batchDraw = time.Time{}, time.Time{}
		s.approval = false
		pl := s.decide(Facts{Cause: Begin, Turn: true})
		if !pl.Take || pl.Hold != 0 || !s.pending {
			s.fail("a turn began with %+v", pl)
		}
	case s.turn && s.asked && n < 7:
		if s.now.Sub(s.askedAt) >= s.hold || s.r.IntN(3) == 0 { // a full batch or the end comes at once
			s.batch()
		}
	case n == 7:
		s.decide(Facts{Cause: Changed})
		if !s.pending || !s.pendFast {
			s.fail("a change without a fast tick")
		}
	case n == 8 && s.turn && !s.stopped:
		s.stopped = true
		s.decide(Facts{Cause: Stop, Turn: true})
		if !s.asked && !s.ended {
			s.fail("stopped and the final batch not asked for")
		}
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

// TestPacerProperties runs the simulation from many seeds: ticks are
// fresh and never two are scheduled (a slow one only gives way to a fast
// one), a superseded tick does nothing, a batch is asked for once at a
// time and never after the end, the end is always drawn, a burst is drawn
// at most once per BurstDraw and a batch held back always has a fast tick
// to draw it, drafts come only within DraftFor of a full batch, holds are
// none before the first delta and in a burst, an idle chat schedules
// nothing, and the approval's wait tick comes only when no tick will.
func TestPacerProperties(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		s := &sim{t: t, r: rand.New(rand.NewPCG(uint64(seed), 7)), now: t0, shown: t0}
		for range 2000 {
			s.step()
		}
		if s.draws == 0 {
			t.Fatalf("seed %d: nothing was drawn", seed)
		}
	}
}
