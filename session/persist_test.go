package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// send streams one turn through the fake server and finishes it.
func send(t *testing.T, c *session.Conversation, cl *stream.Client, turn *session.Turn, log *session.TurnLog) {
	t.Helper()
	var acc stream.Accumulator
	var err error
	for b := range stream.Start(context.Background(), cl, turn.Request).Chan() {
		for i := range b.Events {
			acc.Apply(&b.Events[i])
		}
		if b.Final {
			err = b.Err
		}
		if log != nil {
			log.Note(time.Now(), acc.Responses(), func(*stream.Item) bool { return true })
		}
	}
	acc.Finish()
	c.Finish(turn, acc.Responses(), err, false)
	if log != nil {
		log.End(time.Now(), turn)
	}
}

func openStore(t *testing.T) *store.DB {
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// reload loads session id from db, failing the test when it cannot, and
// rebuilds its conversation; probs are FromStore's. Load's warnings are not
// checked.
func reload(t *testing.T, db *store.DB, id store.SessionID) (c *session.Conversation, probs []error) {
	t.Helper()
	s, _, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return session.FromStore(s)
}

// wantChainLost sends req and fails the test unless the server answers that
// its previous response is not found.
func wantChainLost(t *testing.T, cl *stream.Client, req stream.Request) {
	t.Helper()
	var err error
	for b := range stream.Start(context.Background(), cl, req).Chan() {
		if b.Final {
			err = b.Err
		}
	}
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || !apiErr.PreviousResponseNotFound() {
		t.Fatalf("want previous-response-not-found, got %v", err)
	}
}

// TestThreeTurnsChainAndResume: three turns chain with previous_response_id,
// are written to the store as they stream, and a conversation rebuilt from
// the store chains from the last response and keeps every item.
func TestThreeTurnsChainAndResume(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	for i, id := range []string{"resp_1", "resp_2", "resp_3"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text(id, "answer ", string(rune('A'+i)))})
		turn := c.Say("question " + string(rune('A'+i)))
		send(t, c, cl, turn, j.Begin(turn))
	}
	j.Close()
	reqs := srv.Requests()
	for i, want := range []string{"", "resp_1", "resp_2"} {
		if got := reqs[i].PreviousResponseID(); got != want {
			t.Errorf("request %d previous_response_id %q, want %q", i, got, want)
		}
		if n := len(reqs[i].JSON()["input"].([]any)); n != 1 {
			t.Errorf("request %d sent %d input items, want only the new one", i, n)
		}
	}
	stored, warns, err := db.Load(j.ID())
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	back, probs := session.FromStore(stored)
	if len(probs) > 0 || len(back.Turns) != 3 || back.ChainID() != "resp_3" {
		t.Fatalf("restored %d turns, chain %q, problems %v", len(back.Turns), back.ChainID(), probs)
	}
	if got := back.Turns[2].Responses[0].Items[0].Text(); got != "answer C" || back.Turns[1].Prompt != "question B" {
		t.Errorf("restored text %q", got)
	}
	if back.Settings.Model != "m" {
		t.Errorf("settings %+v", back.Settings)
	}
}

// TestExpiredPreviousResponseRebuildsInput: the server has forgotten the
// chain; the rebuilt request carries the earlier turns' input and output
// items and no previous_response_id.
func TestExpiredPreviousResponseRebuildsInput(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")})
	send(t, c, cl, c.Say("first question"), nil)

	srv.Enqueue(streamtest.PreviousResponseNotFound("resp_1"), streamtest.Reply{SSE: streamtest.Text("resp_2", "second answer")})
	turn := c.Say("second question")
	wantChainLost(t, cl, turn.Request)
	req := c.Rebuild(turn)
	send(t, c, cl, turn, nil)
	body := srv.Requests()[2]
	if body.PreviousResponseID() != "" {
		t.Errorf("rebuilt request still chains to %q", body.PreviousResponseID())
	}
	input, _ := json.Marshal(body.JSON()["input"])
	for _, want := range []string{"first question", "first answer", "second question", `"role":"assistant"`} {
		if !strings.Contains(string(input), want) {
			t.Errorf("rebuilt input lacks %q: %s", want, input)
		}
	}
	if len(req.Input) != 3 || !turn.Fallback || c.ChainID() != "resp_2" {
		t.Errorf("input items %d, fallback %v, chain %q", len(req.Input), turn.Fallback, c.ChainID())
	}
}

// TestStoreFalseSendsEverything: with store = false every request carries
// the whole conversation, no previous_response_id, and asks for encrypted
// reasoning.
func TestStoreFalseSendsEverything(t *testing.T) {
	data := sharedtest.ReadReal(t, "charmbracelet__fantasy/azure-gpt-5-mini-summary-thinking-tool.sse")
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: false}}
	srv.Enqueue(streamtest.Reply{SSE: data}, streamtest.Reply{SSE: streamtest.Text("resp_2", "ok")})
	send(t, c, cl, c.Say("weather in Florence?"), nil)
	send(t, c, cl, c.Say("thanks"), nil)
	second := srv.Requests()[1]
	j := second.JSON()
	input, _ := json.Marshal(j["input"])
	if second.PreviousResponseID() != "" || j["store"] != false || !strings.Contains(string(second.Body), `"include":["reasoning.encrypted_content"]`) {
		t.Errorf("request: %s", second.Body)
	}
	for _, want := range []string{"weather in Florence?", `"type":"reasoning"`, `"encrypted_content"`, `"type":"function_call"`, "thanks"} {
		if !strings.Contains(string(input), want) {
			t.Errorf("full input lacks %s", want)
		}
	}
}

// TestForkCopiesEarlierTurns: a fork holds the turns before N in a new stored
// session, chains from the last of them, leaves the original untouched, and
// is titled from the edited prompt once it is sent.
func TestForkCopiesEarlierTurns(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	for i, id := range []string{"resp_1", "resp_2", "resp_3"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text(id, "answer")})
		turn := c.Say("question " + string(rune('A'+i)))
		send(t, c, cl, turn, j.Begin(turn))
	}
	f := c.Fork(1)
	if len(f.Turns) != 1 || f.ChainID() != "resp_1" || len(c.Turns) != 3 {
		t.Fatalf("fork: %d turns, chain %q", len(f.Turns), f.ChainID())
	}
	fj := j.Fork(1, "fork: ", "question B", f.Settings)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "edited answer")})
	turn := f.Say("question B, edited")
	send(t, f, cl, turn, fj.Begin(turn))
	j.Close()
	fj.Close()
	if srv.Requests()[3].PreviousResponseID() != "resp_1" {
		t.Errorf("the fork chains to %q", srv.Requests()[3].PreviousResponseID())
	}
	orig, _, _ := db.Load(j.ID())
	forked, _, err := db.Load(fj.ID())
	if err != nil || fj.ID() == j.ID() || len(orig.Turns) != 3 || len(forked.Turns) != 2 || forked.Turns[1].Prompt != "question B, edited" {
		t.Fatalf("original %d turns, fork %v (%v)", len(orig.Turns), forked, err)
	}
	if forked.Info.Title != "fork: question B, edited" || orig.Info.Title != "question A" {
		t.Errorf("titles: fork %q, original %q", forked.Info.Title, orig.Info.Title)
	}
}

// TestForkAtFirstTurnTitledFromEdit: a fork that keeps no turn is created by
// its first prompt, titled from it as a fork.
func TestForkAtFirstTurnTitledFromEdit(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "answer")})
	turn := c.Say("first try")
	send(t, c, cl, turn, j.Begin(turn))
	f := c.Fork(0)
	fj := j.Fork(0, "fork: ", "first try", f.Settings)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_2", "answer")})
	turn = f.Say("second try")
	send(t, f, cl, turn, fj.Begin(turn))
	j.Close()
	fj.Close()
	forked, _, err := db.Load(fj.ID())
	if err != nil || forked.Info.Title != "fork: second try" {
		t.Fatalf("fork %+v (%v)", forked, err)
	}
}
