package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/ui/block"
)

// TestNoHistoryStillChats: with the store unavailable the chat says so once
// and works.
func TestNoHistoryStillChats(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	case err := <-m.history.journal.Errors():
		m.Update(journalErrMsg{j: m.history.journal, err: err})
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
	t.Parallel()
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
		case err := <-m.history.journal.Errors():
			m.Update(journalErrMsg{j: m.history.journal, err: err})
		case <-time.After(10 * time.Second): // a failure guard
			t.Fatal("no write failure reported")
		}
	}
	m.items.transcript.ScrollTo(0)
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

// TestHistoryReportsByMessage: the history child reaches the rest of the
// chat only through what it posts. A journal failure posts one warning
// however often it repeats; a replaced journal's failure posts nothing; a
// loaded session is posted for the root to show, the journal untouched
// until the root resumes it; opening a session closes the dialog first.
func TestHistoryReportsByMessage(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	h := &history{db: db}
	f := &frameState{clock: time.Now}
	if h.start(session.Settings{Model: "m"}) == nil || h.journal == nil {
		t.Fatal("no journal with a store")
	}
	old := h.journal
	full := errors.New("disk full")
	for range 3 {
		if h.Update(journalErrMsg{j: old, err: full}, f) == nil {
			t.Fatal("the journal is no longer watched")
		}
	}
	if len(f.outbox) != 1 {
		t.Fatalf("posted %d messages for one failure repeated: %#v", len(f.outbox), f.outbox)
	}
	if n, ok := f.outbox[0].(noticeMsg); !ok || n.kind != block.Warning || n.text != "disk full — the chat goes on; what streams now may not be saved" {
		t.Fatalf("posted %#v", f.outbox[0])
	}

	// a removed file is said once, whichever writes find it gone
	f.outbox = nil
	for _, op := range []string{"finish turn", "save item", "begin turn"} {
		h.Update(journalErrMsg{j: old, err: &store.Error{Op: op, Kind: store.ErrGone, Detail: "the database file was removed"}}, f)
	}
	if len(f.outbox) != 1 {
		t.Fatalf("a removed file was said %d times: %#v", len(f.outbox), f.outbox)
	}

	f.outbox = nil
	h.journal = nil
	old.Close()
	h.start(session.Settings{Model: "m"})
	t.Cleanup(func() { h.journal.Close() })
	if h.Update(journalErrMsg{j: old, err: errors.New("closed")}, f); len(f.outbox) != 0 {
		t.Fatalf("a replaced journal's failure posted %#v", f.outbox)
	}

	s := &store.Session{Info: store.SessionInfo{ID: "s1", Title: "t"}}
	cur := h.journal
	h.Update(loadedMsg{s: s, turn: 2}, f)
	if len(f.outbox) != 1 || h.journal != cur {
		t.Fatalf("a loaded session posted %#v; journal replaced: %v", f.outbox, h.journal != cur)
	}
	if l, ok := f.outbox[0].(sessionLoadedMsg); !ok || l.s != s || l.turn != 2 || l.warns != nil {
		t.Fatalf("a loaded session posted %#v", f.outbox[0])
	}

	f.outbox = nil
	load := h.Update(OpenSessionMsg{ID: "nope"}, f)
	if len(f.outbox) != 1 || f.outbox[0] != any(DialogClosedMsg{}) || load == nil {
		t.Fatalf("OpenSessionMsg posted %#v, load %v", f.outbox, load != nil)
	}
	f.outbox = nil
	if h.Update(load(), f); len(f.outbox) != 1 {
		t.Fatalf("a missing session posted %#v", f.outbox)
	} else if n, ok := f.outbox[0].(noticeMsg); !ok || n.kind != block.Error {
		t.Fatalf("a missing session posted %#v", f.outbox[0])
	}
}

// TestQuitMidAnswerKeepsWhatWasShown: quitting while an answer streams
// writes all that was shown of it to the history, the last delta included
// (the turns child flushes its turn's record on quitMsg), though the record
// wrote it last a frame earlier; the turn stays unfinished there.
func TestQuitMidAnswerKeepsWhatWasShown(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	gate := make(chan struct{}, 16)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "kept ", "when ", "quitting", " never sent"), Gate: gate})
	db := tempDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	now := time.Unix(1_700_000_000, 0)
	show := func(events int, want string) {
		for range events {
			gate <- struct{}{}
		}
		deadline := time.After(10 * time.Second) // a failure guard
		for !strings.Contains(plain(m), want) {
			select {
			case b, ok := <-m.turns.cur.handle.Chan():
				if !ok || b.Final {
					t.Fatalf("the stream ended before %q showed", want)
				}
				m.Update(batchMsg{gen: m.turns.cur.gen, batch: b})
				now = now.Add(20 * time.Millisecond) // within the record's SaveEvery: no save is due
				m.Update(frameMsg{gen: m.turns.gen, now: now})
			case <-deadline:
				t.Fatalf("%q never showed:\n%s", want, plain(m))
			}
		}
	}
	show(5, "kept") // created, in progress, the item, its part, the first delta: the record's first note writes it
	show(2, "kept when quitting")
	j := m.history.journal
	m.shutdown()
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	conv, probs := session.FromStore(s)
	if len(probs) > 0 || len(conv.Turns) != 1 || len(conv.Turns[0].Responses) != 1 || len(conv.Turns[0].Responses[0].Items) != 1 {
		t.Fatalf("stored: %d turns, problems %v", len(conv.Turns), probs)
	}
	st := conv.Turns[0]
	if got := st.Responses[0].Items[0].Text(); got != "kept when quitting" || !st.Interrupted() {
		t.Errorf("stored %q, interrupted %v", got, st.Interrupted())
	}
	close(gate) // the stream's last events go to no one
}
