package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestShellCommand: "!printf hello" runs in the shell off the Update loop,
// shows hello in a tool panel and sends nothing; its output joins the next
// message as a chip, and that message carries it to the model.
func TestShellCommand(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "it says hello")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true}})
	m.composer.SetValue("!printf hello")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.composer.Value() != "" || !strings.Contains(plain(m), "running !printf hello") {
		t.Fatalf("while it runs:\n%s", plain(m))
	}
	var done []tea.Msg
	for _, msg := range run(cmd) {
		if _, ok := msg.(shellDoneMsg); ok {
			done = append(done, msg)
		}
	}
	if len(done) != 1 {
		t.Fatalf("enter gave no shellDoneMsg")
	}
	_, cmd = m.Update(done[0])
	for _, msg := range run(cmd) {
		m.Update(msg) // the panel and the hint (its expiry is not run)
	}
	v := plain(m)
	if !strings.Contains(v, "!printf hello") || !strings.Contains(v, "hello") || !strings.Contains(v, "completed") {
		t.Errorf("no panel with the output:\n%s", v)
	}
	if !strings.Contains(v, "[!printf hello output · 5 B]") {
		t.Errorf("no chip of the output:\n%s", v)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("a !command sent %d requests", n)
	}
	m.composer.SetValue("what does it say?")
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, msg := range run(cmd) {
		if sub, ok := msg.(SubmitMsg); ok {
			_, c2 := m.Update(sub)
			m.Update(c2()) // the attachments read
		}
	}
	pump(t, m, nil)
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `\u003cfile path=\"!printf hello\"\u003e\nhello\n\u003c/file\u003e`) || !strings.Contains(body, "what does it say?") {
		t.Errorf("the next message does not carry the output: %s", body)
	}
}

// TestShellCommandStops: esc stops a command that runs (the root gives the
// key to the composer first); its panel says cancelled and nothing is
// attached. "!" alone says what to type.
func TestShellCommandStops(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	m := newTestModel(t, Options{})
	m.composer.SetValue("!sleep 30")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a := decideKey(&m.keyState.keys, tea.KeyPressMsg{Code: tea.KeyEscape}, m.keyFacts()); a != actComposer {
		t.Fatalf("esc while a command runs: %v, want the composer's", a)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	for _, msg := range run(cmd) { // ends at once: cancelled
		if d, ok := msg.(shellDoneMsg); ok {
			if d.run.Status != tools.StatusCancelled {
				t.Errorf("status %v", d.run.Status)
			}
			_, c2 := m.Update(d)
			for _, msg := range run(c2) {
				m.Update(msg)
			}
		}
	}
	if v := plain(m); !strings.Contains(v, "cancelled") || len(m.composer.Attachments()) != 0 {
		t.Errorf("after esc:\n%s", v)
	}
	m.composer.SetValue("!")
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if msgs := run(cmd); len(msgs) == 0 || !strings.Contains(msgs[0].(hintMsg).text, "type a command after !") {
		t.Errorf("! alone: %v", msgs)
	}
}
