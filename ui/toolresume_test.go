package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/ui/pace"
)

// TestStoppedRoundResumesWithItsOutcome: the chat journals how each run
// ended beside its output (typed, not as text), so a session whose round
// the user stopped resumes with the call's header saying cancelled, as it
// said live, and how long the call ran; nothing is read out of the output
// sent to the model.
func TestStoppedRoundResumesWithItsOutcome(t *testing.T) {
	t.Parallel()
	tl, _ := blockingTool(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...)})
	db := tempDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, DB: db})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "run the slow tool"})
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the printed line", func() bool {
		it := m.tools.round.calls["call_1"]
		return it != nil && strings.Contains(string(it.Output), "printed-before-kill")
	})
	d.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	d.until("the round to end", func() bool { return !m.tools.busy() })
	live := m.tools.round.runs["call_1"]
	if live.Outcome != tools.StatusCancelled || live.Phase != tools.RunEnded {
		t.Fatalf("live run %+v, want cancelled", live)
	}
	sid := m.history.journal.ID()
	m.shutdown()

	s, _, err := db.Load(sid)
	if err != nil {
		t.Fatal(err)
	}
	runs := tools.DecodeRuns(s.Turns[len(s.Turns)-1].Runs)
	if r := runs["call_1"]; r.Outcome != tools.StatusCancelled || r.Took != live.Took.Truncate(time.Millisecond) {
		t.Errorf("stored run %+v, want cancelled after %v", r, live.Took)
	}
	again := newTestModel(t, Options{DB: db, Resume: s, Client: &stream.Client{BaseURL: srv.URL}, Tools: tl})
	again.Init()
	again.tick(time.Now(), pace.DrawFull) // a frame: the panels given their outputs redraw
	var header string
	for _, l := range strings.Split(plain(again), "\n") {
		if strings.Contains(l, "╭") && strings.Contains(l, "slow_tool") {
			header = l
		}
	}
	if !strings.Contains(header, "cancelled") || strings.Contains(header, "unknown") || strings.Contains(header, "completed") {
		t.Errorf("resumed header %q:\n%s", header, plain(again))
	}
	again.shutdown()
}
