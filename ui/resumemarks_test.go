package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestCompactionMarksAfterResume: a session compacted with /compact and
// resumed from the store shows the "context compacted" panel and the
// divider again, once — whether it was closed right after /compact (the
// window then waits in the store, and the next request sends it instead
// of the chain) or after a turn that sent the window.
func TestCompactionMarksAfterResume(t *testing.T) {
	t.Parallel()
	for _, sendAfter := range []bool{false, true} {
		srv := streamtest.New(t).Stateful(streamtest.StateOptions{ContextWindow: 300})
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_long", "the first answer, "+strings.Repeat("and more ", 100))})
		db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		o := Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}, DB: db}
		m := newTestModel(t, o)
		m.Init()
		m.Update(SubmitMsg{Text: "tell me everything"})
		pump(t, m, nil)
		m.Update(SubmitMsg{Text: "and then?"})
		pump(t, m, nil)
		runCmd(m, slashSent(m, "compact", ""))
		if sendAfter {
			m.Update(SubmitMsg{Text: "and then?"})
			pump(t, m, nil)
		}
		j := m.history.journal
		m.shutdown()
		s, _, err := db.Load(j.ID())
		if err != nil {
			t.Fatal(err)
		}
		o.Resume = s
		m = newTestModel(t, o)
		m.Init()
		v := plain(m)
		if strings.Count(v, "context compacted") != 1 || strings.Count(v, "the model's context starts here") != 1 {
			t.Errorf("sent after /compact: %v; resumed:\n%s", sendAfter, v)
		}
		if sendAfter {
			continue
		}
		m.Update(SubmitMsg{Text: "so?"})
		pump(t, m, nil)
		reqs := srv.Requests()
		last := reqs[len(reqs)-1]
		if last.PreviousResponseID() != "" || !strings.Contains(string(last.Body), `"type":"compaction"`) {
			t.Errorf("first request after the resume does not send the window: %s", last.Body)
		}
		if !strings.Contains(plain(m), "Answer") {
			t.Errorf("no answer from the compacted window:\n%s", plain(m))
		}
	}
}

// TestRetryMarkedAfterResume: a /retry is marked above its prompt, live
// and when the session is shown again from the store, once per retry: the
// prompt shows twice, the second time under the mark.
func TestRetryMarkedAfterResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first try")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "second try")})
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}, DB: db})
	m.Init()
	m.Update(SubmitMsg{Text: "pick a number"})
	pump(t, m, nil)
	m.Update(SlashMsg{Name: "retry"})
	pump(t, m, nil)
	if v := plain(m); strings.Count(v, "↻ retry") != 1 || !strings.Contains(v, "second try") {
		t.Fatalf("live:\n%s", v)
	}
	j := m.history.journal
	m.shutdown()
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	m = newTestModel(t, Options{DB: db, Resume: s})
	m.Init()
	v := plain(m)
	const prompt = "┃ pick a number"
	first, mark, again := strings.Index(v, prompt), strings.Index(v, "↻ retry"), strings.LastIndex(v, prompt)
	if strings.Count(v, "↻ retry") != 1 || strings.Count(v, prompt) != 2 || !(first < mark && mark < again) {
		t.Errorf("resumed:\n%s", v)
	}
}
