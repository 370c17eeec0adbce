package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/export"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// loadOnly reads the one session of db, after the journal wrote it all.
func loadOnly(t *testing.T, m *Model, db *store.DB) *store.Session {
	t.Helper()
	if r := <-m.history.journal.Export("json", filepath.Join(t.TempDir(), "sync.json"), "", export.Style{}); r.Err != nil {
		t.Fatal(r.Err) // Export runs after every queued write: a barrier
	}
	s, _, err := db.Load(m.history.journal.ID())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRetryChainsFromTheSamePreviousResponse: /retry sends the last input
// again from the same previous_response_id; both answers are saved, the new
// one is shown after the old, and the next turn chains from the new one,
// while the local history leaves the replaced answer out.
func TestRetryChainsFromTheSamePreviousResponse(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "First answer.")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "Old second answer.")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "New second answer.")},
		streamtest.Reply{SSE: streamtest.Text("resp_4", "Third answer.")})
	db := openDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, DB: db, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	if err := Validate("retry", ""); err != nil {
		t.Fatal(err)
	}
	m.slash("retry", "")
	if !strings.Contains(plain(m), "nothing to retry yet") {
		t.Errorf("/retry before any turn:\n%s", plain(m))
	}
	for _, p := range []string{"one", "two"} {
		m.Update(SubmitMsg{Text: p})
		pump(t, m, nil)
	}
	runCmd(m, m.slash("retry", ""))
	pump(t, m, nil)
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[2].PreviousResponseID() != "resp_1" {
		t.Fatalf("/retry chained to %q; want resp_1, as the retried request", reqs[2].PreviousResponseID())
	}
	in := func(r streamtest.Recorded) string { b, _ := json.Marshal(r.JSON()["input"]); return string(b) }
	if in(reqs[2]) != in(reqs[1]) {
		t.Errorf("/retry input %s; want the retried %s", in(reqs[2]), in(reqs[1]))
	}
	v := plain(m)
	if o, n := strings.Index(v, "Old second answer."), strings.Index(v, "New second answer."); o < 0 || n < o {
		t.Errorf("want the old answer, then the new one:\n%s", v)
	}
	m.Update(SubmitMsg{Text: "three"})
	pump(t, m, nil)
	if p := srv.Requests()[3].PreviousResponseID(); p != "resp_3" {
		t.Errorf("the turn after /retry chained to %q; want the new answer resp_3", p)
	}
	full, _ := json.Marshal(m.turns.conv.FullInput())
	if strings.Contains(string(full), "Old second answer.") || !strings.Contains(string(full), "New second answer.") {
		t.Errorf("local history keeps the replaced answer: %s", full)
	}
	s := loadOnly(t, m, db)
	if len(s.Turns) != 4 || s.Turns[2].Prompt != "two" || s.Turns[2].PreviousResponseID != "resp_1" || s.LastResponseID() != "resp_4" {
		t.Fatalf("saved turns: %d, third %+v", len(s.Turns), s.Turns[2])
	}
	rebuilt, _ := json.Marshal(s.RebuildInput())
	if strings.Contains(string(rebuilt), "Old second answer.") || strings.Count(string(rebuilt), `"two"`) != 1 {
		t.Errorf("the stored session rebuilds with the replaced answer: %s", rebuilt)
	}
	m.shutdown()
}

// TestExportRenameTheme: /export writes markdown named from the title in
// the current directory, or json to a path; /rename retitles the session;
// /theme switches the palette and refuses unknown names.
func TestExportRenameTheme(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "Plan: ship it.")})
	db := openDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, DB: db, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	slashSent(m, "rename", "too early")
	if !strings.Contains(plain(m), "nothing to rename yet") {
		t.Error("/rename before a turn")
	}
	m.Update(SubmitMsg{Text: "What is the plan?"})
	pump(t, m, nil)
	runCmd(m, m.slash("export", ""))
	md, err := os.ReadFile(filepath.Join(dir, "what-is-the-plan.md"))
	if err != nil || !strings.Contains(string(md), "Plan: ship it.") {
		t.Fatalf("markdown export: %v\n%s\nscreen:\n%s", err, md, plain(m))
	}
	if !strings.Contains(plain(m), "exported the session to "+filepath.Join(dir, "what-is-the-plan.md")+" (markdown)") {
		t.Errorf("no line saying where:\n%s", plain(m))
	}
	runCmd(m, m.slash("export", "")) // taken: a new name
	if _, err := os.Stat(filepath.Join(dir, "what-is-the-plan-2.md")); err != nil {
		t.Error(err)
	}
	runCmd(m, m.slash("export", "html")) // a page, named .html
	page, err := os.ReadFile(filepath.Join(dir, "what-is-the-plan.html"))
	if err != nil || !strings.HasPrefix(string(page), "<!DOCTYPE html>") || !strings.Contains(string(page), "<p>Plan: ship it.</p>") || strings.Contains(string(page), "<script") {
		t.Fatalf("html export: %v\n%s", err, page)
	}
	if !strings.Contains(plain(m), "what-is-the-plan.html (html)") {
		t.Errorf("no line saying where the page went:\n%s", plain(m))
	}

	slashSent(m, "rename", "Shipping plan")
	if err := Validate("rename", ""); err == nil {
		t.Error("/rename with no title passed")
	}
	out := filepath.Join(dir, "out.json")
	runCmd(m, m.slash("export", "json "+out))
	var doc map[string]any
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &doc); err != nil || !strings.Contains(string(data), "Plan: ship it.") || !strings.Contains(string(data), "Shipping plan") {
		t.Fatalf("json export: %v\n%s", err, data)
	}
	if s := loadOnly(t, m, db); s.Info.Title != "Shipping plan" {
		t.Errorf("title %q after /rename", s.Info.Title)
	}
	runCmd(m, m.slash("export", dir)) // a directory
	if v := plain(m); !strings.Contains(v, "it is a directory, not a regular file") {
		t.Errorf("export to a directory:\n%s", v)
	}
	null := filepath.Join(dir, "null")
	os.Symlink("/dev/null", null)
	runCmd(m, m.slash("export", null)) // a device, as sessions export -o refuses it
	if v := plain(m); !strings.Contains(v, "it is a character device, not a") {
		t.Errorf("export to a device:\n%s", v)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Error("/dev/null is no longer a device")
	}
	m.Update(titleMsg{title: "A model's title"})
	if s := loadOnly(t, m, db); s.Info.Title != "Shipping plan" {
		t.Errorf("a model title replaced /rename's: %q", s.Info.Title)
	}

	before := m.frame.styles
	m.slash("theme", "light")
	if m.frame.look.name != "light" || m.frame.styles == before || !strings.Contains(plain(m), "theme: light") {
		t.Errorf("/theme light: theme %q", m.frame.look.name)
	}
	if err := Validate("theme", ""); err == nil || !strings.Contains(err.Error(), "auto, dark, light, high-contrast, solarized") {
		t.Errorf("/theme alone: %v", err)
	}
	var names []string
	for _, c := range Complete("/") {
		names = append(names, c.Name)
	}
	for _, want := range []string{"export", "rename", "retry", "theme"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("completion lacks /%s: %v", want, names)
		}
	}
	m.shutdown()
}

func TestExportArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, format, path string }{
		{"", "markdown", ""},
		{"json", "json", ""},
		{"md notes.md", "markdown", "notes.md"},
		{"json out/a b.json", "json", "out/a b.json"},
		{"talk.json", "json", "talk.json"},
		{"talk.txt", "markdown", "talk.txt"},
		{"html", "html", ""},
		{"html out/page", "html", "out/page"},
		{"Talk.HTML", "html", "Talk.HTML"},
	} {
		if f, p := exportArgs(tc.in); f != tc.format || p != tc.path {
			t.Errorf("%q: %q %q", tc.in, f, p)
		}
	}
	if got := session.FileName("Fix: the retry loop!", "0k3"); got != "fix-the-retry-loop" {
		t.Errorf("FileName %q", got)
	}
	if got := session.FileName("…", "0k3"); got != "runnel-0k3" {
		t.Errorf("FileName %q", got)
	}
}

// TestFixedArgumentsComplete: /effort, /theme and /export complete their
// fixed arguments as /model completes its models.
func TestFixedArgumentsComplete(t *testing.T) {
	t.Parallel()
	c := NewComposer(nil)
	for text, want := range map[string]string{"/effort hi": "high", "/theme li": "light", "/export ht": "html"} {
		got := c.menu.argRows(text)
		if len(got) == 0 || got[0].arg != want {
			t.Errorf("%q completes to %+v, want %q first", text, got, want)
		}
	}
}
