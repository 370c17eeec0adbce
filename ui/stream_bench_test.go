package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/theme"
	"runnel/ui/markdown"
	"runnel/ui/pace"
)

// realAnswers concatenates the final markdown answers of the real fixtures
// until n bytes, cut at a paragraph.
func realAnswers(b testing.TB, n int) string {
	var doc strings.Builder
	for doc.Len() < n {
		for _, rel := range []string{
			"vercel__ai/lmstudio-basic-markdown.sse",
			"vercel__ai/xai-text-reasoning-markdown.sse",
			"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse",
			"vercel__ai/openai-mcp-tool-two-calls.sse",
			"pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse",
		} {
			data, err := os.ReadFile(sharedtest.Real(b, rel))
			if err != nil {
				b.Fatal(err)
			}
			d := stream.NewDecoder(bytes.NewReader(data))
			for d.Next() {
				if ev := d.Event(); ev.Kind == stream.KindTextDone {
					doc.WriteString(ev.Text + "\n\n")
				}
			}
		}
	}
	s := doc.String()[:n]
	return s[:strings.LastIndex(s, "\n\n")+1]
}

// sseAnswer is a response streaming doc in deltas of size bytes.
func sseAnswer(doc string, size int) []byte {
	var b bytes.Buffer
	ev := func(s string) { b.WriteString("data: " + s + "\n\n") }
	ev(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_b","status":"in_progress","output":[]}}`)
	ev(`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"message","id":"msg_b","role":"assistant","status":"in_progress","content":[]}}`)
	seq := 2
	for i, next := 0, 0; i < len(doc); i = next {
		// A delta ends at a rune boundary, as a JSON string must: a rune
		// cut in two would arrive as two U+FFFD and change the text.
		next = min(i+size, len(doc))
		for next < len(doc) && !utf8.RuneStart(doc[next]) {
			next++
		}
		d, _ := json.Marshal(doc[i:next])
		ev(fmt.Sprintf(`{"type":"response.output_text.delta","sequence_number":%d,"output_index":0,"content_index":0,"item_id":"msg_b","delta":%s}`, seq, d))
		seq++
	}
	full, _ := json.Marshal(doc)
	ev(fmt.Sprintf(`{"type":"response.output_text.done","sequence_number":%d,"output_index":0,"content_index":0,"text":%s}`, seq, full))
	ev(fmt.Sprintf(`{"type":"response.output_item.done","sequence_number":%d,"output_index":0,"item":{"type":"message","id":"msg_b","role":"assistant","status":"completed","content":[{"type":"output_text","text":%s,"annotations":[]}]}}`, seq+1, full))
	ev(fmt.Sprintf(`{"type":"response.completed","sequence_number":%d,"response":{"id":"resp_b","status":"completed","output":[]}}`, seq+2))
	return b.Bytes()
}

// streamedText is the text of sse's deltas, joined.
func streamedText(sse []byte) string {
	var b strings.Builder
	d := stream.NewDecoder(bytes.NewReader(sse))
	for d.Next() {
		if ev := d.Event(); ev.Kind == stream.KindTextDelta {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

// BenchmarkChatStreamRender is the production path of a streamed answer: a
// 64 KB markdown answer in 4-byte deltas is decoded, handed to the chat
// model in batches of 166 events (5,000 deltas/s coalesced to 30 frames/s),
// each batch followed by a frame tick and a View (Bubble Tea calls View after
// every Update), then the final full render runs as the Cmd would. It reports
// the total against one glamour render of the final document, timed in the
// same run (x-one-render).
func BenchmarkChatStreamRender(b *testing.B) {
	const perFrame = 5000 / 30 // 5,000 deltas/s at the chat's 30 frames/s
	doc := realAnswers(b, 64<<10)
	sse := sseAnswer(doc, 4)
	st := theme.New(theme.Dark())
	gl, err := glamour.NewTermRenderer(glamour.WithStyles(st.Glamour()), glamour.WithWordWrap(99))
	if err != nil {
		b.Fatal(err)
	}
	r, err := markdown.NewRenderer(st.Glamour(), 99)
	if err != nil {
		b.Fatal(err)
	}
	if got := streamedText(sse); got != doc {
		b.Fatalf("the deltas do not add up to the answer (%d bytes, want %d)", len(got), len(doc))
	}
	var chat, one, glam, views, finals time.Duration
	frames := 0
	styles := newTestModel(b, Options{}).frame.styles
	for b.Loop() {
		// The chat is open before the answer comes: its styles, and so its
		// markdown renderer, exist already.
		m := newTestModel(b, Options{})
		m.frame.styles = styles
		t0 := time.Now()
		m.turns.gen++
		t := &turn{gen: m.turns.gen, sess: &session.Turn{}, changed: map[*stream.Item]bool{}}
		m.turns.cur = t
		d := stream.NewDecoder(bytes.NewReader(sse))
		var batch []stream.Event
		now := time.Unix(1_700_000_000, 0)
		var final tea.Cmd
		flush := func(last bool) {
			m.Update(batchMsg{gen: m.turns.gen, batch: stream.Batch{Events: batch}})
			batch = nil
			now = now.Add(pace.FrameInterval)
			_, cmd := m.Update(frameMsg{gen: m.turns.gen, now: now})
			if cmd != nil {
				final = cmd
			}
			tv := time.Now()
			_ = m.View()
			views += time.Since(tv)
			frames++
		}
		frames = 0
		for d.Next() {
			batch = append(batch, *d.Event())
			if len(batch) == perFrame {
				flush(false)
			}
		}
		flush(true)
		// the final full render the frame scheduled (a tea.Cmd off the UI goroutine)
		tf := time.Now()
		for _, e := range m.items.entries {
			if e.it.Type == "message" {
				if msg := m.items.finalRender(e)(); msg != nil {
					m.Update(msg)
				}
			}
		}
		_ = final
		_ = m.View()
		finals += time.Since(tf)
		chat += time.Since(t0)

		t1 := time.Now()
		if _, err := r.Render(doc); err != nil {
			b.Fatal(err)
		}
		one += time.Since(t1)

		t2 := time.Now()
		if _, err := gl.Render(doc); err != nil {
			b.Fatal(err)
		}
		glam += time.Since(t2)
	}
	b.ReportMetric(float64(chat)/float64(glam), "x-glamour")
	b.ReportMetric(float64(chat)/float64(one), "x-one-render")
	b.ReportMetric(float64(glam)/float64(b.N)/1e6, "ms-glamour")
	b.ReportMetric(float64(chat)/float64(b.N)/1e6, "ms-chat")
	b.ReportMetric(float64(one)/float64(b.N)/1e6, "ms-one-render")
	b.ReportMetric(float64(frames), "frames")
	b.ReportMetric(float64(views)/float64(b.N)/1e6, "ms-views")
	b.ReportMetric(float64(finals)/float64(b.N)/1e6, "ms-final")
}
