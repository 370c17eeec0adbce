package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"runnel/stream"
)

// TestThroughStreamPipeline runs every showcase through the lead's stream
// package exactly as runnel wires the demo (stream.Client with the Provider
// as its transport, Decoder, Accumulator) and checks nothing is malformed and
// every streamed item survives into the snapshot.
func TestThroughStreamPipeline(t *testing.T) {
	c := &stream.Client{BaseURL: BaseURL, Transport: New(Options{}), MaxRetries: -1}
	for _, prompt := range []string{"hi", "weather", "mcp", "deploy", "fail"} {
		rc, err := c.Open(context.Background(), stream.Request{Model: "gpt-5", Input: []json.RawMessage{stream.UserText(prompt)}})
		if err != nil {
			t.Fatalf("%s: open: %v", prompt, err)
		}
		var acc stream.Accumulator
		d := stream.NewDecoder(rc)
		for d.Next() {
			if _, err := acc.Apply(d.Event()); err != nil {
				t.Errorf("%s: event %s: %v", prompt, d.Event().Type, err)
			}
		}
		rc.Close()
		if err := d.Err(); err != nil {
			t.Fatalf("%s: read: %v", prompt, err)
		}
		acc.Finish()
		snaps := acc.Responses()
		if len(snaps) != 1 || !snaps[0].Terminal {
			t.Fatalf("%s: %d responses", prompt, len(snaps))
		}
		s := snaps[0]
		var types []string
		for _, it := range s.Items {
			types = append(types, it.Type)
		}
		t.Logf("%s: %s %s", prompt, s.Status, strings.Join(types, ","))
		if prompt == "fail" {
			if s.Status != "failed" || len(s.Items) != 1 || !strings.HasPrefix(s.Items[0].Text(), "Let me explain") {
				t.Errorf("fail: status %s, items %d; the partial text must survive", s.Status, len(s.Items))
			}
		} else if s.Status != "completed" || len(s.Items) == 0 {
			t.Errorf("%s: status %s, %d items", prompt, s.Status, len(s.Items))
		}
	}
}
