package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestTurnEndHoldsTheStoreForItsFrame: the batches that close the answer
// and end the turn hold the history's writer (session.Journal.Defer) so
// that the end is drawn before the store indexes the answer; nothing is
// lost by it: the chat's shutdown writes what the hold kept waiting.
func TestTurnEndHoldsTheStoreForItsFrame(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "held ", "answer")})
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db})
	m.turns.endHold = time.Hour // the writer waits SaveEvery at most, or until Close
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	j := m.history.journal
	if !j.Holding() {
		t.Fatal("the turn ended and the store's writer is not held for its frame")
	}
	m.shutdown()
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 1 || !s.Turns[0].Responses[0].Items[0].Done || !strings.Contains(string(s.Turns[0].Responses[0].Items[0].Raw), "held answer") {
		t.Fatalf("the held writes were not made: %+v", s.Turns)
	}
}
