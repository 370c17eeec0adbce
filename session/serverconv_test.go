package session_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/knob"
	"runnel/session/store"
	"runnel/stream"
)

func completed(id string) []*stream.Snapshot {
	return []*stream.Snapshot{{ID: id, Status: "completed", Terminal: true}}
}

// TestConversationRequests: in conversations mode the first request asks
// for a conversation (with the history to send without one) and carries no
// previous_response_id; once it has an id, every request sends conversation
// and never previous_response_id, and the id is kept in the stored settings;
// a fork chains from its own last response instead.
// Outside it, requests chain as before.
func TestConversationRequests(t *testing.T) {
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true, State: knob.StateConversation}}
	first := c.Say("one")
	if nc := first.Request.NewConversation; nc == nil || len(nc.History) != 1 || first.Request.PreviousResponseID != "" || first.Request.Conversation != "" {
		t.Fatalf("first request: %+v", first.Request)
	}
	if note := c.ConversationStarted(stream.ConversationStart{ID: "conv_1"}); note != "" || c.Settings.Conversation != "conv_1" {
		t.Fatalf("started: %q %+v", note, c.Settings)
	}
	c.Finish(first, completed("resp_1"), nil, false)
	second := c.Say("two")
	body, _ := json.Marshal(second.Request)
	if second.Request.NewConversation != nil || !strings.Contains(string(body), `"conversation":"conv_1"`) || strings.Contains(string(body), "previous_response_id") || strings.Contains(string(body), `"one"`) {
		t.Errorf("second request: %s", body)
	}
	if got := knob.FromJSON(c.Settings.JSON()); got.Conversation != "conv_1" || got.State != knob.StateConversation {
		t.Errorf("stored settings lose the conversation: %+v", got)
	}

	fork := c.Fork(1)
	if r := fork.Say("branch").Request; r.Conversation != "" || r.NewConversation != nil || r.PreviousResponseID != "resp_1" {
		t.Errorf("a fork stays in the conversation that holds the later turns: %+v", r)
	}

	chained := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	t1 := chained.Say("one")
	chained.Finish(t1, completed("resp_1"), nil, false)
	if r := chained.Say("two").Request; r.NewConversation != nil || r.Conversation != "" || r.PreviousResponseID != "resp_1" {
		t.Errorf("chain mode: %+v", r)
	}
}

// TestConversationFallback: a server without /conversations makes the
// conversation stateless, with one line naming the status; later requests
// send the history and ask for no conversation.
func TestConversationFallback(t *testing.T) {
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true, State: knob.StateConversation}}
	first := c.Say("one")
	note := c.ConversationStarted(stream.ConversationStart{Err: &stream.APIError{Status: 404}})
	if !c.Stateless || strings.Contains(note, "\n") || !strings.Contains(note, "404") || !strings.Contains(note, "local history") {
		t.Fatalf("fallback: %v %q", c.Stateless, note)
	}
	c.Finish(first, completed("resp_1"), nil, false)
	r := c.Say("two").Request
	body, _ := json.Marshal(r)
	if r.NewConversation != nil || r.Conversation != "" || r.PreviousResponseID != "" || !strings.Contains(string(body), `"one"`) {
		t.Errorf("after the fallback: %s", body)
	}
	if n := c.ConversationStarted(stream.ConversationStart{Err: errors.New("x")}); !strings.Contains(n, "no /conversations") {
		t.Errorf("a fallback without a status: %q", n)
	}
}

// TestConversationDocImports: a server conversation's items (a developer
// message, two user turns with reasoning, a call and answers) become a
// session of two turns that imports, loads, and continues the conversation.
func TestConversationDocImports(t *testing.T) {
	item := func(v map[string]any) json.RawMessage { b, _ := json.Marshal(v); return b }
	msg := func(id, role, typ, text string) json.RawMessage {
		return item(map[string]any{"id": id, "type": "message", "role": role, "content": []any{map[string]any{"type": typ, "text": text}}})
	}
	items := []json.RawMessage{
		msg("m0", "developer", "input_text", "be brief"),
		msg("m1", "user", "input_text", "What is \x1b[31mup?"),
		item(map[string]any{"id": "r1", "type": "reasoning", "summary": []any{}}),
		item(map[string]any{"id": "fc1", "type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}),
		item(map[string]any{"id": "fo1", "type": "function_call_output", "call_id": "c1", "output": "42"}),
		msg("m2", "assistant", "output_text", "It is 42."),
		msg("m3", "user", "input_text", "thanks"),
		msg("m4", "assistant", "output_text", "You are welcome."),
	}
	doc, err := store.ConversationDoc("conv_9", items, knob.Settings{Model: "m", Store: true}.Continuing("conv_9").JSON(), time.Unix(1_700_000_000, 0))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id, err := db.Import(doc)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, doc)
	}
	s, warn, err := db.Load(id)
	if err != nil || len(warn) > 0 {
		t.Fatal(err, warn)
	}
	if len(s.Turns) != 2 || s.Turns[0].Prompt != "What is \x1b[31mup?" || len(s.Turns[0].Input) != 2 || len(s.Turns[0].Responses[0].Items) != 4 || s.Turns[1].Prompt != "thanks" {
		t.Fatalf("turns: %+v", s.Turns)
	}
	if strings.ContainsRune(s.Info.Title, 0x1b) || !strings.HasPrefix(s.Info.Title, "What is") {
		t.Errorf("title %q", s.Info.Title)
	}
	c, _ := session.FromStore(s)
	r := c.Say("more").Request
	if r.Conversation != "conv_9" || r.PreviousResponseID != "" || r.NewConversation != nil {
		t.Errorf("the imported session does not continue the conversation: %+v", r)
	}
	if _, err := store.ConversationDoc("conv_0", nil, knob.Settings{}.Continuing("conv_0").JSON(), time.Now()); err == nil {
		t.Error("an empty conversation imported")
	}
}

// TestConversationLeftByRetryAndCompaction: the server's conversation holds
// every turn sent into it, so a /retry (which would add the prompt twice)
// and a compaction (whose window replaces the context) leave it: the retry
// chains from the answer before the one asked again, the compacted window
// goes alone, and no new conversation is made after either.
func TestConversationLeftByRetryAndCompaction(t *testing.T) {
	start := func() *session.Conversation {
		c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true, State: knob.StateConversation}}
		first := c.Say("one")
		c.ConversationStarted(stream.ConversationStart{ID: "conv_1"})
		c.Finish(first, completed("resp_1"), nil, false)
		second := c.Say("two")
		c.Finish(second, completed("resp_2"), nil, false)
		return c
	}
	c := start()
	retry, err := c.Retry()
	if err != nil {
		t.Fatal(err)
	}
	if r := retry.Request; r.Conversation != "" || r.NewConversation != nil || r.PreviousResponseID != "resp_1" || c.Settings.Conversation != "" {
		t.Errorf("retry in a conversation: %+v (settings keep %q)", r, c.Settings.Conversation)
	}
	c.Finish(retry, completed("resp_3"), nil, false)
	if r := c.Say("three").Request; r.Conversation != "" || r.NewConversation != nil || r.PreviousResponseID != "resp_3" {
		t.Errorf("after the retry: %+v", r)
	}

	c = start()
	c.Compacted(&stream.CompactResult{Output: []json.RawMessage{json.RawMessage(`{"type":"compaction","encrypted_content":"x"}`)}})
	r := c.Say("three").Request
	body, _ := json.Marshal(r)
	if r.Conversation != "" || r.NewConversation != nil || r.PreviousResponseID != "" || !strings.Contains(string(body), `"compaction"`) {
		t.Errorf("after a compaction: %s", body)
	}
}
