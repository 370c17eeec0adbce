//go:build unix

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestChatAttachmentFIFOAndEsc: an attached file replaced by a FIFO before
// enter is refused with one line and the message comes back; and esc while
// files are read stops waiting at once, puts the message back, and a
// later answer of that read sends nothing. The chat takes the next message.
func TestChatAttachmentFIFOAndEsc(t *testing.T) {
	t.Parallel()
	dir := attachDir(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true}})
	path := filepath.Join(dir, "notes.md")
	f, err := attach.Check(path, attach.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, cmd := m.Update(SubmitMsg{Text: "read this", Files: []*attach.File{f}})
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		m.Update(msg)
	case <-time.After(10 * time.Second): // a guard: the read must not wait for a writer
		t.Fatal("reading a FIFO attachment hung")
	}
	if s := plain(m); !strings.Contains(s, "not a regular file") || m.composer.Value() != "read this" {
		t.Errorf("after the FIFO: composer %q\n%s", m.composer.Value(), s)
	}

	// esc while the files are read
	os.Remove(path)
	os.WriteFile(path, []byte("notes"), 0o600)
	m.composer.SetValue("")
	_, cmd = m.Update(SubmitMsg{Text: "and now?", Files: []*attach.File{f}})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.composer.Value() != "and now?" || m.turns.attaching != nil {
		t.Fatalf("esc did not stop the read: composer %q", m.composer.Value())
	}
	m.Update(cmd()) // the read's late answer
	if m.turns.cur != nil || len(srv.Requests()) != 0 {
		t.Fatal("a read esc stopped still sent its message")
	}
	m.composer.SetValue("")
	m.Update(SubmitMsg{Text: "plain"})
	if m.turns.cur == nil {
		t.Fatal("the chat refused the next message")
	}
	pump(t, m, nil)
}
