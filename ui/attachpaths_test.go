package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// spacedDir is a temporary directory holding "my dir/file one.txt" and
// "my dir/file two.txt".
func spacedDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "my dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"file one.txt", "file two.txt"} {
		if err := os.WriteFile(filepath.Join(dir, "my dir", n), []byte(n+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestComposerCompletesSpacedPathsQuoted: tab through a directory whose name
// holds a space writes it quoted and open, @"…/my dir/, so the next tab goes
// on from it; the files it holds are listed quoted, and the one left becomes
// a chip. A quoted @path typed out whole is attached on enter.
func TestComposerCompletesSpacedPathsQuoted(t *testing.T) {
	t.Parallel()
	dir := spacedDir(t)
	c := typeText(newTestComposer(), "read @"+dir+"/my")
	c, cmd := c.Update(keyMsg("tab"))
	if want := `read @"` + dir + `/my dir/`; c.Value() != want || run(cmd) != nil {
		t.Fatalf("tab on a spaced directory: %q, want %q", c.Value(), want)
	}
	// the popup lists the directory's files; down and tab take the second
	if v := c.View(); !strings.Contains(v, "/my dir/file one.txt") || !strings.Contains(v, "/my dir/file two.txt") {
		t.Fatalf("the popup does not list the files:\n%s", v)
	}
	c, _ = c.Update(keyMsg("down"))
	c, cmd = c.Update(keyMsg("tab"))
	if msgs := run(cmd); c.Value() != "read " || len(c.Attachments()) != 1 || c.Attachments()[0].Name != "file two.txt" {
		t.Fatalf("second tab: %q, %d chips, %v", c.Value(), len(c.Attachments()), msgs)
	}

	c = typeText(newTestComposer(), `compare @"`+dir+`/my dir/file one.txt", please`)
	_, cmd = c.Update(keyMsg("enter"))
	sub := run(cmd)[0].(SubmitMsg)
	if len(sub.Files) != 1 || sub.Files[0].Name != "file one.txt" || !strings.Contains(sub.Text, `@"`+dir+`/my dir/file one.txt"`) {
		t.Errorf("sent %+v", sub)
	}
}

// TestPastedPathThatStaysTextSaysWhy: a pasted path to a directory, a
// binary or a file over the limit stays text, and one line says why, in
// the words -f uses; a path to nothing is text without a word.
func TestPastedPathThatStaysTextSaysWhy(t *testing.T) {
	t.Parallel()
	dir := attachDir(t)
	for _, c := range []struct{ paste, why string }{
		{dir, "is a directory"},
		{dir + "/prog", "unsupported type"},
		{"'" + dir + "/notes.md'", "too big (25 B; the limit is 10 B per file"},
	} {
		comp := newTestComposer()
		comp.Configure(t.Context(), Options{Attach: attach.Limits{MaxFile: 10}})
		comp, cmd := comp.Update(tea.PasteMsg{Content: c.paste})
		var notes []string
		for _, msg := range run(cmd) {
			if n, ok := msg.(hintMsg); ok {
				notes = append(notes, n.text)
			}
		}
		if comp.Value() != c.paste || len(comp.Attachments()) != 0 {
			t.Errorf("paste %q: text %q, %d chips", c.paste, comp.Value(), len(comp.Attachments()))
		}
		if len(notes) != 1 || !strings.HasPrefix(notes[0], "cannot attach ") || !strings.Contains(notes[0], c.why) ||
			!strings.HasSuffix(notes[0], "(the pasted path stays text)") || strings.Contains(notes[0], "\n") {
			t.Errorf("paste %q: notices %q, want one line saying %q", c.paste, notes, c.why)
		}
	}
	comp, cmd := newTestComposer().Update(tea.PasteMsg{Content: dir + "/missing.png"})
	for _, msg := range run(cmd) {
		if _, ok := msg.(hintMsg); ok {
			t.Errorf("a path to nothing got a hint: %v", msg)
		}
	}
	if comp.Value() != dir+"/missing.png" {
		t.Errorf("text %q", comp.Value())
	}
}

// TestChatSendsNoLocalPath: a dropped image from outside the working
// directory goes to the model as its base name, an @path inside it as its
// relative path: the request names neither directory.
func TestChatSendsNoLocalPath(t *testing.T) {
	work, shots := spacedDir(t), attachDir(t)
	t.Chdir(work)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "seen")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true}})
	m.Update(tea.PasteMsg{Content: strings.ReplaceAll(shots+"/my shot.png", " ", `\ `)}) // a drop
	if len(m.composer.Attachments()) != 1 {
		t.Fatalf("the drop made no chip:\n%s", plain(m))
	}
	m.composer.SetValue(`compare with @"my dir/file one.txt"`)
	_, cmd := m.Update(keyMsg("enter"))
	msgs := run(cmd)
	if len(msgs) != 1 {
		t.Fatalf("enter gave %v", msgs)
	}
	if sub, ok := msgs[0].(SubmitMsg); !ok || len(sub.Files) != 2 {
		t.Fatalf("enter gave %+v", msgs[0])
	}
	_, cmd = m.Update(msgs[0])
	m.Update(cmd()) // the files read
	pump(t, m, nil)
	if len(srv.Requests()) != 1 {
		t.Fatalf("%d requests", len(srv.Requests()))
	}
	body := string(srv.Requests()[0].Body)
	if strings.Contains(body, work) || strings.Contains(body, shots) {
		t.Errorf("a local directory went to the server: %s", body)
	}
	for _, want := range []string{`\u003cimage path=\"my shot.png\"\u003e`, `\u003cfile path=\"my dir/file one.txt\"\u003e`} {
		if !strings.Contains(body, want) {
			t.Errorf("request lacks %s: %s", want, body)
		}
	}
}
