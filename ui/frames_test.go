package ui

import (
	"bytes"
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

// TestIdleSchedulesNoFrames: once a turn has ended and its last frame is
// drawn, nothing is scheduled: no frame tick, no spinner, no blink (idle at
// the prompt costs only Bubble Tea's own renderer ticker).
func TestIdleSchedulesNoFrames(t *testing.T) {
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	pump(t, m, nil)
	_, cmd := m.Update(frameMsg{gen: m.gen, seq: m.tickSeq, now: m.frame.now.Add(frameInterval)})
	if m.live || m.waitTicking {
		t.Errorf("a tick is still scheduled at the prompt (live %v, wait %v)", m.live, m.waitTicking)
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
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	b, ok := m.cur.handle.Next()
	if !ok {
		t.Fatal("no batch")
	}
	m.Update(batchMsg{gen: m.cur.gen, batch: b})
	if m.live && m.tickFast {
		t.Error("a batch scheduled a fast frame tick: it is drawn when it comes")
	}
	if m.cur != nil && !m.cur.waiting {
		t.Error("the next batch was not asked for")
	}
	seq := m.tickSeq
	m.scheduleFrame(true)
	if _, cmd := m.Update(frameMsg{gen: m.gen, seq: seq}); cmd != nil || !m.live {
		t.Error("a superseded tick was obeyed")
	}
}

// TestFirstDeltaIsNotHeldForTheFrame: until a delta has been drawn, the
// turn takes each batch as it comes (the first text shows at once); after
// it, batches wait a streamInterval (a frame). The recording's events come
// one batch each.
func TestFirstDeltaIsNotHeldForTheFrame(t *testing.T) {
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	data, err := os.ReadFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse"))
	if err != nil {
		t.Fatal(err)
	}
	d := stream.NewDecoder(bytes.NewReader(data))
	now := time.Unix(1_700_000_000, 0)
	for m.cur != nil && !m.cur.delta {
		if !m.cur.due(now).IsZero() {
			t.Fatal("a batch before the first delta waits for the frame")
		}
		if !d.Next() {
			t.Fatal("the recording ended before its first delta")
		}
		m.cur.waiting = false
		m.Update(batchMsg{gen: m.cur.gen, batch: stream.Batch{Events: []stream.Event{*d.Event()}}})
	}
	if m.cur == nil {
		t.Fatal("the turn ended at its first delta")
	}
	if got := m.cur.due(now); !got.Equal(now.Add(streamInterval)) {
		t.Errorf("after the first delta the next batch is due at %v, want a frame later", got.Sub(now))
	}
}

// TestBurstIsDrawnEveryBurstDraw: a full batch (a stream faster than the
// frames) is drawn at once when the last draw is burstDraw old, and waits
// for the frame when it is newer.
func TestBurstIsDrawnEveryBurstDraw(t *testing.T) {
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	m.cur.delta = true // past the first delta
	m.cur.waiting = false
	full := stream.Batch{More: true, Events: []stream.Event{{Kind: stream.KindTextDelta, Delta: "x"}}}

	recent := time.Now()
	m.cur.drawn = recent
	m.Update(batchMsg{gen: m.cur.gen, batch: full})
	if !m.cur.drawn.Equal(recent) || !m.tickFast {
		t.Error("a full batch right after a draw was drawn at once, not on the frame")
	}
	m.cur.waiting = false
	old := time.Now().Add(-burstDraw)
	m.cur.drawn = old
	m.Update(batchMsg{gen: m.cur.gen, batch: full})
	if !m.cur.drawn.After(old) {
		t.Error("a full batch burstDraw after the last draw waited for the frame")
	}
	// in a burst the rest is asked for at once (the reader must not wait
	// for a frame with the end of a fast stream); after it, a frame later
	if !m.cur.due(time.Now()).IsZero() {
		t.Error("after a full batch the next one waits for the frame")
	}
	// the reader caught up within the burst: that batch is drawn on the
	// frame as well, not at once
	m.cur.waiting = false
	drawn := m.cur.drawn
	m.Update(batchMsg{gen: m.cur.gen, batch: stream.Batch{Events: full.Events}})
	if !m.cur.drawn.Equal(drawn) || !m.tickFast {
		t.Error("the last batch of a burst, right after a draw, was drawn at once")
	}
	if now := time.Now(); !m.cur.due(now).Equal(now.Add(streamInterval)) {
		t.Error("after the burst the next batch does not wait for the frame")
	}
	// a batch that closes the text is drawn at once, burst or not: the end
	// of a fast stream shows before its closing events have all been read
	m.cur.waiting, m.cur.burst = false, true
	recent = time.Now().Add(-time.Millisecond)
	m.cur.drawn = recent
	closing := stream.Batch{More: true, Events: []stream.Event{{Kind: stream.KindTextDone, OutputIndex: 99, HasIndex: true}}}
	m.Update(batchMsg{gen: m.cur.gen, batch: closing})
	if m.cur == nil || m.cur.drawn.Equal(recent) {
		t.Error("the batch that closed the text waited for the frame")
	}
}

// TestFlowingStreamWakesForStallsOnly: while batches draw the spinner, the
// slow frame tick looks again only after stallCheck (a stream that flows
// wakes the chat with its batches, not with a timer as well); once the
// batches stop, the spinner's frame comes every spinnerStep.
func TestFlowingStreamWakesForStallsOnly(t *testing.T) {
	var waits []time.Duration
	defer func(f func(int, int, time.Duration) tea.Cmd) { frameTick = f }(frameTick)
	frameTick = func(_, _ int, d time.Duration) tea.Cmd { waits = append(waits, d); return nil }

	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	m.live, m.tickFast, waits = false, false, nil
	m.cur.drawn = time.Now()
	m.Update(frameMsg{gen: m.gen, seq: m.tickSeq, now: time.Now()})
	if len(waits) != 1 || waits[0] != stallCheck {
		t.Fatalf("after a batch drew the spinner the slow frame comes in %v, want [%v]", waits, stallCheck)
	}
	m.cur.drawn = time.Now().Add(-stallCheck)
	m.Update(frameMsg{gen: m.gen, seq: m.tickSeq, now: time.Now()})
	if len(waits) != 2 || waits[1] != spinnerStep {
		t.Fatalf("with no batch drawn lately the spinner's frame comes in %v, want %v", waits[1:], spinnerStep)
	}
}

// TestFullBatchesDraftForDraftFor: a full batch (a stream outrunning the
// frames) makes the frames drafts (block.Context.Draft) until draftFor has
// passed since the last one; batches that are not full never do (a paced
// stream keeps its code coloured as it comes).
func TestFullBatchesDraftForDraftFor(t *testing.T) {
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	m.cur.delta, m.cur.waiting = true, false
	delta := []stream.Event{{Kind: stream.KindTextDelta, Delta: "x"}}
	m.Update(batchMsg{gen: m.cur.gen, batch: stream.Batch{Events: delta}})
	if m.frame.draft {
		t.Fatal("a batch that was not full made a draft")
	}
	m.cur.waiting = false
	m.cur.drawn = time.Now().Add(-burstDraw) // drawn at once
	m.Update(batchMsg{gen: m.cur.gen, batch: stream.Batch{More: true, Events: delta}})
	if !m.frame.draft {
		t.Fatal("a full batch drew no draft")
	}
	m.cur.waiting = false
	m.cur.drawn = time.Now().Add(-burstDraw)
	m.Update(batchMsg{gen: m.cur.gen, batch: stream.Batch{Events: delta}})
	if !m.frame.draft {
		t.Fatal("the batch after a full one drew no draft")
	}
	m.cur.fullAt = time.Now().Add(-draftFor)
	m.cur.drawn = time.Now().Add(-spinnerStep) // the frame draws
	m.Update(frameMsg{gen: m.gen, seq: m.tickSeq, now: time.Now()})
	if m.frame.draft {
		t.Fatal("still a draft draftFor after the last full batch")
	}
}
