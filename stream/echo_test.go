package stream_test

import (
	"strings"
	"testing"

	"runnel/stream"
)

// snapshotOf decodes and accumulates an SSE text.
func snapshotOf(t *testing.T, sse string) *stream.Snapshot {
	t.Helper()
	var acc stream.Accumulator
	d := stream.NewDecoder(strings.NewReader(sse))
	for d.Next() {
		if _, err := acc.Apply(d.Event()); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return acc.Current()
}

// TestSnapshotRecordsWhatTheServerEchoed: previous_response_id present,
// null or absent, and store, as the response objects gave them.
func TestSnapshotRecordsWhatTheServerEchoed(t *testing.T) {
	created := func(resp string) string {
		return "data: {\"type\":\"response.created\",\"response\":" + resp + "}\n\n"
	}
	tests := []struct {
		name     string
		sse      string
		echoed   bool
		previous bool
		id       string
		store    string // "", "true", "false"
	}{
		{"nothing yet", "data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"x\"}\n\n", false, false, "", ""},
		{"openai", created(`{"id":"r","status":"in_progress","previous_response_id":"resp_a","store":true}`), true, true, "resp_a", "true"},
		{"ollama", created(`{"id":"r","status":"in_progress","previous_response_id":null,"store":false}`), true, true, "", "false"},
		{"llama.cpp", created(`{"id":"r","object":"response","status":"in_progress"}`), true, false, "", ""},
		{"not a string", created(`{"id":"r","previous_response_id":7}`), true, true, "", ""},
		{"store null", created(`{"id":"r","previous_response_id":"p","store":null}`), true, true, "p", ""},
		{"sticky", created(`{"id":"r","previous_response_id":"p","store":true}`) +
			"data: {\"type\":\"response.in_progress\",\"response\":{\"id\":\"r\"}}\n\n", true, true, "p", "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := snapshotOf(t, tt.sse)
			store := ""
			if s.EchoedStore != nil {
				store = map[bool]string{true: "true", false: "false"}[*s.EchoedStore]
			}
			if s.Echoed != tt.echoed || s.EchoedPrevious != tt.previous || s.PreviousResponseID != tt.id || store != tt.store {
				t.Errorf("echoed %v, previous %v %q, store %q; want %v, %v %q, %q",
					s.Echoed, s.EchoedPrevious, s.PreviousResponseID, store, tt.echoed, tt.previous, tt.id, tt.store)
			}
		})
	}
}
