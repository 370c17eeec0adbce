package streamtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func postPath(t *testing.T, s *Server, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestStatefulChains: a served response is stored with its events and
// sequence numbers; a request chaining to it is answered, one chaining to an
// unknown or unstored id gets OpenAI's 400.
func TestStatefulChains(t *testing.T) {
	s := New(t).Stateful(StateOptions{})
	s.Enqueue(Reply{SSE: Text("resp_a", "Hel", "lo")})
	code, body := postPath(t, s, "/responses", `{"model":"m","input":"hi","stream":true}`)
	if code != 200 || !strings.Contains(body, "Hello") {
		t.Fatalf("first: %d %s", code, body)
	}
	r, ok := s.Response("resp_a")
	if !ok || r.Status != "completed" || !r.Store || len(r.Output) != 1 {
		t.Fatalf("stored: %+v %v", r, ok)
	}
	if len(r.Events) == 0 || r.Events[0].Seq != 0 || r.Events[len(r.Events)-1].Seq != len(r.Events)-1 {
		t.Errorf("events not kept with their sequence numbers: %+v", r.Events)
	}
	if len(r.Context) != 2 { // the prompt and the answer
		t.Errorf("context has %d items, want 2", len(r.Context))
	}

	code, body = postPath(t, s, "/responses", `{"model":"m","input":"more","previous_response_id":"resp_a","stream":true}`)
	if code != 200 || !strings.Contains(body, "context held") {
		t.Fatalf("chained (generated): %d %s", code, body)
	}
	code, body = postPath(t, s, "/responses", `{"model":"m","input":"x","previous_response_id":"resp_nope"}`)
	if code != 400 || !strings.Contains(body, "Previous response with id 'resp_nope' not found.") {
		t.Fatalf("unknown chain: %d %s", code, body)
	}

	s.Enqueue(Reply{SSE: Text("resp_nostore", "x")})
	postPath(t, s, "/responses", `{"model":"m","input":"hi","store":false}`)
	if code, _ := postPath(t, s, "/responses", `{"model":"m","input":"x","previous_response_id":"resp_nostore"}`); code != 400 {
		t.Errorf("chaining to a store=false response: %d, want 400", code)
	}

	s.Enqueue(Reply{SSE: Text("resp_cut", "a", "b", "c"), DropAfter: 5})
	postPath(t, s, "/responses", `{"model":"m","input":"hi"}`)
	if r, _ := s.Response("resp_cut"); len(r.Events) != 5 || r.Store {
		t.Errorf("dropped stream: %d events kept, store %v; want 5, false", len(r.Events), r.Store)
	}
}

// TestStatefulCompact: /responses/compact turns a chain into its user
// messages and one compaction item, with the usage before and after; a
// chain past ContextWindow is refused with context_length_exceeded; a
// compaction item in the context makes the context start there.
func TestStatefulCompact(t *testing.T) {
	s := New(t).Stateful(StateOptions{ContextWindow: 150})
	s.Enqueue(Reply{SSE: Text("resp_a", strings.Repeat("long answer ", 40))})
	postPath(t, s, "/responses", `{"model":"m","input":"first"}`)
	code, body := postPath(t, s, "/responses", `{"model":"m","input":"second","previous_response_id":"resp_a"}`)
	if code != 400 || !strings.Contains(body, "context_length_exceeded") {
		t.Fatalf("over the window: %d %s", code, body)
	}
	code, body = postPath(t, s, "/responses/compact", `{"model":"m","previous_response_id":"resp_a"}`)
	if code != 200 {
		t.Fatalf("compact: %d %s", code, body)
	}
	var res struct {
		Object string                                  `json:"object"`
		Output []json.RawMessage                       `json:"output"`
		Usage  struct{ InputTokens, OutputTokens int } `json:"usage"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatal(err)
	}
	if res.Object != "response.compaction" || len(res.Output) != 2 || itemType(res.Output[1]) != "compaction" || !isUserMessage(res.Output[0]) {
		t.Fatalf("compacted window: %s", body)
	}
	window, _ := json.Marshal(append(res.Output, userMessage("second")))
	code, body = postPath(t, s, "/responses", `{"model":"m","input":`+string(window)+`}`)
	if code != 200 {
		t.Fatalf("after compaction: %d %s", code, body)
	}
	if code, _ := postPath(t, s, "/responses/compact", `{"input":"x"}`); code != 400 {
		t.Errorf("compact without a model: %d, want 400", code)
	}
	if code, _ := postPath(t, New(t), "/responses/compact", `{"model":"m","input":"x"}`); code != 404 {
		t.Errorf("a stateless server: compact gives %d, want 404", code)
	}
}

// TestStatefulThresholdCompacts: a generated reply to a request whose
// context passes context_management's compact_threshold carries a
// compaction item after the answer, and the stored context starts there.
func TestStatefulThresholdCompacts(t *testing.T) {
	s := New(t).Stateful(StateOptions{})
	code, body := postPath(t, s, "/responses", `{"model":"m","input":"`+strings.Repeat("x", 400)+`","context_management":[{"type":"compaction","compact_threshold":50}]}`)
	if code != 200 || !strings.Contains(body, `"type":"compaction"`) {
		t.Fatalf("%d %s", code, body)
	}
	r, _ := s.Response("resp_st0001")
	if len(r.Context) != 1 || itemType(r.Context[0]) != "compaction" {
		t.Errorf("context after compaction: %d items", len(r.Context))
	}
}
