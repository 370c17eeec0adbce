package main

// End-to-end tests, in tmux, of what the chat says about its history: a
// database removed under it, and a cut-off turn exported later.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestChatRemovedDatabase: removing the database's files under a running
// chat makes the next turn say, once and in one notice, that the session is
// no longer being saved and what to do; the chat goes on.
func TestChatRemovedDatabase(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "second answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "third answer")})
	data := t.TempDir()
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}, binary(t))
	p.waitText("Ask anything")
	p.say("one")
	p.waitText("first answer")
	db := filepath.Join(data, "runnel", "runnel.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	p.say("two")
	p.waitText("second answer")
	p.waitFor("the notice", func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), " "), "no longer being saved")
	})
	p.say("three")
	p.waitText("third answer")
	s := strings.Join(strings.Fields(p.screen()), " ")
	if n := strings.Count(s, "the database file was removed"); n != 1 {
		t.Errorf("said %d times:\n%s", n, s)
	}
	if !strings.Contains(s, db) || !strings.Contains(s, "restart runnel") {
		t.Errorf("the notice does not name the file and what to do:\n%s", s)
	}
}

// TestChatCutOffTurnExport: a stream that ends before its response
// finishes is reported in the chat, and `runnel export` of the session says
// the same, in markdown and in JSON, and so does the chat resuming it.
func TestChatCutOffTurnExport(t *testing.T) {
	t.Parallel()
	evs := streamtest.SplitEvents(sharedtest.ReadReal(t, "vercel__ai/lmstudio-basic-markdown.sse"))
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: bytes.Join(evs[:len(evs)/2], nil)})
	data := t.TempDir()
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}, binary(t))
	p.waitText("Ask anything")
	p.say("write markdown")
	p.waitText(stream.CutOffNote)
	p.quit()
	p.waitText("[exited 0]")

	dir := filepath.Join(data, "runnel")
	db, err := store.Open(filepath.Join(dir, "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	sid, err := db.Latest()
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	id := string(sid)
	md, stderr, code := runBinary(t, nil, "", "export", id, "--format", "markdown", "--data-dir", dir)
	if code != exitOK || !strings.Contains(md, "**Cut off:** "+stream.CutOffNote) || strings.Contains(md, "no reason") {
		t.Errorf("markdown export (%d, %s):\n%s", code, stderr, md)
	}
	js, _, _ := runBinary(t, nil, "", "export", id, "--format", "json", "--data-dir", dir)
	if !strings.Contains(js, `"error": "`+stream.CutOffNote+`"`) {
		t.Errorf("json export:\n%s", js)
	}

	// Resumed, the chat says what it said live, as a warning again.
	q := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}, binary(t), "-c")
	q.waitText("resumed")
	q.waitText("! " + stream.CutOffNote + " — the partial answer is kept")
}
