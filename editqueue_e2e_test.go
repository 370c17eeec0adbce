package main

// End-to-end tests of edit mode's ways out and the queue, in tmux.

import (
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// threePrompts starts a chat against a stateful fake server and sends
// three prompts, answered "answer one" … as resp_1 … resp_3.
func threePrompts(t *testing.T) (*pane, *streamtest.Server) {
	t.Helper()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": t.TempDir()}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	for i, w := range []string{"one", "two", "three"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_"+string(rune('1'+i)), "answer "+w)})
		p.say("question " + w)
		p.waitText("answer " + w)
		p.waitTurnEnd()
	}
	return p, srv
}

// escEsc enters edit mode on the last prompt, as a user does.
func escEsc(p *pane) {
	p.keys("Escape")
	p.waitText("esc again to edit")
	p.keys("Escape")
	p.waitText("✎ editing turn 3")
}

// TestTmuxEditModeExits: esc on the unchanged edit, ctrl+c and emptying
// the composer each leave edit mode, saying so; the line under the
// composer goes, ctrl+c does not arm quitting, and the next prompt follows
// turn 3 (no branch).
func TestTmuxEditModeExits(t *testing.T) {
	t.Parallel()
	for _, exit := range []struct{ name, key, says string }{
		{"esc", "Escape", "left edit mode — nothing changed"},
		{"ctrl+c", "C-c", "left edit mode — nothing changed"},
		{"emptied", "C-u", "left edit mode — the composer is empty"},
	} {
		t.Run(exit.name, func(t *testing.T) {
			t.Parallel()
			p, srv := threePrompts(t)
			escEsc(p)
			p.keys(exit.key)
			s := p.waitText(exit.says)
			if strings.Contains(s, "✎ editing") || strings.Contains(s, "press ctrl+c again") || strings.Contains(lastLines(s, 3), "question three") {
				t.Errorf("after %s:\n%s", exit.name, s)
			}
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer four")})
			p.say("four delta")
			p.waitText("answer four")
			reqs := srv.Requests()
			if got := reqs[len(reqs)-1].PreviousResponseID(); got != "resp_3" {
				t.Errorf("after leaving the edit the prompt chains to %q, want resp_3", got)
			}
		})
	}
}

// TestTmuxEditSaysWhatStays: while an edit is pending the line under the
// composer says turn 3 stays on the other branch; the send says it again
// before the prompt, and goes out as a branch from turn 2.
func TestTmuxEditSaysWhatStays(t *testing.T) {
	t.Parallel()
	p, srv := threePrompts(t)
	escEsc(p)
	p.waitText("enter: turn 3 stays on the other branch (/tree)")
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "edited answer")})
	p.say(", edited")
	s := p.waitText("edited answer")
	note := strings.Index(s, "sending as a branch from turn 2: turn 3 stays on the other branch (/tree)")
	if note < 0 || note > strings.Index(s, "question three, edited") {
		t.Errorf("the send does not say what stays, above the prompt:\n%s", s)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].PreviousResponseID(); got != "resp_2" {
		t.Errorf("the edit chains to %q, want resp_2", got)
	}
}

// TestTmuxQueue: messages typed while a reply streams are queued under the
// composer and go out after response.completed, once each, in order; esc
// takes the last one back into the composer, and it is never sent.
func TestTmuxQueue(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": t.TempDir()}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	gate := make(chan struct{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "answer ", "one"), Gate: gate})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_2", "answer two")})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_3", "answer three")})
	p.say("question one")
	gate <- struct{}{} // response.created
	p.waitText("streaming")
	p.say("question two")
	p.waitText("⏸ queued: question two")
	p.say("question three")
	p.waitText("⏸ queued: question three")
	p.say("take me back")
	p.waitText("⏸ queued: take me back")
	p.keys("Escape")
	s := p.waitText("taken back from the queue")
	if strings.Contains(s, "⏸ queued: take me back") || !strings.Contains(lastLines(s, 6), "› take me back") || !strings.Contains(s, "streaming") {
		t.Errorf("esc did not take the last queued message back (or stopped the reply):\n%s", s)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests while the first reply streams; want 1", n)
	}
	close(gate) // the rest of the first reply, to response.completed
	p.waitText("answer three")
	s = p.waitFor("the queue to empty", func(s string) bool { return strings.Contains(lastLines(s, 2), "ready") })
	var sent []string
	for _, r := range srv.Requests() {
		for _, q := range []string{"question one", "question two", "question three", "take me back"} {
			if strings.Contains(string(r.Body), q) {
				sent = append(sent, q)
			}
		}
	}
	if got := strings.Join(sent, ", "); got != "question one, question two, question three" {
		t.Errorf("sent %q; want each queued message once, in order, and not the one taken back", got)
	}
	if strings.Contains(s, "⏸ queued") || !strings.Contains(s, "› take me back") {
		t.Errorf("after the queue:\n%s", s)
	}
}
