package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/stream/streamtest"
)

func attachDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"notes.md":    "the word is pamplemousse\n",
		"my shot.png": "\x89PNG\r\n\x1a\nxxxx",
		"prog":        "\x7fELF\x00\x00",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestComposerAttachmentChips: tab turns a completed @path into a chip (the
// @word leaves the text), a dropped path (quoted or backslash-escaped)
// becomes a chip, a path that cannot be attached stays text, backspace in
// an empty composer removes the last chip, and enter sends the files with
// the text, or alone.
func TestComposerAttachmentChips(t *testing.T) {
	t.Parallel()
	dir := attachDir(t)
	c := typeText(newTestComposer(), "read @"+dir+"/no")
	c, cmd := c.Update(keyMsg("tab"))
	if msgs := run(cmd); len(msgs) != 1 || !strings.HasPrefix(msgs[0].(hintMsg).text, "attached ") {
		t.Errorf("tab said %v; want one hint, nothing for the transcript", msgs)
	}
	if c.Value() != "read " || len(c.Attachments()) != 1 {
		t.Fatalf("after tab: text %q, %d chips", c.Value(), len(c.Attachments()))
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, "[notes.md · 25 B]") || c.Height() != 2 {
		t.Errorf("chip not shown (height %d):\n%s", c.Height(), v)
	}
	c, _ = c.Update(tea.PasteMsg{Content: strings.ReplaceAll(dir+"/my shot.png", " ", `\ `)})
	c, _ = c.Update(tea.PasteMsg{Content: "'" + dir + "/notes.md'"}) // already there: once
	c, _ = c.Update(tea.PasteMsg{Content: dir + "/prog"})            // a binary stays text
	if n := len(c.Attachments()); n != 2 || !strings.HasSuffix(c.Value(), dir+"/prog") {
		t.Fatalf("after pastes: %d chips, text %q", n, c.Value())
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, "[notes.md · 25 B] [my shot.png · 12 B]") {
		t.Errorf("chips:\n%s", v)
	}
	c.SetValue("")
	c, cmd = c.Update(keyMsg("backspace"))
	if n := len(c.Attachments()); n != 1 || !strings.Contains(run(cmd)[0].(hintMsg).text, "removed my shot.png") {
		t.Fatalf("backspace left %d chips", n)
	}
	if want := strings.ReplaceAll(dir+"/my shot.png", " ", `\ `); c.Value() != want {
		t.Errorf("a pasted chip removed gives back the text pasted: %q, want %q", c.Value(), want)
	}
	c.SetValue("")
	c, cmd = c.Update(keyMsg("enter"))
	msgs := run(cmd)
	if len(msgs) != 1 {
		t.Fatalf("enter gave %v", msgs)
	}
	sub := msgs[0].(SubmitMsg)
	if sub.Text != "" || len(sub.Files) != 1 || sub.Files[0].Name != "notes.md" || len(c.Attachments()) != 0 {
		t.Errorf("sent %+v; composer keeps %d chips", sub, len(c.Attachments()))
	}
	if len(c.History()) != 0 {
		t.Errorf("an empty prompt went to history: %q", c.History())
	}
}

// TestComposerMentionTypedOut: an @path typed out whole (no tab) that names
// a file is attached on enter, and stays in the text; a missing one is text.
func TestComposerMentionTypedOut(t *testing.T) {
	t.Parallel()
	dir := attachDir(t)
	c := typeText(newTestComposer(), "compare @"+dir+"/notes.md and @nothing")
	_, cmd := c.Update(keyMsg("enter"))
	sub := run(cmd)[0].(SubmitMsg)
	if len(sub.Files) != 1 || !strings.Contains(sub.Text, "@"+dir+"/notes.md") {
		t.Errorf("%+v", sub)
	}
}

// TestChatAttachmentSentAndShown: /attach makes a chip; sending reads the
// file off the update loop, the request carries it, and the transcript shows
// it under the prompt. A file that vanished before sending stops the
// message with one line, sends nothing, and puts text and chips back.
func TestChatAttachmentSentAndShown(t *testing.T) {
	t.Parallel()
	dir := attachDir(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "a png")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true},
		Attach: attach.Limits{Detail: "low"}})
	m.Update(SlashMsg{Name: "attach", Args: "'" + dir + "/my shot.png'"})
	m.Update(SlashMsg{Name: "attach", Args: dir})
	if !strings.Contains(plain(m), "is a directory") || len(m.composer.Attachments()) != 1 {
		t.Fatalf("after /attach:\n%s", plain(m))
	}
	_, cmd := m.Update(SubmitMsg{Text: "what is it?", Files: m.composer.Attachments()})
	m.composer.SetAttachments(nil)
	if cmd == nil || len(srv.Requests()) != 0 {
		t.Fatal("the file should be read in a command before anything is sent")
	}
	if _, c2 := m.Update(SubmitMsg{Text: "too soon"}); c2 != nil || m.composer.Value() != "too soon" || !strings.Contains(plain(m), "still being read") {
		t.Errorf("a message sent while files are read should wait in the composer:\n%s", plain(m))
	}
	m.composer.SetValue("")
	m.Update(cmd())
	pump(t, m, nil)
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `"image_url":"data:image/png;base64,iVBORw0KGgp4eHh4"`) || !strings.Contains(body, `"detail":"low"`) {
		t.Errorf("request body: %s", body)
	}
	if s := plain(m); !strings.Contains(s, "attached: [my shot.png · 12 B]") {
		t.Errorf("transcript:\n%s", s)
	}

	f, _ := attach.Check(filepath.Join(dir, "notes.md"), attach.Limits{})
	os.Remove(f.Path)
	_, cmd = m.Update(SubmitMsg{Text: "and this?", Files: []*attach.File{f}})
	m.Update(cmd())
	if m.turns.cur != nil || len(srv.Requests()) != 1 {
		t.Errorf("a message was sent half-attached")
	}
	if s := plain(m); !strings.Contains(s, "notes.md: unreadable") || !strings.Contains(s, "nothing was sent") {
		t.Errorf("no error line:\n%s", s)
	}
	if m.composer.Value() != "and this?" || !reflect.DeepEqual(m.composer.Attachments(), []*attach.File{f}) {
		t.Errorf("message not put back: %q %v", m.composer.Value(), m.composer.Attachments())
	}

	// /fork 1 puts turn 1's prompt and its files back, ready to send
	m.composer.SetAttachments(nil)
	m.Update(SlashMsg{Name: "fork", Args: "1"})
	got := m.composer.Attachments()
	if m.composer.Value() != "what is it?" || len(got) != 1 || got[0].Name != "my shot.png" || string(got[0].Data) != "\x89PNG\r\n\x1a\nxxxx" {
		t.Errorf("fork gave back %q with %+v", m.composer.Value(), got)
	}
}
