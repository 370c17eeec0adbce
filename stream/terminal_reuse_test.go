package stream

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// accumulateSSE decodes and accumulates a whole SSE stream.
func accumulateSSE(t *testing.T, sse string) *Snapshot {
	t.Helper()
	var acc Accumulator
	d := NewDecoder(strings.NewReader(sse))
	for d.Next() {
		if _, err := acc.Apply(d.Event()); err != nil {
			t.Fatal(err)
		}
	}
	acc.Finish()
	return acc.Current()
}

// summary is what a snapshot shows: each item's id, type, text, status.
func summary(s *Snapshot) string {
	var b strings.Builder
	for _, it := range s.Items {
		fmt.Fprintf(&b, "%s %s %q %s %v|", it.ID, it.Type, it.Text(), it.Status, it.Done)
	}
	return b.String()
}

// TestTerminalSameItemNotDecodedAgain: a terminal output item that is byte
// for byte the streamed item's output_item.done is not decoded again, and
// the snapshot is the same as when it must be (a copy that differs by a
// space); with ids repeated in the output, the general path decides.
func TestTerminalSameItemNotDecodedAgain(t *testing.T) {
	item := `{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hello there","annotations":[]}]}`
	stream := func(output ...string) string {
		var b bytes.Buffer
		b.WriteString(`data: {"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","output":[]}}` + "\n\n")
		b.WriteString(`data: {"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","status":"in_progress","content":[]}}` + "\n\n")
		b.WriteString(`data: {"type":"response.output_text.delta","sequence_number":2,"output_index":0,"content_index":0,"item_id":"msg_1","delta":"Hello there"}` + "\n\n")
		b.WriteString(`data: {"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":` + item + "}\n\n")
		b.WriteString(`data: {"type":"response.completed","sequence_number":4,"response":{"id":"r","status":"completed","output":[` + strings.Join(output, ",") + `]}}` + "\n\n")
		return b.String()
	}
	spaced := strings.Replace(item, `"id":"msg_1",`, `"id": "msg_1",`, 1)
	for _, c := range []struct{ name, same, other string }{
		{"one", stream(item), stream(spaced)},
		{"repeated", stream(item, item), stream(spaced, spaced)},
		{"changed", stream(strings.Replace(item, "Hello there", "Hello there!", 1)), stream(strings.Replace(spaced, "Hello there", "Hello there!", 1))},
	} {
		a, b := accumulateSSE(t, c.same), accumulateSSE(t, c.other)
		if summary(a) != summary(b) {
			t.Errorf("%s: %s\nwant %s", c.name, summary(a), summary(b))
		}
	}
	s := accumulateSSE(t, stream(item))
	if len(s.Items) != 1 || string(s.Items[0].Raw) != item {
		t.Errorf("%+v", s.Items)
	}
}
