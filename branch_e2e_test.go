package main

// End-to-end test of editing an earlier prompt, in tmux.

import (
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestEditBranchSwitchAndResume: four turns; /edit 2 sends an edited
// prompt chained to turn 1's response; ctrl+left shows the first branch
// again; /tree lists both; after quitting, -c resumes the branch last shown.
func TestEditBranchSwitchAndResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	data := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	for _, w := range []string{"one", "two", "three", "four"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_"+w, "answer "+w)})
		p.say("question " + w)
		p.waitText("answer " + w)
		p.waitTurnEnd()
	}
	p.say("/edit 2")
	p.waitText("editing turn 2")
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_edit", "edited answer")})
	p.say(", edited") // after "question two": emptying the composer would leave the edit
	s := p.waitText("edited answer")
	if !strings.Contains(s, "◀ 2/2 ▶") || strings.Contains(s, "answer three") {
		t.Errorf("after the edit:\n%s", s)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].PreviousResponseID(); got != "resp_one" {
		t.Errorf("the edit chains to %q, want resp_one", got)
	}
	p.waitTurnEnd()
	p.keys("C-Left")
	s = p.waitText("showing branch 1 of 2 at turn 2")
	if !strings.Contains(s, "answer four") || strings.Contains(s, "edited answer") {
		t.Errorf("ctrl+left did not show the first branch:\n%s", s)
	}
	p.say("/tree")
	s = p.waitText("Branches 2")
	if !strings.Contains(s, "question two, edited") || !strings.Contains(s, "4 turns · shown") {
		t.Errorf("/tree:\n%s", s)
	}
	p.keys("Escape")
	p.waitFor("the dialog to close", func(s string) bool { return !strings.Contains(s, "Branches 2") }) // esc then ctrl+c at once reads as alt+ctrl+c
	p.quit()
	p.waitText("[exited 0]")

	q := startPane(t, 100, 30, env, binary(t), "-c")
	s = q.waitText("resumed")
	if !strings.Contains(s, "4 turns shown · 2 branches") || !strings.Contains(s, "answer four") {
		t.Errorf("resume:\n%s", s)
	}
}
