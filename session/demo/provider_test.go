package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"runnel/stream"
)

func TestKeywordRouting(t *testing.T) {
	cases := map[string]string{
		"Show me some markdown":        "markdown",
		"call a TOOL":                  "tools",
		"what functions can you call?": "tools",
		"search the web for me":        "tools",
		"weather in Porto":             "tools",
		"try the MCP server":           "mcp",
		"approve it":                   "approval",
		"deploy to preview":            "approval",
		"mcp approval flow":            "approval", // the more specific showcase wins
		"make it fail":                 "failure",
		"what does a tool error do?":   "failure",
		"search, then deploy with mcp": "approval",
	}
	for prompt, want := range cases {
		if got := showcaseOf(ask(t, newTestProvider(), prompt)); got != want {
			t.Errorf("%q played %s, want %s", prompt, got, want)
		}
	}
}

func TestRotationShowsEverythingInOrder(t *testing.T) {
	p := newTestProvider()
	var got []string
	for i := 0; i < 3; i++ {
		got = append(got, showcaseOf(ask(t, p, "tell me more")))
	}
	// A keyword prompt does not move the rotation on.
	if sc := showcaseOf(ask(t, p, "weather?")); sc != "tools" {
		t.Fatalf("keyword prompt played %s", sc)
	}
	for i := 0; i < 3; i++ {
		got = append(got, showcaseOf(ask(t, p, "and then?")))
	}
	want := append(Scripts(), Scripts()[0])
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rotation %v, want %v", got, want)
	}
}

func TestResponseIDsAndPreviousResponseID(t *testing.T) {
	p := newTestProvider()
	first := ask(t, p, "hi")
	if id := first[0].obj("response")["id"]; id != "resp_demo_1" {
		t.Errorf("first id %v", id)
	}
	if prev, ok := first[0].obj("response")["previous_response_id"]; !ok || prev != nil {
		t.Errorf("previous_response_id %v, want null", prev)
	}
	second := post(t, p, requestBody(t, stream.Request{
		Model: "gpt-5", PreviousResponseID: "resp_demo_1",
		Input: []json.RawMessage{stream.UserText("next")},
	}))
	for _, e := range []sseEvent{second[0], second[len(second)-1]} {
		r := e.obj("response")
		if r["id"] != "resp_demo_2" || r["previous_response_id"] != "resp_demo_1" {
			t.Errorf("%s: id %v, previous_response_id %v", e.typ(), r["id"], r["previous_response_id"])
		}
	}
	usage := second[len(second)-1].obj("response")["usage"].(map[string]any)
	if usage["input_tokens"].(float64) <= 0 || usage["total_tokens"].(float64) != usage["input_tokens"].(float64)+usage["output_tokens"].(float64) {
		t.Errorf("usage %v", usage)
	}
}

// approvalFollowUp answers the approval request of a first "deploy" turn,
// in either of the forms a client may use.
func approvalFollowUp(t *testing.T, approve, chained bool) []sseEvent {
	t.Helper()
	p := newTestProvider()
	first := ask(t, p, "deploy please")
	reqItem := finalOutput(first)[2]
	reply, _ := json.Marshal(map[string]any{
		"type": "mcp_approval_response", "approval_request_id": reqItem["id"], "approve": approve,
	})
	r := stream.Request{Model: "gpt-5"}
	if chained {
		r.PreviousResponseID = first[0].obj("response")["id"].(string)
		r.Input = []json.RawMessage{reply}
	} else { // the whole history, as with store=false
		var history []json.RawMessage
		for _, it := range finalOutput(first) {
			b, _ := json.Marshal(it)
			history = append(history, b)
		}
		r.Input = append(append([]json.RawMessage{stream.UserText("deploy please")}, history...), reply)
	}
	evs := post(t, p, requestBody(t, r))
	if chained && evs[0].obj("response")["previous_response_id"] != r.PreviousResponseID {
		t.Error("previous_response_id not echoed")
	}
	return evs
}

func TestApprovalApproved(t *testing.T) {
	for _, chained := range []bool{true, false} {
		evs := approvalFollowUp(t, true, chained)
		items := finalOutput(evs)
		if got := strings.Join(itemTypes(evs), ","); got != "mcp_list_tools,mcp_call,message" {
			t.Fatalf("chained=%v: items %s", chained, got)
		}
		call := items[1]
		if call["status"] != "completed" || !strings.HasPrefix(call["approval_request_id"].(string), "mcpr_demo_1_") ||
			call["name"] != "deploy_preview" {
			t.Errorf("chained=%v: mcp_call %v", chained, call)
		}
		if !strings.Contains(messageText(items[2]), "Approved") {
			t.Errorf("message %q", messageText(items[2]))
		}
	}
}

func TestApprovalDenied(t *testing.T) {
	for _, chained := range []bool{true, false} {
		evs := approvalFollowUp(t, false, chained)
		if got := strings.Join(itemTypes(evs), ","); got != "mcp_list_tools,message" {
			t.Fatalf("chained=%v: items %s", chained, got)
		}
		if text := messageText(finalOutput(evs)[1]); !strings.Contains(text, "did not run") {
			t.Errorf("denial message %q", text)
		}
	}
}

func TestEncryptedReasoningOnlyWhenIncluded(t *testing.T) {
	p := newTestProvider()
	plain := finalOutput(ask(t, p, "hi"))[0]
	if _, ok := plain["encrypted_content"]; ok {
		t.Error("encrypted_content sent without include")
	}
	enc := finalOutput(post(t, p, requestBody(t, stream.Request{
		Input:   []json.RawMessage{stream.UserText("markdown")},
		Include: []string{"reasoning.encrypted_content"},
	})))[0]
	if s, _ := enc["encrypted_content"].(string); s == "" {
		t.Error("no encrypted_content with include")
	}
}

func TestDeterministic(t *testing.T) {
	read := func() []byte {
		resp := roundTrip(t, newTestProvider(), context.Background(), http.MethodPost, "/v1/responses", userRequest(t, "weather"))
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(read(), read()) {
		t.Error("two providers gave different bytes for the same request")
	}
}

func TestNotFound(t *testing.T) {
	p := newTestProvider()
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/v1/responses"},
		{http.MethodPost, "/v1/chat/completions"},
		{http.MethodPost, "/v1/responses/resp_demo_1/cancel"},
		{http.MethodDelete, "/v1/responses/resp_demo_1"},
	} {
		resp := roundTrip(t, p, context.Background(), c.method, c.path, userRequest(t, "hi"))
		var body struct {
			Error struct {
				Message, Type string
				Code          *string
			}
		}
		err := json.NewDecoder(resp.Body).Decode(&body)
		if resp.StatusCode != http.StatusNotFound || err != nil || body.Error.Type != "invalid_request_error" ||
			!strings.Contains(body.Error.Message, c.path) {
			t.Errorf("%s %s: %d %+v %v", c.method, c.path, resp.StatusCode, body, err)
		}
	}
}

func TestBadJSON(t *testing.T) {
	resp := roundTrip(t, newTestProvider(), context.Background(), http.MethodPost, "/v1/responses", []byte("{not json"))
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"invalid_request_error"`) {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}

func TestNonStreaming(t *testing.T) {
	p := newTestProvider()
	body, _ := json.Marshal(stream.Request{Input: []json.RawMessage{stream.UserText("weather")}})
	resp := roundTrip(t, p, context.Background(), http.MethodPost, "/v1/responses", body)
	var r map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 || r["status"] != "completed" {
		t.Errorf("%d %v %v", resp.StatusCode, r["status"], err)
	}
	body, _ = json.Marshal(stream.Request{Input: []json.RawMessage{stream.UserText("fail")}})
	if resp := roundTrip(t, p, context.Background(), http.MethodPost, "/v1/responses", body); resp.StatusCode != 500 {
		t.Errorf("failure without streaming: %d", resp.StatusCode)
	}
}

// TestThroughHTTPClient drives the provider the way runnel does: an
// http.Client with the provider as its transport, at natural speed.
func TestThroughHTTPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("streams at natural speed (about a second)")
	}
	c := &http.Client{Transport: New(Options{Speed: 4})}
	resp, err := c.Post(BaseURL+"/responses", "application/json", bytes.NewReader(userRequest(t, "deploy")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, parseSSE(t, raw))
}

// readAllWithin reads r to the end, failing the test if that takes longer
// than limit (a guard against a hang, not a timing assertion).
func readAllWithin(t *testing.T, r io.Reader, limit time.Duration) ([]byte, error) {
	t.Helper()
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(r)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-time.After(limit):
		t.Fatalf("body still open %v after cancel", limit)
		return nil, nil
	}
}

func TestCancelStopsPacedStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := New(Options{Speed: 1, Now: testNow})
	resp := roundTrip(t, p, ctx, http.MethodPost, "/v1/responses", userRequest(t, "hello"))
	defer resp.Body.Close()
	// response.created has no pause before it; after it the stream is
	// paced, and the whole answer would take seconds.
	first := make([]byte, len("event: response.created\n"))
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err := readAllWithin(t, resp.Body, 5*time.Second)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestCancelUnblocksStalledWriter(t *testing.T) {
	// Speed 0 and no reader: the writer is blocked inside a pipe write.
	ctx, cancel := context.WithCancel(context.Background())
	resp := roundTrip(t, newTestProvider(), ctx, http.MethodPost, "/v1/responses", userRequest(t, "hello"))
	defer resp.Body.Close()
	cancel()
	if _, err := readAllWithin(t, resp.Body, 5*time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, BaseURL+"/responses", bytes.NewReader(userRequest(t, "hi")))
	if _, err := newTestProvider().RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Errorf("RoundTrip with a cancelled context: %v", err)
	}
}

func TestCloseEndsBody(t *testing.T) {
	resp := roundTrip(t, New(Options{Speed: 1}), context.Background(), http.MethodPost, "/v1/responses", userRequest(t, "hi"))
	b := resp.Body.(*body)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Read(make([]byte, 1)); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("read after Close: %v", err)
	}
}

// TestBodyBuffersLikeASocket: the writer never waits for the reader (a
// reader that reads once a frame gets every event that came meanwhile, and
// the demo's pacing stays its own): with no pauses, every event is written
// before the first read, and then read in order.
func TestBodyBuffersLikeASocket(t *testing.T) {
	var events []event
	var want strings.Builder
	for i := range 50 {
		e := event{name: "response.output_text.delta", data: []byte(fmt.Sprintf(`{"delta":"%d"}`, i))}
		events = append(events, e)
		want.Write(frame(e))
	}
	b := paced(context.Background(), events, 0).(*body)
	defer b.Close()
	deadline := time.After(10 * time.Second)
	for len(b.frames) < len(events) {
		select {
		case <-deadline:
			t.Fatalf("the writer waits for the reader: %d of %d events written", len(b.frames), len(events))
		default:
			runtime.Gosched()
		}
	}
	got, err := io.ReadAll(b)
	if err != nil || string(got) != want.String() {
		t.Errorf("read %q, %v", got, err)
	}
}

// TestResponsesNameTheDemo: every response object the demo sends names its
// own model, Model, not the one the request asked for (gpt-5): no model
// answers, and the chat shows the demo under that name.
func TestResponsesNameTheDemo(t *testing.T) {
	evs := ask(t, newTestProvider(), "markdown")
	n := 0
	for _, e := range evs {
		if r := e.obj("response"); r != nil {
			n++
			if r["model"] != Model {
				t.Errorf("%s names the model %v", e.name, r["model"])
			}
		}
	}
	if n < 2 {
		t.Fatalf("%d response objects", n)
	}
}
