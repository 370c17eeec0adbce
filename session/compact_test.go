package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// types lists the input items' types.
func types(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it["type"].(string)
	}
	return out
}

// TestCompactThresholdInRequest: [context] compact_threshold and truncation
// reach the request as context_management and truncation; 0 sends neither.
func TestCompactThresholdInRequest(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true, CompactThreshold: 200000, Truncation: "auto"}}
	send(t, c, cl, c.Say("hi"), nil)
	c.Settings.CompactThreshold, c.Settings.Truncation = 0, ""
	send(t, c, cl, c.Say("again"), nil)
	reqs := srv.Requests()
	body := string(reqs[0].Body)
	if !strings.Contains(body, `"context_management":[{"type":"compaction","compact_threshold":200000}]`) || !strings.Contains(body, `"truncation":"auto"`) {
		t.Errorf("first request: %s", body)
	}
	if b := string(reqs[1].Body); strings.Contains(b, "context_management") || strings.Contains(b, "truncation") {
		t.Errorf("with compaction off: %s", b)
	}
	if reqs[1].PreviousResponseID() == "" {
		t.Error("the second turn did not chain")
	}
}

// TestCompactionItemStartsStoreFalseHistory: with store = false, a
// compaction item the server sent in a response is kept, and the next
// requests send it first, then only what followed it.
func TestCompactionItemStartsStoreFalseHistory(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: false, CompactThreshold: 100}}
	send(t, c, cl, c.Say("short"), nil)
	send(t, c, cl, c.Say(strings.Repeat("a long question ", 40)), nil) // past the threshold: compacted
	var kept bool
	for _, it := range c.Turns[1].Responses[0].Items {
		kept = kept || it.Type == "compaction" && it.Details().Encrypted
	}
	if !kept {
		t.Fatal("the compaction item was not kept with the turn")
	}
	send(t, c, cl, c.Say("next"), nil)
	got := texts(inputOf(t, srv.Requests()[2]))
	if ty := types(inputOf(t, srv.Requests()[2])); len(ty) != 2 || ty[0] != "compaction" {
		t.Fatalf("store=false input after compaction: %v %q", ty, got)
	}
	if got[1] != "user: next" {
		t.Errorf("input: %q", got)
	}
	// the fallback for a lost chain builds the same history
	if in := c.FullInput(); len(in) == 0 || !strings.Contains(string(in[0]), `"type":"compaction"`) {
		t.Errorf("FullInput does not start at the compaction item")
	}
}

// TestCompactionFixtureStartsHistory: the recorded compaction stream (real2)
// is accumulated with its compaction item, and local history sends that item
// first.
func TestCompactionFixtureStartsHistory(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{File: sharedtest.Path(t, "fixtures", "real2", "vercel__ai", "openai-compaction.sse")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "ok")})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: false}}
	send(t, c, cl, c.Say("testing strategies?"), nil)
	send(t, c, cl, c.Say("thanks"), nil)
	in := inputOf(t, srv.Requests()[1])
	if ty := types(in); len(ty) != 2 || ty[0] != "compaction" || in[0]["encrypted_content"] == nil {
		t.Fatalf("input types %v", ty)
	}
}

// compactOnce runs /compact as the chat does.
func compactOnce(t *testing.T, c *session.Conversation, cl *stream.Client) (*stream.CompactResult, error) {
	t.Helper()
	req, ok := c.CompactRequest()
	if !ok {
		t.Fatal("nothing to compact")
	}
	res, err := cl.Compact(context.Background(), req)
	if err == nil {
		c.Compacted(res)
	}
	return res, err
}

// TestCompactThenContinue: /compact sends the chain to /responses/compact;
// the next turn sends the compacted window as input instead of
// previous_response_id, and the turn after chains from that turn's response.
// A window that no response finished is sent again.
func TestCompactThenContinue(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ContextWindow: 400})
	cl := &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_long", strings.Repeat("a long answer ", 100))})
	send(t, c, cl, c.Say("tell me everything"), nil)

	// the context is full: the server refuses, and says why
	send(t, c, cl, c.Say("and more"), nil)
	if err := c.Turns[1].Err; !stream.ContextLengthExceeded(err, nil) || !strings.Contains(err.Error(), "/compact") {
		t.Fatalf("over the window: %v", err)
	}

	res, err := compactOnce(t, c, cl)
	if err != nil {
		t.Fatal(err)
	}
	creq := srv.Requests()[2]
	if creq.Path != "/v1/responses/compact" || creq.PreviousResponseID() != "resp_long" || creq.JSON()["model"] != "m" {
		t.Fatalf("compact request: %s %s", creq.Path, creq.Body)
	}
	if res.Usage == nil || res.Usage.InputTokens <= res.Usage.OutputTokens {
		t.Errorf("usage: %+v", res.Usage)
	}

	srv.Enqueue(streamtest.ServerError()) // the first try after compaction fails…
	send(t, c, cl, c.Say("and more"), nil)
	send(t, c, cl, c.Say("and more"), nil) // …so the window is sent again
	for _, i := range []int{3, 4} {
		r := srv.Requests()[i]
		ty := types(inputOf(t, r))
		if r.PreviousResponseID() != "" || len(ty) != len(res.Output)+1 || ty[len(res.Output)-1] != "compaction" {
			t.Errorf("request %d after /compact: previous %q, input %v", i, r.PreviousResponseID(), ty)
		}
	}
	if c.Turns[3].Err != nil {
		t.Fatalf("turn after compaction: %v", c.Turns[3].Err)
	}
	send(t, c, cl, c.Say("last"), nil)
	last := srv.Requests()[5]
	if last.PreviousResponseID() == "" || len(inputOf(t, last)) != 1 {
		t.Errorf("after the window was used: previous %q, input %v", last.PreviousResponseID(), texts(inputOf(t, last)))
	}
}

// TestCompactStoreFalseSendsHistory: with store off, /compact sends the
// local history as input.
func TestCompactStoreFalseSendsHistory(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: false}}
	send(t, c, cl, c.Say("one"), nil)
	if _, err := compactOnce(t, c, cl); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[1]
	if r.PreviousResponseID() != "" || !strings.Contains(strings.Join(texts(inputOf(t, r)), "|"), "user: one") {
		t.Errorf("compact request: %s", r.Body)
	}
}

// TestCompactUnsupported: a server without /responses/compact gives an
// error that says so, and the conversation is unchanged.
func TestCompactUnsupported(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{NoCompact: true})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	send(t, c, cl, c.Say("one"), nil)
	chain := c.ChainID()
	_, err := compactOnce(t, c, cl)
	if !errors.Is(err, stream.ErrCompactUnsupported) {
		t.Fatalf("err = %v", err)
	}
	if c.ChainID() != chain || c.Compacting() {
		t.Error("a failed /compact changed the conversation")
	}
	send(t, c, cl, c.Say("two"), nil)
	if srv.Requests()[2].PreviousResponseID() != chain {
		t.Error("the session did not go on from its chain")
	}
}

// TestCompactionSurvivesTheStore: a compaction item the server sent, and a
// /compact window a turn sent, are written to the store with the session; a
// conversation restored from it (store = false) still starts its history at
// the newest of them.
func TestCompactionSurvivesTheStore(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: false, CompactThreshold: 50}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say(strings.Repeat("a long question ", 30)) // compacted in the stream
	send(t, c, cl, turn, j.Begin(turn))
	j.Close()
	back, _ := reload(t, db, j.ID())
	var kept bool
	for _, it := range back.Turns[0].Responses[0].Items {
		kept = kept || it.Type == "compaction"
	}
	if !kept {
		t.Fatal("the store lost the compaction item")
	}
	if in := back.FullInput(); len(in) != 1 || !strings.Contains(string(in[0]), `"type":"compaction"`) {
		t.Errorf("restored history: %d items, first %.80s", len(in), in[0])
	}

	// a /compact window: the restored turn that sent it starts the history
	// with the whole window (its user messages too)
	c = &session.Conversation{Settings: session.Settings{Model: "m", Store: false}}
	j = session.NewJournal(db, c.Settings)
	turn = c.Say("one")
	send(t, c, cl, turn, j.Begin(turn))
	if _, err := compactOnce(t, c, cl); err != nil {
		t.Fatal(err)
	}
	turn = c.Say("two")
	send(t, c, cl, turn, j.Begin(turn))
	j.Close()
	back, _ = reload(t, db, j.ID())
	got := back.FullInput(stream.UserText("three"))
	if ty := typesOf(got); len(ty) != 5 || ty[1] != "compaction" {
		t.Errorf("restored history after /compact: %v", ty)
	}
}

func typesOf(items []json.RawMessage) []string {
	var out []string
	for _, raw := range items {
		var f struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(raw, &f)
		out = append(out, f.Type)
	}
	return out
}

// TestRetryAfterCompactLeavesTheWindow: a /retry of the turn before a
// /compact asks from the chain as it was, so the compacted window no
// longer applies once it completes; the store agrees, and a resume does
// not send the window again (nor draw it after the retry).
func TestRetryAfterCompactLeavesTheWindow(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say("one")
	send(t, c, cl, turn, j.Begin(turn))
	if _, err := compactOnce(t, c, cl); err != nil {
		t.Fatal(err)
	}
	j.Compacted(c.Window())
	retry, err := c.Retry()
	if err != nil {
		t.Fatal(err)
	}
	send(t, c, cl, retry, j.Begin(retry))
	if c.Window() != nil || !retry.LeftWindow {
		t.Fatalf("after the retry: window %d items, left %v", len(c.Window()), retry.LeftWindow)
	}
	j.Close()
	back, _ := reload(t, db, j.ID())
	if w := back.Window(); w != nil {
		t.Fatalf("resumed with the window pending (%d items): the next request would drop the retry's answer", len(w))
	}
	next := back.Say("two")
	if next.Request.PreviousResponseID == "" {
		t.Errorf("the turn after the resume does not chain from the retry: %+v", next.Request)
	}
}
