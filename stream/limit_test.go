package stream_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"runnel/stream"
)

// endless is an SSE stream of one message whose text deltas never end: a
// response.created, an output_item.added, then text deltas for ever.
type endless struct {
	head  string
	delta string // one whole delta event
	buf   []byte
	sent  int64 // delta text bytes generated
	text  int   // text bytes per delta
}

func newEndless(text string) *endless {
	return &endless{
		head: `data: {"type":"response.created","response":{"id":"resp_inf","status":"in_progress","output":[]}}` + "\n\n" +
			`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_inf","role":"assistant","content":[]}}` + "\n\n",
		delta: `data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"` + text + `"}` + "\n\n",
		text:  len(text),
	}
}

func (e *endless) Read(p []byte) (int, error) {
	if e.head != "" {
		n := copy(p, e.head)
		e.head = e.head[n:]
		return n, nil
	}
	for len(e.buf) < len(p) {
		e.buf = append(e.buf, e.delta...)
		e.sent += int64(e.text)
	}
	n := copy(p, e.buf)
	e.buf = e.buf[:copy(e.buf, e.buf[n:])]
	return n, nil
}

// consume reads h to the end the way the chat and -p do: every event is
// applied, and a *LimitError cancels the stream.
func consume(t *testing.T, h *stream.Handle, acc *stream.Accumulator) (events int, final error) {
	t.Helper()
	for b := range h.Chan() {
		for i := range b.Events {
			_, err := acc.Apply(&b.Events[i])
			events++
			var le *stream.LimitError
			if errors.As(err, &le) {
				h.Cancel(err)
			}
		}
		if b.Final {
			final = b.Err
		}
	}
	return events, final
}

// TestLimitStopsAnEndlessStream feeds a stream that never ends through Start's
// reader and an accumulator with a 1 MiB limit: reading stops, the text up to
// the limit is kept, the response is marked truncated and cut off, the
// stream ends with the *LimitError, and the heap stays a small multiple of
// the limit.
func TestLimitStopsAnEndlessStream(t *testing.T) {
	const limit = 1 << 20
	src := newEndless("All work and no play makes Jack a dull boy. ")
	acc := &stream.Accumulator{Limit: limit}
	_, final := consume(t, stream.StartReader(context.Background(), src, 0), acc)
	if !errors.Is(final, stream.ErrLimit) {
		t.Fatalf("the stream ended with %v, want the limit error", final)
	}
	s := acc.Current()
	if s == nil || len(s.Items) != 1 {
		t.Fatalf("snapshot: %+v", s)
	}
	text := s.Items[0].Text()
	if len(text) != limit || !strings.HasPrefix(text, "All work and no play") {
		t.Errorf("kept %d bytes, want %d", len(text), limit)
	}
	if !s.Truncated || !s.CutOff || s.Terminal || s.Held() != limit {
		t.Errorf("truncated %t cut off %t terminal %t held %d", s.Truncated, s.CutOff, s.Terminal, s.Held())
	}
	if src.sent > 64*limit {
		t.Errorf("the reader went on for %d bytes after the limit", src.sent)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > 64<<20 {
		t.Errorf("heap in use %d MiB after a 1 MiB limit", ms.HeapInuse>>20)
	}
	want := "the response passed 1 MiB of text"
	if msg := acc.LimitErr().Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("message %q, want it to start %q", msg, want)
	}
}

// TestDropTextHoldsNothing: with DropText, 16 MiB of message deltas (in 64 MiB of SSE) pass an
// accumulator whose limit is 1 MiB without reaching it, and the deltas are
// still in the events for a printer.
func TestDropTextHoldsNothing(t *testing.T) {
	src := io.LimitReader(newEndless("0123456789abcdef0123456789abcdef"), 64<<20)
	acc := &stream.Accumulator{Limit: 1 << 20, DropText: true}
	h := stream.StartReader(context.Background(), src, 0)
	var seen int
	for b := range h.Chan() {
		for i := range b.Events {
			ev := &b.Events[i]
			if _, err := acc.Apply(ev); errors.Is(err, stream.ErrLimit) {
				t.Fatalf("event %d: %v", ev.Num, err)
			} // the last event, cut by the LimitReader, is malformed
			seen += len(ev.Delta)
		}
	}
	s := acc.Current()
	if seen < 16<<20 || s.Truncated || s.Held() != 0 || s.Items[0].Text() != "" {
		t.Errorf("seen %d bytes; truncated %t, held %d, text %d bytes", seen, s.Truncated, s.Held(), len(s.Items[0].Text()))
	}
}

// apply decodes SSE payloads and applies them, returning the last error.
func applyAll(t *testing.T, acc *stream.Accumulator, payloads ...string) []error {
	t.Helper()
	var errs []error
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	d := stream.NewDecoder(strings.NewReader(b.String()))
	for d.Next() {
		ev := *d.Event()
		_, err := acc.Apply(&ev)
		errs = append(errs, err)
	}
	return errs
}

func TestLimitCountsEveryKindOfText(t *testing.T) {
	created := `{"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}`
	cases := []struct {
		name   string
		events []string
	}{
		{"arguments", []string{`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\":\"xxxxxxxxxx\"}"}`}},
		{"reasoning", []string{`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"thinking hard"}`}},
		{"code", []string{`{"type":"response.code_interpreter_call_code.delta","output_index":0,"delta":"print(1)"}`}},
		{"item done", []string{`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_call","id":"m","output":"a long tool output, much longer than ten bytes"}}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			acc := &stream.Accumulator{Limit: 10}
			var events []string
			events = append(events, created)
			for range 3 {
				events = append(events, c.events...)
			}
			errs := applyAll(t, acc, events...)
			if !errors.Is(errors.Join(errs...), stream.ErrLimit) || !acc.Current().Truncated {
				t.Fatalf("errors %v, truncated %t", errs, acc.Current().Truncated)
			}
			if last := errs[len(errs)-1]; last != nil {
				t.Errorf("an event after the limit gave %v", last)
			}
		})
	}
}

// TestLimitCutsAtARuneBoundary: the delta that reaches the limit is cut where
// a rune starts, so no broken UTF-8 is kept or printed.
func TestLimitCutsAtARuneBoundary(t *testing.T) {
	acc := &stream.Accumulator{Limit: 5}
	d := stream.NewDecoder(strings.NewReader("data: " + `{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"ab€€"}` + "\n\n"))
	d.Next()
	ev := *d.Event()
	it, err := acc.Apply(&ev)
	if !errors.Is(err, stream.ErrLimit) || it == nil {
		t.Fatalf("item %v, error %v", it, err)
	}
	if got := it.Text(); got != "ab€" || ev.Delta != "ab€" {
		t.Errorf("kept %q, event delta %q; want %q", got, ev.Delta, "ab€")
	}
}

// TestLimitSparesACompletedResponse: the terminal event of a response that
// fits does not mark it truncated, and the limit applies to each response on
// its own.
func TestLimitSparesACompletedResponse(t *testing.T) {
	acc := &stream.Accumulator{Limit: 16}
	var events []string
	for i := range 3 {
		events = append(events,
			fmt.Sprintf(`{"type":"response.created","response":{"id":"r%d","status":"in_progress","output":[]}}`, i),
			`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"0123456789"}`,
			fmt.Sprintf(`{"type":"response.completed","response":{"id":"r%d","status":"completed","output":[{"type":"message","id":"m","content":[{"type":"output_text","text":"0123456789"}]}]}}`, i))
	}
	for _, err := range applyAll(t, acc, events...) {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range acc.Responses() {
		if s.Truncated || !s.Terminal || s.Held() != 10 {
			t.Errorf("%s: truncated %t terminal %t held %d", s.ID, s.Truncated, s.Terminal, s.Held())
		}
	}
}
