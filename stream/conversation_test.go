package stream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// drain reads a handle to its end and returns its batches.
func drain(h *stream.Handle) []stream.Batch {
	var out []stream.Batch
	for b := range h.Chan() {
		out = append(out, b)
	}
	return out
}

// bodyOf decodes a recorded request body.
func bodyOf(t *testing.T, r streamtest.Recorded) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	return m
}

// TestStartNewConversation: a request with NewConversation first POSTs
// /conversations (its metadata in the body), then sends the request with
// conversation: the new id and no previous_response_id; the first batch
// says which id it made, and the server appends the input and the output
// to the conversation. A second request naming it sees both turns.
func TestStartNewConversation(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL, APIKey: "sk-test", MaxRetries: -1}
	req := stream.Request{Model: "m", Input: []json.RawMessage{stream.UserText("one")}, PreviousResponseID: "resp_stale", Stream: true,
		NewConversation: &stream.NewConversation{Metadata: map[string]string{"client": "runnel"}, History: []json.RawMessage{stream.UserText("history")}}}
	batches := drain(stream.Start(context.Background(), cl, req))
	if len(batches) == 0 || batches[0].Conversation == nil || batches[0].Conversation.ID == "" || batches[0].Conversation.Err != nil {
		t.Fatalf("the first batch does not name the new conversation: %+v", batches)
	}
	if last := batches[len(batches)-1]; last.Err != nil {
		t.Fatalf("the turn failed: %v", last.Err)
	}
	id := batches[0].Conversation.ID
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/conversations" || reqs[0].Method != "POST" || reqs[1].Path != "/v1/responses" {
		t.Fatalf("requests: %+v", reqs)
	}
	if md := bodyOf(t, reqs[0])["metadata"]; fmt.Sprint(md) != "map[client:runnel]" {
		t.Errorf("metadata %v", md)
	}
	body := bodyOf(t, reqs[1])
	if body["conversation"] != id || body["previous_response_id"] != nil || !strings.Contains(string(reqs[1].Body), `"one"`) || strings.Contains(string(reqs[1].Body), "history") {
		t.Errorf("the request in the conversation: %s", reqs[1].Body)
	}
	conv, ok := srv.Conversation(id)
	if !ok || len(conv.Items) != 2 {
		t.Fatalf("the conversation holds %d items, want the input and the answer", len(conv.Items))
	}

	next := stream.Request{Model: "m", Input: []json.RawMessage{stream.UserText("two")}, Conversation: id, Stream: true}
	if b := drain(stream.Start(context.Background(), cl, next)); b[len(b)-1].Err != nil || b[0].Conversation != nil {
		t.Fatalf("the second turn: %+v", b)
	}
	if conv, _ = srv.Conversation(id); len(conv.Items) != 4 {
		t.Errorf("after two turns the conversation holds %d items, want 4", len(conv.Items))
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests: a named conversation is not created again", n)
	}
}

// TestStartNoConversations: a server without /conversations (404) gets the
// request without conversation, with the history as input, and the first
// batch says why; the turn succeeds. Another error fails the turn.
func TestStartNoConversations(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{NoConversations: true})
	cl := &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
	req := stream.Request{Model: "m", Input: []json.RawMessage{stream.UserText("two")}, Stream: true,
		NewConversation: &stream.NewConversation{History: []json.RawMessage{stream.UserText("one"), stream.UserText("two")}}}
	batches := drain(stream.Start(context.Background(), cl, req))
	cs := batches[0].Conversation
	if cs == nil || cs.ID != "" || !stream.NoConversations(cs.Err) {
		t.Fatalf("the first batch does not report the fallback: %+v", batches[0])
	}
	if last := batches[len(batches)-1]; last.Err != nil {
		t.Fatalf("the turn failed: %v", last.Err)
	}
	reqs := srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if strings.Contains(body, `"conversation"`) || !strings.Contains(body, `"one"`) {
		t.Errorf("the fallback request: %s", body)
	}

	// a 500 from POST /conversations is no fallback: the turn fails with it
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error":{"message":"boom"}}`)
	}))
	defer bad.Close()
	bl := &stream.Client{BaseURL: bad.URL, MaxRetries: -1}
	b := drain(stream.Start(context.Background(), bl, stream.Request{Model: "m", Stream: true, NewConversation: &stream.NewConversation{}}))
	if last := b[len(b)-1]; last.Err == nil || b[0].Conversation != nil {
		t.Errorf("a failing create: %+v", b)
	}
}

// TestConversationItemsPages: ConversationItems follows has_more and after
// over several pages, in order (asc), and refuses an id that cannot go in
// a URL.
func TestConversationItemsPages(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	var items []json.RawMessage
	for i := range 230 {
		items = append(items, stream.UserText(fmt.Sprintf("m%03d", i)))
	}
	id := srv.AddConversation(items...)
	cl := &stream.Client{BaseURL: srv.URL}
	got, err := cl.ConversationItems(context.Background(), id)
	if err != nil || len(got) != 230 {
		t.Fatalf("%d items, %v", len(got), err)
	}
	for i, it := range got {
		if !strings.Contains(string(it), fmt.Sprintf("m%03d", i)) {
			t.Fatalf("item %d out of order: %s", i, it)
		}
	}
	var pages int
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/items") {
			pages++
			if !strings.Contains(r.Query, "order=asc") {
				t.Errorf("a page asked without order=asc: %s", r.Query)
			}
		}
	}
	if pages != 3 {
		t.Errorf("%d pages, want 3 of at most 100", pages)
	}
	if _, err := cl.ConversationItems(context.Background(), "conv_nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("an unknown conversation: %v", err)
	}
	if _, err := cl.ConversationItems(context.Background(), "../x"); err == nil {
		t.Error("an id with a slash went into the URL")
	}
}
