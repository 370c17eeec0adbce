package ui

import (
	"bytes"
	"testing"
	"time"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/pace"
)

// chatFrames feeds a chat the events of sse as the chat takes them from its
// stream: at rate events a second, each streamInterval of a fake clock
// brings the events that arrived meanwhile as one batch, which the chat
// draws when it comes; at rate 0 (full speed) every batch is as full as the
// stream's bound lets it be. The spinner's slow frame tick comes every
// spinnerStep. Bubble Tea calls View after every Update, so one follows each
// message. It returns the batches drawn.
func chatFrames(tb testing.TB, m *Model, sse []byte, rate int) int {
	m.turns.gen++
	m.turns.cur = &turn{gen: m.turns.gen, sess: &session.Turn{}, changed: map[*stream.Item]bool{}}
	m.statusBar.status.State = Waiting
	d := stream.NewDecoder(bytes.NewReader(sse))
	now := time.Unix(1_700_000_000, 0)
	perBatch := 4096 // the stream's batch bound: full speed
	frames, arrived, taken := 0, 0.0, 0
	nextSpin := now.Add(pace.SpinnerStep)
	more := true
	for more {
		if rate > 0 {
			arrived += float64(rate) * pace.StreamInterval.Seconds()
			perBatch = int(arrived) - taken
		}
		var b stream.Batch
		for len(b.Events) < perBatch {
			if more = d.Next(); !more {
				b.Final = true
				break
			}
			b.Events = append(b.Events, *d.Event())
		}
		taken += len(b.Events)
		if len(b.Events) > 0 || b.Final {
			m.Update(batchMsg{gen: m.turns.gen, batch: b})
			chatView(m)
			frames++
			if chatFramesHook != nil {
				chatFramesHook()
			}
		}
		if rate == 0 {
			continue
		}
		now = now.Add(pace.StreamInterval)
		for !now.Before(nextSpin) && more {
			m.Update(frameMsg{gen: m.turns.gen, seq: m.turns.pacer.Last(), now: nextSpin})
			_ = m.View()
			nextSpin = nextSpin.Add(pace.SpinnerStep)
		}
	}
	if m.turns.cur != nil {
		tb.Fatal("the turn did not end")
	}
	return frames
}

// chatView is Bubble Tea's View call after a batch's Update (a benchmark
// that times the chat's View or keeps its frames replaces it).
var chatView = func(m *Model) { _ = m.View() }

// chatFramesHook, when not nil, is called after every batch chatFrames
// draws (a test measuring the heap as an answer streams).
var chatFramesHook func()

// BenchmarkChatPaced is a 40 KB answer streamed at 200 deltas a second
// (10,000 4-byte deltas, 50 s of a fake clock, one frame per streamInterval): the chat's
// CPU per delta, decoding included, against the same deltas at full speed
// in the same run (x-unpaced: how much more a paced delta costs, which is
// what frames cost while a model streams at a reading pace).
func BenchmarkChatPaced(b *testing.B) {
	doc := realAnswers(b, 40<<10)
	sse := sseAnswer(doc, 4)
	deltas := bytes.Count(sse, []byte("output_text.delta"))
	base := newTestModel(b, Options{})
	var paced, unpaced time.Duration
	frames := 0
	for b.Loop() {
		m := newTestModel(b, Options{})
		m.frame.styles = base.frame.styles
		t0 := time.Now()
		frames = chatFrames(b, m, sse, 200)
		t1 := time.Now()
		m = newTestModel(b, Options{})
		m.frame.styles = base.frame.styles
		t2 := time.Now()
		chatFrames(b, m, sse, 0)
		unpaced += time.Since(t2)
		paced += t1.Sub(t0)
	}
	n := float64(b.N) * float64(deltas)
	b.ReportMetric(float64(paced)/n/1e3, "us/delta-paced")
	b.ReportMetric(float64(unpaced)/n/1e3, "us/delta-unpaced")
	b.ReportMetric(float64(paced)/float64(unpaced), "x-unpaced")
	b.ReportMetric(float64(frames), "frames")
	b.ReportMetric(float64(deltas), "deltas")
}
