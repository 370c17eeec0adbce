package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigAnswerSSE is a response streaming a markdown-ish text of about n bytes
// in 4-byte deltas, closed the way OpenAI closes one: output_text.done,
// content_part.done, output_item.done and response.completed each carry the
// whole text again. It returns the deltas' part and the closing part apart.
func bigAnswerSSE(n int) (deltas, closing []byte, text string) {
	var doc strings.Builder
	for i := 0; doc.Len() < n; i++ {
		fmt.Fprintf(&doc, "## Section %d\n\nSome \"quoted\" text with `code` and a\ttab, line %d.\n\n- item <a>\n- item & b\n\n", i, i)
	}
	text = doc.String()
	var b bytes.Buffer
	ev := func(s string) { b.WriteString("data: " + s + "\n\n") }
	ev(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_b","status":"in_progress","output":[]}}`)
	ev(`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"message","id":"msg_b","role":"assistant","status":"in_progress","content":[]}}`)
	ev(`{"type":"response.content_part.added","sequence_number":2,"output_index":0,"content_index":0,"item_id":"msg_b","part":{"type":"output_text","text":"","annotations":[]}}`)
	seq := 3
	for i := 0; i < len(text); i += 4 {
		d, _ := json.Marshal(text[i:min(i+4, len(text))])
		ev(fmt.Sprintf(`{"type":"response.output_text.delta","sequence_number":%d,"output_index":0,"content_index":0,"item_id":"msg_b","delta":%s}`, seq, d))
		seq++
	}
	deltas = append([]byte(nil), b.Bytes()...)
	b.Reset()
	full, _ := json.Marshal(text)
	ev(fmt.Sprintf(`{"type":"response.output_text.done","sequence_number":%d,"output_index":0,"content_index":0,"item_id":"msg_b","text":%s}`, seq, full))
	ev(fmt.Sprintf(`{"type":"response.content_part.done","sequence_number":%d,"output_index":0,"content_index":0,"item_id":"msg_b","part":{"type":"output_text","text":%s,"annotations":[]}}`, seq+1, full))
	item := fmt.Sprintf(`{"type":"message","id":"msg_b","role":"assistant","status":"completed","content":[{"type":"output_text","text":%s,"annotations":[]}]}`, full)
	ev(fmt.Sprintf(`{"type":"response.output_item.done","sequence_number":%d,"output_index":0,"item":%s}`, seq+2, item))
	ev(fmt.Sprintf(`{"type":"response.completed","sequence_number":%d,"response":{"id":"resp_b","status":"completed","output":[%s],"usage":{"input_tokens":10,"output_tokens":100000,"total_tokens":100010}}}`, seq+3, item))
	b.WriteString("data: [DONE]\n\n")
	closing = append([]byte(nil), b.Bytes()...)
	return deltas, closing, text
}

// BenchmarkClosingEvents times decoding and accumulating the four closing
// events of a 40 KB and a 400 KB answer (each repeating the whole text;
// the 40 KB one also through a Redactor, as the chat reads) against the
// 10,000 or 100,000 deltas that brought the text, in the same run:
// x-deltas is the closing events' time as a share of the deltas' (what the
// chat pays after the last delta, as a fraction of what it paid for the
// answer).
func BenchmarkClosingEvents(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
		r    *Redactor
	}{
		{"40KB", 40 << 10, nil},
		{"400KB", 400 << 10, nil},
		{"40KB-redacted", 40 << 10, NewRedactor(testKey)}, // as the chat reads: hiding its API key
	} {
		b.Run(c.name, func(b *testing.B) { benchClosing(b, c.n, c.r) })
	}
}

func benchClosing(b *testing.B, n int, r *Redactor) {
	deltas, closing, text := bigAnswerSSE(n)
	var tDeltas, tClosing time.Duration
	for b.Loop() {
		var acc Accumulator
		t0 := time.Now()
		d := NewDecoder(bytes.NewReader(deltas))
		d.SetRedactor(r)
		for d.Next() {
			acc.Apply(d.Event())
		}
		t1 := time.Now()
		d = NewDecoder(bytes.NewReader(closing))
		d.SetRedactor(r)
		for d.Next() {
			acc.Apply(d.Event())
		}
		acc.Finish()
		t2 := time.Now()
		tDeltas += t1.Sub(t0)
		tClosing += t2.Sub(t1)
		if got := acc.Current().Items[0].Text(); got != text {
			b.Fatalf("text differs: %d bytes, want %d", len(got), len(text))
		}
	}
	b.ReportMetric(float64(tClosing)/float64(tDeltas), "x-deltas")
	b.ReportMetric(float64(tClosing)/float64(b.N)/1e6, "ms-closing")
	b.ReportMetric(float64(tDeltas)/float64(b.N)/1e6, "ms-deltas")
}
