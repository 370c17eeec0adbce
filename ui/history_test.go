package ui

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestNoHistoryStillChats: with the store unavailable the chat says so once
// and works.
func TestNoHistoryStillChats(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "answer without history")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, HistoryErr: errors.New("history unavailable: /x/runnel.db: not a readable SQLite database")})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	s := plain(m)
	if !strings.Contains(s, "/x/runnel.db") || !strings.Contains(s, "will not be saved") || !strings.Contains(s, "answer without history") {
		t.Errorf("screen:\n%s", s)
	}
}

// TestSaveFailureIsANotice: when writing the history fails mid-stream (disk
// full, closed database), the answer still streams and a notice says what
// was not saved.
func TestSaveFailureIsANotice(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "still ", "streaming")})
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db})
	m.Init()
	db.Close() // every write from now on fails
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	select {
	case err := <-m.journal.Errors():
		m.Update(journalErrMsg{j: m.journal, err: err})
	case <-time.After(10 * time.Second): // a failure guard
		t.Fatal("no write failure reported")
	}
	s := plain(m)
	if !strings.Contains(s, "still streaming") || !strings.Contains(s, "not saved") {
		t.Errorf("screen:\n%s", s)
	}
	m.shutdown()
}
