package pace

import (
	"testing"
	"time"
)

// t0 is the tables' clock origin; steps name their time in ms after it.
var t0 = time.Unix(1_700_000_000, 0)

// step is one decision: at ms after t0, with facts f, the plan must be want.
type step struct {
	ms   int
	f    Facts
	want Plan
}

// run feeds a fresh Pacer the steps in order and checks every plan.
func run(t *testing.T, steps []step) {
	t.Helper()
	var p Pacer
	for i, s := range steps {
		now := t0.Add(time.Duration(s.ms) * time.Millisecond)
		if got := p.Decide(s.f, now); got != s.want {
			t.Fatalf("step %d (%d ms, %+v):\n got %+v\nwant %+v", i, s.ms, s.f, got, s.want)
		}
	}
}

func slow(seq int) Tick { return Tick{Seq: seq, In: SpinnerStep} }
func fast(seq int) Tick { return Tick{Seq: seq, In: FrameInterval} }

var (
	begin   = Facts{Cause: Begin, Turn: true}
	delta   = Facts{Cause: Batch, Turn: true, Delta: true}
	full    = Facts{Cause: Batch, Turn: true, Delta: true, Full: true}
	closing = Facts{Cause: Batch, Turn: true, Closing: true}
	ended   = Facts{Cause: Batch, Turn: true, Closing: true, Ended: true}
	drew    = Facts{Cause: Drew, Turn: true}
	changed = Facts{Cause: Changed}
)

func frame(seq int) Facts { return Facts{Cause: Frame, Turn: true, Seq: seq} }

// TestPacedStream: a stream at a reading pace. The first batch (before any
// delta) is asked for at once and the spinner ticks slowly; once a delta has
// come each batch is drawn when it comes and the next one may be held a
// StreamInterval; a slow tick right after a drawn batch only looks again
// later; the end is drawn, and the turn's last slow tick draws once more.
func TestPacedStream(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{40, Facts{Cause: Batch, Turn: true}, Plan{Draw: DrawFull, Take: true}}, // response.created: no delta yet
		{40, drew, Plan{}}, // the slow tick stands
		{100, frame(1), Plan{Tick: Tick{Seq: 2, In: StallCheck}}}, // a batch drew 60 ms ago
		{250, delta, Plan{Draw: DrawDraft, Take: true}},           // the first delta: at once, and the next as it comes
		{250, drew, Plan{}}, // tick 2 still comes
		{350, delta, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}},   // a frame later
		{400, frame(2), Plan{Tick: Tick{Seq: 3, In: StallCheck}}},              // drawn 50 ms ago
		{450, delta, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}},   //
		{520, closing, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}}, // a closing batch: at once
		{600, ended, Plan{Draw: DrawFull}},                                     // the end: drawn, nothing more asked
		{600, drew, Plan{}},                                                    // tick 3 (at 700) stands
		{700, Facts{Cause: Frame, Seq: 3}, Plan{Draw: DrawFull}},               // the turn is over: drawn, nothing asked
	})
}

// TestFirstWordsRamp: the first delta of a turn is drawn at once and the
// next batch asked for with no hold; the holds then grow as long as deltas
// have flowed, to StreamInterval. A batch the stream hands over early for
// a delta after a Pause (Fresh) is drawn at once, held as before. The
// ramp's quick frames are drafts for DraftFor.
func TestFirstWordsRamp(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	fresh := Facts{Cause: Batch, Turn: true, Delta: true, Fresh: true}
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{5, Facts{Cause: Batch, Turn: true}, Plan{Draw: DrawFull, Take: true}}, // response.created
		{10, delta, Plan{Draw: DrawDraft, Take: true}},                         // the first words: drawn, the next as they come
		{15, delta, Plan{Draw: DrawDraft, Take: true, Hold: ms(5)}},
		{20, delta, Plan{Draw: DrawDraft, Take: true, Hold: ms(10)}},
		{30, delta, Plan{Draw: DrawDraft, Take: true, Hold: ms(20)}},
		{50, delta, Plan{Draw: DrawDraft, Take: true, Hold: ms(40)}},
		{90, delta, Plan{Draw: DrawDraft, Take: true, Hold: ms(80)}},
		{170, delta, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}},
		{270, delta, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}},
		{330, fresh, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}}, // after a pause: at once; the holds do not ramp again
		{335, delta, Plan{Draw: DrawFull, Take: true, Hold: StreamInterval}},
		{340, ended, Plan{Draw: DrawFull}}, // the end: at once
	})
}

// TestSlowTickAfterTheEnd: the turn's slow tick after its end finds no
// turn and draws, and schedules nothing more: an idle chat has no frames.
func TestSlowTickAfterTheEnd(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{30, ended, Plan{Draw: DrawFull}},
		{30, drew, Plan{}},
		{100, Facts{Cause: Frame, Seq: 1}, Plan{Draw: DrawFull}}, // Turn false now
		{100, Facts{Cause: Drew}, Plan{}},
		{5000, Facts{Cause: Routed}, Plan{}},
	})
}

// TestBurstCoalescesToFrames: a stream faster than the frames hands over
// full batches. One is drawn at once (as a draft: it outruns the frames);
// the next ones within BurstDraw of that draw wait for a fast frame, and
// the rest of the burst is taken at once. The batch after the last full one
// still belongs to the burst unless it closes something.
func TestBurstCoalescesToFrames(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{10, full, Plan{Draw: DrawDraft, Take: true}},                               // drawn: no batch drawn before
		{10, drew, Plan{}},                                                          // the slow tick stands
		{12, full, Plan{Take: true, Tick: fast(2)}},                                 // 2 ms after a draw: the next frame
		{14, full, Plan{Take: true}},                                                // a fast tick is scheduled already
		{20, delta, Plan{Take: true, Hold: 10 * time.Millisecond}},                  // after a full one: the burst's, coalesced; not full: held as long as deltas flowed
		{30, full, Plan{Take: true}},                                                // 20 ms after the last draw: still the next frame's
		{44, full, Plan{Draw: DrawDraft, Take: true}},                               // 34 ms after the last draw
		{44, drew, Plan{}},                                                          // tick 2 (fast) stands
		{45, frame(2), Plan{Draw: DrawDraft}},                                       // asked already: no Take
		{45, drew, Plan{Tick: slow(3)}},                                             // only the spinner moves
		{78, delta, Plan{Draw: DrawDraft, Take: true, Hold: 68 * time.Millisecond}}, // after a full one, 34 ms after the last batch drawn (frames do not count)
		{78, drew, Plan{}},
		{90, delta, Plan{Draw: DrawDraft, Take: true, Hold: 80 * time.Millisecond}}, // the burst is over; 46 ms after a full batch: a draft
		{145, frame(3), Plan{Tick: Tick{Seq: 4, In: StallCheck}}},                   // a batch drew 55 ms ago
		{445, frame(4), Plan{Draw: DrawFull}},                                       // 401 ms after the last full batch: coloured
	})
}

// TestClosingBatchIsDrawnAtOnce: a full batch that ends a text is drawn
// even within BurstDraw of the last draw, and so is the final batch.
func TestClosingBatchIsDrawnAtOnce(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{10, full, Plan{Draw: DrawDraft, Take: true}},
		{11, Facts{Cause: Batch, Turn: true, Full: true, Closing: true}, Plan{Draw: DrawDraft, Take: true}},
		{12, Facts{Cause: Batch, Turn: true, Full: true, Ended: true}, Plan{Draw: DrawDraft}}, // the end, always
		{12, drew, Plan{}},
		{13, Facts{Cause: Stop, Turn: true}, Plan{}}, // ended: nothing to ask for
	})
}

// TestStopTakesTheFinalBatch: esc asks for the final batch unless a request
// is outstanding; a batch of a stopped turn is not drawn, the final one is.
func TestStopTakesTheFinalBatch(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{5, Facts{Cause: Stop, Turn: true}, Plan{}}, // the first batch is asked for
		{20, Facts{Cause: Batch, Turn: true, Delta: true, Stopped: true}, Plan{Take: true}},
		{25, Facts{Cause: Batch, Turn: true, Stopped: true, Ended: true}, Plan{Draw: DrawDraft}},
	})
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{10, delta, Plan{Draw: DrawDraft, Take: true}},
		{40, delta, Plan{Draw: DrawDraft, Take: true, Hold: 30 * time.Millisecond}},
		{50, Facts{Cause: Stop, Turn: true}, Plan{}}, // asked at 40: the stream ends it
	})
}

// TestOnlyTheLastTickIsObeyed: a slow tick is superseded by a fast one and
// then ignored when it comes; a fast tick is not superseded; a tick with
// Seq 0 (tests) is always obeyed.
func TestOnlyTheLastTickIsObeyed(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{5, changed, Plan{Tick: fast(2)}},                      // a tool wrote output: sooner
		{6, changed, Plan{}},                                   // as soon as that: kept
		{7, Facts{Cause: Begin, Turn: true}, Plan{Take: true}}, // a slow one would be later: kept
		{38, frame(2), Plan{Draw: DrawFull}},                   // the first batch is asked for
		{38, Facts{Cause: Drew, Turn: true, Tools: true}, Plan{Tick: fast(3)}},
		{71, frame(2), Plan{}},  // a stale tick: ignored, tick 3 still scheduled
		{72, changed, Plan{}},   // so nothing new
		{100, frame(1), Plan{}}, // superseded at 5 ms
		{104, frame(3), Plan{Draw: DrawFull}},
		{104, Facts{Cause: Drew, Turn: true, Animating: true}, Plan{Tick: fast(4)}},
		{110, Facts{Cause: Frame, Turn: true}, Plan{Draw: DrawFull}}, // Seq 0: obeyed, and tick 4 no longer counts
		{111, changed, Plan{Tick: fast(5)}},
		{137, frame(4), Plan{}},
	})
}

// TestStallCheckOnlyForTheSlowTick: a fast tick draws however recently a
// batch was drawn; a slow one waits StallCheck while batches flow.
func TestStallCheckOnlyForTheSlowTick(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{10, delta, Plan{Draw: DrawDraft, Take: true}},
		{10, drew, Plan{}},
		{20, changed, Plan{Tick: fast(2)}},
		{53, frame(2), Plan{Draw: DrawDraft}},
		{53, drew, Plan{Tick: slow(3)}},
		{153, frame(3), Plan{Draw: DrawFull}}, // 143 ms since the batch: drawn
	})
}

// TestDrewChoosesTheNextTick: fast while something animates or tools run,
// slow while a turn is in flight, none when idle.
func TestDrewChoosesTheNextTick(t *testing.T) {
	for _, c := range []struct {
		name string
		f    Facts
		want Plan
	}{
		{"idle", Facts{Cause: Drew}, Plan{}},
		{"turn", Facts{Cause: Drew, Turn: true}, Plan{Tick: slow(1)}},
		{"animating", Facts{Cause: Drew, Animating: true}, Plan{Tick: fast(1)}},
		{"tools", Facts{Cause: Drew, Tools: true}, Plan{Tick: fast(1)}},
		{"turn and tools", Facts{Cause: Drew, Turn: true, Tools: true}, Plan{Tick: fast(1)}},
	} {
		t.Run(c.name, func(t *testing.T) { run(t, []step{{0, c.f, c.want}}) })
	}
}

// TestApprovalWaitTick: while an approval waits and no frame tick is
// scheduled, one wait tick at a time moves the frame clock (forward only);
// with a frame tick scheduled there is none, and one that comes does not
// move the clock.
func TestApprovalWaitTick(t *testing.T) {
	asking := Facts{Cause: Routed, Approval: true}
	shown := func(ms int) Facts {
		return Facts{Cause: WaitTick, Shown: t0.Add(time.Duration(ms) * time.Millisecond)}
	}
	run(t, []step{
		{0, Facts{Cause: Routed}, Plan{}}, // no approval
		{0, asking, Plan{WaitTick: SpinnerStep}},
		{50, asking, Plan{}}, // one at a time
		{100, shown(0), Plan{Clock: true}},
		{100, asking, Plan{WaitTick: SpinnerStep}},
		{150, shown(200), Plan{}}, // the clock only moves forward
		{150, changed, Plan{Tick: fast(1)}},
		{151, asking, Plan{}}, // a frame tick is scheduled
		{160, asking, Plan{}},
	})
	run(t, []step{
		{0, asking, Plan{WaitTick: SpinnerStep}},
		{10, changed, Plan{Tick: fast(1)}},
		{100, shown(0), Plan{}}, // a frame comes: it moves the clock
	})
}

// TestBeginClearsTheTurn: a new turn starts unpaced and undrafted whatever
// the last one did, and keeps the tick sequence.
func TestBeginClearsTheTurn(t *testing.T) {
	run(t, []step{
		{0, begin, Plan{Take: true, Tick: slow(1)}},
		{10, full, Plan{Draw: DrawDraft, Take: true}},
		{12, ended, Plan{Draw: DrawDraft}},
		{12, drew, Plan{}},
		{20, Facts{Cause: Frame, Seq: 1}, Plan{Draw: DrawFull}}, // no turn: no draft
		{20, Facts{Cause: Drew}, Plan{}},
		{30, begin, Plan{Take: true, Tick: slow(2)}},
		{31, Facts{Cause: Batch, Turn: true}, Plan{Draw: DrawFull, Take: true}}, // not a draft, not held
		{32, delta, Plan{Draw: DrawDraft, Take: true}},                          // not a burst; the first delta
	})
}

// TestZeroClockTick: a test's frame at the zero time, with nothing drawn
// and no full batch, is a whole draw, not a draft nor a stall check.
func TestZeroClockTick(t *testing.T) {
	var p Pacer
	p.Decide(begin, time.Time{})
	if got := p.Decide(Facts{Cause: Frame, Turn: true, Seq: 1}, time.Time{}); got.Draw != DrawFull {
		t.Fatalf("a frame at the zero time: %+v, want a whole draw", got)
	}
}
