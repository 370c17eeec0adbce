package ui

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/costtest"
)

// codeAnswer is an answer of n bytes as a model writes a long one: the
// real answers' markdown with a Go block after every 2 KB of it (the
// drafts of a fast stream leave code uncoloured: its end colours it).
func codeAnswer(tb testing.TB, n int) string {
	prose := realAnswers(tb, 64<<10)
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		p := prose[(i*2048)%len(prose):]
		p = p[:min(len(p), 2048)]
		if k := strings.LastIndex(p, "\n\n"); k > 0 {
			p = p[:k+2]
		}
		b.WriteString(p)
		b.WriteString("```go\n")
		for j := range 12 {
			fmt.Fprintf(&b, "func step%d_%d(x int) (int, error) { return x*%d + len(%q), nil } // line %d\n", i, j, j+1, "text", j)
		}
		b.WriteString("```\n\n")
	}
	return b.String() + "The end of the answer.\n"
}

// endPath is what the UI goroutine does at the end of an answer streamed
// at full speed, as the real stream hands it over: 512-delta batches, each
// drawn as a draft on a frame tick, then the last deltas with the text's
// end, the item's end (its final render asked for and answered before the
// response's end comes, as Bubble Tea delivers it when the stream is
// slower than the render), the response's end, and the stream's end. Each
// message is an Update and a View, as Bubble Tea makes them. frame is the
// mean time of the frames before the end (a batch, its frame tick and
// the View); end is the time from the batch with the last delta to the
// View after the stream's end (the frame that shows the turn ended); all
// on the UI goroutine, timed by clock.
func endPath(tb testing.TB, m *Model, sse []byte, clock func() time.Duration) (frame, end time.Duration) {
	runtime.LockOSThread() // clock may be the thread's CPU time (costtest.Now)
	defer runtime.UnlockOSThread()
	m.turns.gen++
	// a stream that has ended: the batches the pacer asks of it are not
	// the ones fed here, and are dropped
	m.turns.cur = &turn{gen: m.turns.gen, sess: &session.Turn{}, changed: map[*stream.Item]bool{},
		handle: stream.StartReader(context.Background(), strings.NewReader(""), 0)}
	m.statusBar.status.State = Waiting
	finals := make(chan finalMsg, 16)
	var deltas, trailer []stream.Event
	d := stream.NewDecoder(bytes.NewReader(sse))
	for d.Next() {
		switch ev := d.Event(); {
		case ev.Kind == stream.KindTextDelta && len(trailer) == 0:
			deltas = append(deltas, *ev)
		case len(deltas) == 0:
			m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Events: []stream.Event{*ev}}})
		default:
			trailer = append(trailer, *ev)
		}
	}
	step := func(msg tea.Msg) time.Duration {
		t0 := clock()
		_, cmd := m.Update(msg)
		_ = m.View()
		t := clock() - t0
		finalRenders(cmd, finals)
		return t
	}
	const perBatch = 512 // the stream's bound (stream.maxBatchEvents)
	n := 0
	for len(deltas) > perBatch {
		frame += step(batchMsg{gen: m.turns.gen, batch: stream.Batch{More: true, Events: deltas[:perBatch]}})
		frame += step(frameMsg{gen: m.turns.gen, now: m.frame.clock()})
		deltas, n = deltas[perBatch:], n+1
	}
	frame /= time.Duration(max(n, 1))
	// the last deltas come with the text's end; every later event is a
	// batch of its own (each holds the whole text: past the byte bound)
	end += step(batchMsg{gen: m.turns.gen, batch: stream.Batch{Events: append(deltas, trailer[0])}})
	for _, ev := range trailer[1:] {
		end += step(batchMsg{gen: m.turns.gen, batch: stream.Batch{Events: []stream.Event{ev}}})
		if ev.Kind != stream.KindItemDone {
			continue
		}
		select {
		case msg := <-finals:
			end += step(msg)
		case <-time.After(time.Minute):
			tb.Fatal("no final render came")
		}
	}
	end += step(batchMsg{gen: m.turns.gen, batch: stream.Batch{Final: true}})
	if m.turns.cur != nil {
		tb.Fatal("the turn did not end")
	}
	return frame, end
}

// finalRenders runs cmd's Cmds, each on a goroutine of its own as Bubble
// Tea does, and sends the final renders they answer to out; every other
// message is dropped.
func finalRenders(cmd tea.Cmd, out chan<- finalMsg) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				finalRenders(c, out)
			}
		case finalMsg:
			out <- msg
		}
	}()
}

// BenchmarkTurnEnd is the end of a fast answer with code (40 KB and 400
// KB, endPath): the UI goroutine's time from the batch with the last
// delta to the frame that shows the turn ended, as a ratio to one frame
// of the same stream in the same run (x-frame). The end used to colour
// every drafted code block on the UI goroutine (the View after the final
// render) before the response's end could be drawn.
func BenchmarkTurnEnd(b *testing.B) {
	for _, n := range []int{40 << 10, 400 << 10} {
		sse := sseAnswer(codeAnswer(b, n), 4)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			var frame, end time.Duration
			for b.Loop() {
				f, e := endPath(b, newTestModel(b, Options{}), sse, costtest.Now)
				frame, end = frame+f, end+e
			}
			b.ReportMetric(float64(end)/float64(frame), "x-frame")
			b.ReportMetric(float64(end)/float64(b.N)/1e6, "ms-end")
			b.ReportMetric(float64(frame)/float64(b.N)/1e6, "ms-frame")
		})
	}
}

// TestFastAnswerEndsWithinFrames guards the end of a fast answer with
// code (endPath, 100 KB): the UI goroutine's time from the last delta to
// the frame that shows the turn ended is at most maxEndFrames frames of
// the same stream, in the same run; the best of three runs counts (a
// busy machine stretches some). Colouring the drafted code on the UI
// goroutine at the end read 310-380 frames here; off it, 17-31.
func TestFastAnswerEndsWithinFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: streams 100 KB three times")
	}
	const maxEndFrames = 50
	sse := sseAnswer(codeAnswer(t, 100<<10), 4)
	best := math.Inf(1)
	for range 3 {
		frame, end := endPath(t, newTestModel(t, Options{}), sse, costtest.Now)
		best = min(best, float64(end)/float64(frame))
		t.Logf("end %v, a frame %v: %.1f frames", end, frame, float64(end)/float64(frame))
	}
	if best > maxEndFrames {
		t.Fatalf("the end took %.0f frames on the UI goroutine, more than %d", best, maxEndFrames)
	}
}
