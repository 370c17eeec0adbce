package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/knob"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// responseBodies are the bodies of the POST /v1/responses requests srv got.
func responseBodies(t *testing.T, srv *streamtest.Server) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/v1/responses" {
			var m map[string]any
			if err := json.Unmarshal(r.Body, &m); err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
	}
	return out
}

func creates(srv *streamtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/v1/conversations" {
			n++
		}
	}
	return n
}

// TestConversationMode: with state = "conversation" the first turn creates
// one server-side conversation (POST /conversations, once) and every turn
// sends conversation: its id instead of previous_response_id; /status
// shows the id; the session saves it, and a resumed session sends the same
// id without creating another, the server seeing the whole conversation.
func TestConversationMode(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	db := openDB(t)
	settings := session.Settings{Model: "m", Store: true, State: knob.StateConversation}
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, DB: db, Settings: settings})
	m.Init()
	for _, p := range []string{"first question", "second question"} {
		m.Update(SubmitMsg{Text: p})
		pump(t, m, nil)
	}
	bodies := responseBodies(t, srv)
	id := m.turns.conv.Settings.Conversation
	if creates(srv) != 1 || len(bodies) != 2 || !strings.HasPrefix(id, "conv_") {
		t.Fatalf("%d creates, %d turns, id %q", creates(srv), len(bodies), id)
	}
	for i, b := range bodies {
		if b["conversation"] != id || b["previous_response_id"] != nil {
			t.Errorf("turn %d: conversation %v, previous_response_id %v", i+1, b["conversation"], b["previous_response_id"])
		}
	}
	if conv, _ := srv.Conversation(id); len(conv.Items) != 4 {
		t.Errorf("the server's conversation holds %d items, want both turns (4)", len(conv.Items))
	}
	slashSent(m, "status", "")
	if v := plain(m); !strings.Contains(v, "conversation") || !strings.Contains(v, id) {
		t.Errorf("/status does not show the conversation:\n%s", v)
	}
	s := loadOnly(t, m, db)
	if got := knob.FromJSON(s.Settings).Conversation; got != id {
		t.Fatalf("the session saved conversation %q, want %q", got, id)
	}
	m.shutdown()

	r := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, DB: db, Settings: settings, Resume: s})
	r.Init()
	r.Update(SubmitMsg{Text: "third question"})
	pump(t, r, nil)
	bodies = responseBodies(t, srv)
	last := bodies[len(bodies)-1]
	if creates(srv) != 1 || last["conversation"] != id || last["previous_response_id"] != nil {
		t.Errorf("resumed: %d creates, conversation %v, previous_response_id %v", creates(srv), last["conversation"], last["previous_response_id"])
	}
	if !strings.Contains(plain(r), "(saw") && !strings.Contains(plain(r), "third question") {
		t.Errorf("the resumed turn did not answer:\n%s", plain(r))
	}
	if conv, _ := srv.Conversation(id); len(conv.Items) != 6 {
		t.Errorf("after the resumed turn the conversation holds %d items, want 6", len(conv.Items))
	}
	r.shutdown()
}

// TestConversationModeFallback: a server without /conversations (404) gets
// the turn without conversation, which succeeds; one line says the
// session goes on with the local history, and the next turn sends it
// (both prompts) without asking for a conversation again.
func TestConversationModeFallback(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{NoConversations: true})
	settings := session.Settings{Model: "m", Store: true, State: knob.StateConversation}
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: settings})
	m.Init()
	m.Update(SubmitMsg{Text: "first question"})
	pump(t, m, nil)
	v := plain(m)
	if strings.Count(v, "keeps no conversations") != 1 || !strings.Contains(v, "Answer 1") {
		t.Fatalf("want one line and the answer:\n%s", v)
	}
	m.Update(SubmitMsg{Text: "second question"})
	pump(t, m, nil)
	bodies := responseBodies(t, srv)
	if creates(srv) != 1 || len(bodies) != 2 {
		t.Fatalf("%d creates, %d turns", creates(srv), len(bodies))
	}
	second, _ := json.Marshal(bodies[1])
	if bodies[1]["conversation"] != nil || bodies[1]["previous_response_id"] != nil || !strings.Contains(string(second), "first question") {
		t.Errorf("the second turn does not send the history: %s", second)
	}
	if v := plain(m); strings.Count(v, "keeps no conversations") != 1 || !strings.Contains(v, "Answer 2") {
		t.Errorf("after the second turn:\n%s", v)
	}
	slashSent(m, "status", "")
	if !strings.Contains(plain(m), "the server keeps none") {
		t.Errorf("/status:\n%s", plain(m))
	}
}
