package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestLLMTitle: with llm_title on, the model's short title replaces the
// first prompt as the session's title, asked without storing anything.
func TestLLMTitle(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "an answer")}, streamtest.Reply{SSE: streamtest.Text("resp_t", "\"Streaming Markdown Basics.\"")})
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db, LLMTitle: true})
	m.Init()
	m.Update(SubmitMsg{Text: "how does streaming markdown work in a terminal?"})
	pump(t, m, nil)
	msg := askTitle(m.frame.ctx, m.opts.Client, m.turns.conv.Settings.Model, "how does streaming markdown work in a terminal?")()
	if tm, ok := msg.(titleMsg); !ok || tm.title != "Streaming Markdown Basics" {
		t.Fatalf("title msg %#v", msg)
	}
	m.Update(msg)
	j := m.history.journal
	m.shutdown() // the journal's writes land first, the session row among them
	id := j.ID()
	list, _ := db.List(1)
	if len(list) != 1 || list[0].ID != id || list[0].Title != "Streaming Markdown Basics" {
		t.Errorf("sessions %+v", list)
	}
	req := srv.Requests()[1].JSON()
	if req["store"] != false || !strings.Contains(req["instructions"].(string), "title") {
		t.Errorf("title request %v", req)
	}
}
