package streamtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"runnel/stream/sharedtest"
)

// TestChainedRequestsGetTheirIDEchoed: a queued stream served to a chained
// request names the chain in every response object, and nothing else
// changes; an unchained request gets the bytes as queued.
func TestChainedRequestsGetTheirIDEchoed(t *testing.T) {
	s := New(t)
	fixture := sharedtest.Path(t, "fixtures", "real", "vercel__ai", "openai-phase-commentary-final.sse") // its response objects name no chain
	want, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	nulled := sharedtest.Path(t, "fixtures", "real", "vercel__ai", "openai-mcp-call-after-approval.sse") // its response objects say previous_response_id null
	s.Enqueue(Reply{File: fixture}, Reply{File: fixture}, Reply{File: nulled}, Reply{SSE: Text("resp_2", "two")})
	read := func(body string) []byte {
		resp := post(t, context.Background(), s, body)
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if got := read(`{"model":"m","input":"hi"}`); !bytes.Equal(got, want) {
		t.Error("an unchained request got other bytes than queued")
	}
	chained := read(`{"model":"m","input":"hi","previous_response_id":"resp_1"}`)
	if len(SplitEvents(chained)) != len(SplitEvents(want)) {
		t.Errorf("%d events served, %d queued", len(SplitEvents(chained)), len(SplitEvents(want)))
	}
	for _, got := range [][]byte{chained, read(`{"model":"m","input":"ok","previous_response_id":"resp_1"}`), read(`{"model":"m","previous_response_id":"resp_1"}`)} {
		events := SplitEvents(got)
		responses := 0
		for _, ev := range events {
			var e struct {
				Response map[string]json.RawMessage `json:"response"`
			}
			if json.Unmarshal(eventData(ev), &e) != nil {
				t.Fatalf("event %q is not JSON", ev)
			}
			if e.Response != nil {
				responses++
				if string(e.Response["previous_response_id"]) != `"resp_1"` {
					t.Errorf("response object %s does not echo the chain", eventData(ev))
				}
			}
		}
		if responses < 3 {
			t.Errorf("%d response objects", responses)
		}
	}
}
