package ui

import (
	"bytes"
	"image/color"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/costtest"
	"runnel/stream/sharedtest"
	"runnel/ui/pace"
)

// forgetViews drops every memo the views keep (the transcript's, the
// status bar's, the composer's empty box and the root's screen), so the
// next View draws the same state afresh.
func (m *Model) forgetViews() {
	m.forgetScreen()
	m.statusBar.forget()
	if m.composer.empty != nil {
		m.composer.empty.out = ""
	}
}

// forgetScreen drops the memos that let a View of an unchanged screen
// skip its work: the transcript's, the spinning status line's, and the
// root's parts. The View after it does what a View did before they were
// kept (the slots' lines, the status line of the second and the empty
// composer stay cached, as they were).
func (m *Model) forgetScreen() {
	m.items.transcript.memo.valid = false
	m.statusBar.spunFrom, m.statusBar.spun = "", ""
	m.frame.screen.parts = nil
}

// forget drops the status bar's memos, so its next views draw afresh.
func (b *statusBar) forget() {
	b.statusFor, b.statusDrawn, b.spunFrom, b.spun = statusKey{}, "", "", ""
	b.hintFor, b.hintLine = hintKey{width: -1}, "" // no width is -1
}

// viewMemoFixtures are real streams with markdown, reasoning, hosted and
// local tool panels.
var viewMemoFixtures = []string{
	"vercel__ai/xai-text-reasoning-markdown.sse",
	"vercel__ai/openai-reasoning-12-summary-parts.sse",
	"vercel__ai/openai-web-search-6-calls.sse",
	"pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse",
	"vercel__ai/openai-mcp-tool-two-calls.sse",
}

// TestViewMemoMatchesFresh drives the chat through real recorded streams
// with key presses, resizes, scrolls, mouse drags, spinner ticks,
// superseded ticks and the terminal's background in a random order, and
// after every message compares the View (its memos as the messages left
// them) with a View of the same state drawn afresh (forgetViews). A memo
// that missed a change shows a screen the fresh one does not: planted, an
// Invalidate that does not bump the transcript's version, a key without
// the mouse's selection, a status line kept across spinner frames, a root
// that compares only the first part, and a restyle that bumps nothing
// each fail it.
func TestViewMemoMatchesFresh(t *testing.T) {
	t.Parallel()
	for seed, rel := range viewMemoFixtures {
		t.Run(rel, func(t *testing.T) {
			sse, err := os.ReadFile(sharedtest.Real(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			viewMemoRun(t, sse, uint64(seed))
		})
	}
	t.Run("answer", func(t *testing.T) { viewMemoRun(t, sseAnswer(realAnswers(t, 12<<10), 4), 99) })
}

// viewMemoRun streams sse into a chat as its turn, a few events a batch,
// with other messages between, checking every View (TestViewMemoMatchesFresh).
func viewMemoRun(t *testing.T, sse []byte, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 31))
	m := newTestModel(t, Options{})
	m.turns.gen++
	m.turns.cur = &turn{gen: m.turns.gen, sess: &session.Turn{}, changed: map[*stream.Item]bool{}}
	m.statusBar.status.State = Waiting
	d := stream.NewDecoder(bytes.NewReader(sse))
	now := time.Unix(1_700_000_000, 0)
	m.frame.clock = func() time.Time { return now } // one clock for the frames, the turn's start and the spinner
	m.statusBar.began(now)
	keys := []tea.KeyPressMsg{
		{Code: tea.KeyPgUp}, {Code: tea.KeyPgDown}, {Code: tea.KeyHome}, {Code: tea.KeyEnd},
		{Code: tea.KeyUp}, {Code: tea.KeyDown}, {Code: 'r', Mod: tea.ModCtrl}, {Code: 'o', Mod: tea.ModCtrl},
		keyPress("h"), keyPress("i"), {Code: tea.KeyBackspace}, {Code: tea.KeyF2},
	}
	check := func(step int, what string) {
		t.Helper()
		got := m.View().Content
		again := m.View().Content // a View after no message at all
		m.forgetViews()
		want := m.View().Content
		if got != want || again != want {
			t.Fatalf("step %d (%s): the memoized View differs from a fresh one\nmemo:\n%s\nfresh:\n%s", step, what, got, want)
		}
	}
	check(0, "start")
	steps := 0
	for step := 1; m.turns.cur != nil || step < 60; step++ {
		if step > 100000 {
			t.Fatal("the turn did not end")
		}
		var msg tea.Msg
		switch n := r.IntN(20); {
		case n < 6 && m.turns.cur != nil: // the stream's next batch
			var b stream.Batch
			for k := r.IntN(12) + 1; len(b.Events) < k; {
				if !d.Next() {
					b.Final = true
					break
				}
				b.Events = append(b.Events, *d.Event())
			}
			msg = batchMsg{gen: m.turns.gen, batch: b}
		case n < 10: // a spinner step, a frame, or one that found nothing new
			now = now.Add(time.Duration(r.IntN(3)+1) * pace.SpinnerStep / 2)
			msg = frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: now}
		case n < 11: // a superseded tick
			msg = frameMsg{gen: m.turns.gen - 1, seq: m.turns.pacer.Last() - 1, now: now}
		case n < 15:
			msg = keys[r.IntN(len(keys))]
		case n < 16:
			msg = tea.WindowSizeMsg{Width: 40 + r.IntN(80), Height: 12 + r.IntN(30)}
		case n < 17 && r.IntN(8) == 0: // the terminal's background: dark, then light (every entry drawn again)
			msg = tea.BackgroundColorMsg{Color: []color.Color{color.Black, color.White}[r.IntN(2)]}
		case n < 17:
			msg = resizeMsg{m.frame.resizeSeq} // the debounced reflow
		case n < 18:
			b := tea.MouseWheelUp
			if r.IntN(2) == 0 {
				b = tea.MouseWheelDown
			}
			msg = tea.MouseWheelMsg{Button: b, X: 5, Y: 5}
		default: // a drag that selects
			x, y := r.IntN(m.frame.width), r.IntN(m.frame.height)
			m.Update(tea.MouseClickMsg{Button: tea.MouseLeft, X: x, Y: y})
			msg = tea.MouseMotionMsg{Button: tea.MouseLeft, X: r.IntN(m.frame.width), Y: r.IntN(m.frame.height)}
		}
		m.Update(msg)
		check(step, typeName(msg))
		steps = step
	}
	t.Logf("%d messages", steps)
}

func typeName(msg tea.Msg) string {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return "key " + msg.String()
	case batchMsg:
		return "batch"
	case frameMsg:
		return "frame"
	}
	return "other"
}

// midAnswer is a chat halfway through streaming a 40 KB answer at 120x40,
// its turn in flight and its spinner turning.
func midAnswer(tb testing.TB) *Model {
	m := newTestModel(tb, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	now := time.Unix(1_700_000_000, 0)
	m.frame.clock = func() time.Time { return now }
	m.turns.gen++
	m.turns.cur = &turn{gen: m.turns.gen, sess: &session.Turn{}, changed: map[*stream.Item]bool{}}
	m.statusBar.status.State = Waiting
	m.statusBar.began(now)
	sse := sseAnswer(realAnswers(tb, 40<<10), 4)
	d := stream.NewDecoder(bytes.NewReader(sse[:len(sse)/2]))
	for more := true; more; {
		var b stream.Batch
		for len(b.Events) < 20 {
			if more = d.Next(); !more {
				break
			}
			b.Events = append(b.Events, *d.Event())
		}
		now = now.Add(pace.StreamInterval)
		m.Update(batchMsg{gen: m.turns.gen, batch: b})
		m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: now})
		_ = m.View()
	}
	if m.turns.cur == nil || m.statusBar.status.State == Idle {
		tb.Fatal("the answer is not in flight")
	}
	return m
}

// unchangedViewCost times, in alternating chunks of n, the View after a
// message that changed nothing (a superseded frame tick) with the memos,
// and the same View with this change's memos dropped first (forgetScreen:
// what it cost before), and returns their medians. Only the Views are
// timed, not the messages.
func unchangedViewCost(m *Model, rounds, n int) (memo, full time.Duration) {
	stale := frameMsg{gen: m.turns.gen - 1, now: m.frame.now}
	var ms, fs []time.Duration
	timed := func(forget bool) time.Duration {
		var d time.Duration
		for range n {
			m.Update(stale)
			if forget {
				m.forgetScreen()
			}
			t0 := time.Now()
			benchSink += len(m.View().Content)
			d += time.Since(t0)
		}
		return d / time.Duration(n)
	}
	for i := range rounds {
		if i%2 == 0 {
			ms, fs = append(ms, timed(false)), append(fs, timed(true))
		} else {
			fs, ms = append(fs, timed(true)), append(ms, timed(false))
		}
	}
	return median(ms), median(fs)
}

// BenchmarkViewUnchanged is the View after a message that changed nothing,
// mid-answer, as a ratio to the same View without this change's memos
// (x-unmemoized), and to the median View of a frame that drew new text of
// a paced answer at 120x40 (x-changed), in the same run.
func BenchmarkViewUnchanged(b *testing.B) {
	m := midAnswer(b)
	memo, full := unchangedViewCost(m, 3, 200)
	var changed []time.Duration
	sse := sseAnswer(realAnswers(b, 12<<10), 4)
	defer func(v func(*Model)) { chatView = v }(chatView)
	chatView = func(m *Model) {
		t0 := time.Now()
		_ = m.View()
		changed = append(changed, time.Since(t0))
	}
	b.ResetTimer()
	for b.Loop() {
		memo, full = unchangedViewCost(m, 5, 200)
		p := newTestModel(b, Options{})
		p.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		chatFrames(b, p, sse, 200)
	}
	c := median(changed)
	b.ReportMetric(float64(memo.Nanoseconds()), "ns/view-unchanged")
	b.ReportMetric(float64(full.Nanoseconds()), "ns/view-unmemoized")
	b.ReportMetric(float64(c.Nanoseconds()), "ns/view-changed")
	b.ReportMetric(float64(memo)/float64(full), "x-unmemoized")
	b.ReportMetric(float64(memo)/float64(c), "x-changed")
}

// TestUnchangedViewIsCheap holds the memos' gain: a View after a message
// that changed nothing costs at most half of drawing the same screen
// without them. Measured 0.27-0.43x with four busy loops on two cores
// (what is left is mostly the three copies of the textarea its getters
// make), and 0.56-0.70x with the transcript's memo broken. It is timed by
// costtest, on the thread's CPU clock in alternating samples of tens of
// ms, so a busy machine's preempted slices don't decide it; only the Views
// are timed, not the messages before them.
func TestUnchangedViewIsCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	costtest.SkipIfRace(t)
	m := midAnswer(t)
	stale := frameMsg{gen: m.turns.gen - 1, now: m.frame.now}
	view := func(forget bool) costtest.Work {
		return func() time.Duration {
			m.Update(stale)
			if forget {
				m.forgetScreen()
			}
			t0 := costtest.Now()
			benchSink += len(m.View().Content)
			return costtest.Since(t0)
		}
	}
	costtest.AtMost(t, "an unchanged View, against drawing it without the memos", view(true), view(false), 0.5)
}
