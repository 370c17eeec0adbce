package stream

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unsafe"
)

// TestLongTextMovesOnce: an answer streamed to the response limit moves
// its text to a new store once past bigText (to one that holds all the
// limit leaves room for), where growing by append's quarters moved it
// about ten times, each move holding the text twice at once; and the
// text is whole. Without a limit it grows as before.
func TestLongTextMovesOnce(t *testing.T) {
	limit := 8 << 20
	if testing.Short() {
		limit = 4 << 20 // still four times bigText: unlimited, append moves it more than four times
	}
	var sse bytes.Buffer
	event := func(v map[string]any) {
		b, _ := json.Marshal(v)
		sse.WriteString("data: ")
		sse.Write(b)
		sse.WriteString("\n\n")
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "status": "in_progress", "output": []any{}}})
	event(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "content": []any{}}})
	chunk := strings.Repeat("some words é\n", 4096/14)
	for n := 0; n < limit+len(chunk); n += len(chunk) {
		event(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": chunk})
	}
	for _, lim := range []int{limit, 0} {
		acc := Accumulator{Limit: lim}
		d := NewDecoder(bytes.NewReader(sse.Bytes()))
		moves := 0
		var store *byte
		for d.Next() {
			_, err := acc.Apply(d.Event())
			if errors.Is(err, ErrLimit) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if rs := acc.Responses(); len(rs) > 0 && len(rs[0].Items) > 0 && len(rs[0].Items[0].Content) > 0 {
				text := rs[0].Items[0].Content[0].Text
				if p := unsafe.StringData(text); len(text) > bigText && p != store {
					if store != nil {
						moves++
					}
					store = p
				}
			}
		}
		text := acc.Responses()[0].Items[0].Text()
		switch {
		case lim > 0 && (moves != 1 || len(text) != lim):
			t.Errorf("limit %d: past %d bytes the text moved %d times, want once; %d bytes kept, want %d", lim, bigText, moves, len(text), lim)
		case lim == 0 && moves < 4:
			t.Errorf("no limit: the text moved %d times, want append's growth", moves)
		}
	}
}
