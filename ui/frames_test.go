package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/pace"
)

// TestIdleSchedulesNoFrames: once a turn has ended and its last frame is
// drawn, nothing is scheduled: no frame tick, no spinner, no blink (idle at
// the prompt costs only Bubble Tea's own renderer ticker).
func TestIdleSchedulesNoFrames(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	pump(t, m, nil)
	_, cmd := m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: m.frame.now.Add(pace.FrameInterval)})
	if m.turns.pacer.Scheduled() || m.turns.pacer.WaitTicking() {
		t.Errorf("a tick is still scheduled at the prompt (live %v, wait %v)", m.turns.pacer.Scheduled(), m.turns.pacer.WaitTicking())
	}
	if cmd != nil {
		if msg := cmd(); msg != nil {
			t.Errorf("the last frame asked for more: %T", msg)
		}
	}
}

// TestBatchesAreFrames: a streaming turn's batch is drawn when it comes and
// schedules no fast frame tick (only the spinner's slow one); a superseded
// tick is ignored.
func TestBatchesAreFrames(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	b, ok := m.turns.cur.handle.Next()
	if !ok {
		t.Fatal("no batch")
	}
	m.Update(batchMsg{gen: m.turns.cur.gen, batch: b})
	if m.turns.pacer.Fast() {
		t.Error("a batch scheduled a fast frame tick: it is drawn when it comes")
	}
	if m.turns.cur != nil && !m.turns.pacer.Asked() {
		t.Error("the next batch was not asked for")
	}
	seq := m.turns.pacer.Last()
	m.Update(toolFramesMsg{}) // something outside the stream asks for a frame
	if _, cmd := m.Update(frameMsg{gen: m.turns.gen, seq: seq}); cmd != nil || !m.turns.pacer.Scheduled() {
		t.Error("a superseded tick was obeyed")
	}
}

// TestPacingFollowsTheInjectedClock: the chat asks its pacer (ui/pace) on
// its own clock, not the wall's: the first delta is drawn when it comes
// (a draft: the first frames of a flow come quickly), a full batch right
// after a draw waits for the fast frame, which draws it as a draft, and
// once draftFor has passed since the last full batch the frames are whole
// again.
func TestPacingFollowsTheInjectedClock(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	t0 := time.Unix(1_700_000_000, 0)
	now := t0
	m.frame.clock = func() time.Time { return now }
	delta := []stream.Event{{Kind: stream.KindTextDelta, Delta: "x"}}

	m.Update(batchMsg{gen: m.turns.cur.gen, batch: stream.Batch{Events: delta}})
	if !m.frame.now.Equal(t0) || !m.frame.draft {
		t.Fatalf("the first delta was not drawn at once, as a draft (frame at %v, draft %v)", m.frame.now.Sub(t0), m.frame.draft)
	}
	now = t0.Add(time.Millisecond)
	m.Update(batchMsg{gen: m.turns.cur.gen, batch: stream.Batch{More: true, Events: delta}})
	if !m.frame.now.Equal(t0) || !m.turns.pacer.Fast() {
		t.Fatal("a full batch right after a draw was drawn at once, not on the fast frame")
	}
	now = t0.Add(pace.FrameInterval)
	m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: now})
	if !m.frame.now.Equal(now) || !m.frame.draft {
		t.Fatal("the frame after a full batch drew no draft")
	}
	now = now.Add(pace.DraftFor)
	m.Update(batchMsg{gen: m.turns.cur.gen, batch: stream.Batch{Events: delta}})
	if !m.frame.now.Equal(now) || m.frame.draft {
		t.Fatal("pace.DraftFor after the last full batch the frame is still a draft")
	}
}

// TestFlowingStreamWakesForStallsOnly: while batches draw the spinner, the
// slow frame tick looks again only after stallCheck (a stream that flows
// wakes the chat with its batches, not with a timer as well); once the
// batches stop, the spinner's frame comes every spinnerStep.
func TestFlowingStreamWakesForStallsOnly(t *testing.T) {
	t.Parallel()
	var waits []time.Duration
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	m.frame.tick = func(_, _ int, d time.Duration) tea.Cmd { waits = append(waits, d); return nil }
	t0 := time.Unix(1_700_000_000, 0)
	m.frame.clock = func() time.Time { return t0 }
	m.Update(batchMsg{gen: m.turns.cur.gen, batch: stream.Batch{Events: []stream.Event{{Kind: stream.KindTextDelta, Delta: "x"}}}})
	waits = nil
	m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: t0.Add(pace.SpinnerStep / 2)})
	if len(waits) != 1 || waits[0] != pace.StallCheck {
		t.Fatalf("after a batch drew the spinner the slow frame comes in %v, want [%v]", waits, pace.StallCheck)
	}
	m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: t0.Add(pace.StallCheck)})
	if len(waits) != 2 || waits[1] != pace.SpinnerStep {
		t.Fatalf("with no batch drawn lately the spinner's frame comes in %v, want %v", waits[1:], pace.SpinnerStep)
	}
}
