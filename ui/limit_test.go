package ui

import (
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
)

// flood is an SSE stream of one message whose text deltas never end, made as
// it is read.
type flood struct {
	head, delta string
	buf         []byte
}

func newFlood() *flood { return newFloodOf("All work and no play makes Jack a dull boy. ") }

// newFloodOf floods deltas of text (JSON-escaped already).
func newFloodOf(text string) *flood {
	return &flood{
		head: `data: {"type":"response.created","response":{"id":"resp_flood","status":"in_progress","output":[]}}` + "\n\n" +
			`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_flood","role":"assistant","content":[]}}` + "\n\n",
		delta: `data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"` + text + `"}` + "\n\n",
	}
}

func (f *flood) Read(p []byte) (int, error) {
	if f.head != "" {
		n := copy(p, f.head)
		f.head = f.head[n:]
		return n, nil
	}
	for len(f.buf) < len(p) {
		f.buf = append(f.buf, f.delta...)
	}
	n := copy(p, f.buf)
	f.buf = f.buf[:copy(f.buf, f.buf[n:])]
	return n, nil
}

func screenWords(m *Model) string { return strings.Join(strings.Fields(plain(m)), " ") }

// TestModelEndlessStreamStopsAtTheLimit: a stream that never ends, through the
// chat model with a 256 KiB limit: reading stops, the text up to the limit is
// kept and shown, one notice names the limit and the config key, and memory
// stays bounded.
func TestModelEndlessStreamStopsAtTheLimit(t *testing.T) {
	const limit = 256 << 10
	m := newTestModel(t, Options{Replay: newFlood(), MaxResponseBytes: limit})
	m.Init()
	var peak uint64
	frames := 0
	pump(t, m, func() {
		frames++
		if frames%8 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	})
	if len(m.items.answers) != 1 || len(m.items.answers[0]) != limit || !strings.HasPrefix(m.items.answers[0], "All work and no play") {
		t.Fatalf("kept %d answers; want one of %d bytes", len(m.items.answers), limit)
	}
	s := screenWords(m)
	for _, want := range []string{"passed 256 KiB of text", "raise max_response_bytes in the config"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, plain(m))
		}
	}
	if strings.Count(s, "max_response_bytes") != 1 || strings.Contains(s, "stream broken") || strings.Contains(s, "ended before") {
		t.Errorf("want exactly one notice about the limit:\n%s", plain(m))
	}
	if peak > 256<<20 {
		t.Errorf("heap in use reached %d MiB for a 256 KiB limit", peak>>20)
	}
}

// TestModelEscStopsAFloodWithinAFrame: with the stream pushing as fast as it
// can, esc cancels the reader at once, nothing that arrives after it is
// applied, and the turn ends on the next batch the stream hands over (its
// final one), so the very next frame shows it stopped.
func TestModelEscStopsAFloodWithinAFrame(t *testing.T) {
	m := newTestModel(t, Options{Replay: newFlood()})
	m.Init()
	for range 5 { // a few frames of streaming
		b, _ := m.turns.cur.handle.Next()
		m.Update(batchMsg{gen: m.turns.cur.gen, batch: b})
		m.Update(frameMsg{gen: m.turns.gen})
	}
	it := m.turns.cur.acc.Current().Items[0]
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.turns.cur == nil || !m.turns.cur.stopped {
		t.Fatal("esc did not stop the turn")
	}
	kept := len(it.Text())
	t0 := m.turns.cur
	// a batch already in the queue when esc came is not applied
	late := stream.Event{Kind: stream.KindTextDelta, Type: "response.output_text.delta", HasIndex: true, Delta: "LATE"}
	m.Update(batchMsg{gen: t0.gen, batch: stream.Batch{Events: []stream.Event{late}}})
	for n := 0; m.turns.cur != nil; n++ {
		if n == 2 { // the batch being offered when esc came, then the final one
			t.Fatalf("the turn still runs %d batches after esc", n)
		}
		b, ok := t0.handle.Next() // as the chat asks (waitBatch): no reader ahead of it
		if !ok {
			b = stream.Batch{Final: true}
		}
		m.Update(batchMsg{gen: t0.gen, batch: b})
	}
	if got := len(it.Text()); got != kept {
		t.Errorf("%d bytes were applied after esc", got-kept)
	}
	if _, ok := t0.handle.Next(); ok {
		t.Error("the stream hands over batches after its final one")
	}
	if s := screenWords(m); !strings.Contains(s, "stopped") {
		t.Errorf("no stopped notice:\n%s", plain(m))
	}
}
