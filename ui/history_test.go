package ui

import (
	"errors"
	"os"
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

// TestRemovedDatabaseIsOneNotice: the database file removed under a
// running chat is noticed at the next write and said once, in one notice
// naming the file and what to do, however many turns follow.
func TestRemovedDatabaseIsOneNotice(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "second answer")})
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db})
	m.Init()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db.Path() + suffix)
	}
	for _, prompt := range []string{"one", "two"} {
		m.Update(SubmitMsg{Text: prompt})
		pump(t, m, nil)
		select {
		case err := <-m.journal.Errors():
			m.Update(journalErrMsg{j: m.journal, err: err})
		case <-time.After(10 * time.Second): // a failure guard
			t.Fatal("no write failure reported")
		}
	}
	m.transcript.ScrollTo(0)
	s := strings.Join(strings.Fields(plain(m)), " ")
	if n := strings.Count(s, "the database file was removed"); n != 1 {
		t.Errorf("the removal is said %d times:\n%s", n, s)
	}
	for _, want := range []string{"no longer being saved", "restart runnel", "second answer"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen does not say %q:\n%s", want, s)
		}
	}
	m.shutdown()
}
