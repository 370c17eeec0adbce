package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// reported is the OSC 7501 report of a view ("" for none).
func reported(v tea.View) string {
	if v.ProgramStatus == nil {
		return ""
	}
	return ansi.SetProgramStatus(*v.ProgramStatus)
}

const (
	oscWorking = "\x1b]7501;state=working:app=runnel\x07"
	oscBlocked = "\x1b]7501;state=blocked:kind=permission:app=runnel\x07"
	oscDone    = "\x1b]7501;state=done:app=runnel\x07"
	oscError   = "\x1b]7501;state=error:app=runnel\x07"
	oscIdle    = "\x1b]7501;state=idle:app=runnel\x07"
)

// TestProgramStatusFollowsTheTurn: the view reports nothing before the first
// turn, working once the request is sent, then done, or error when the server
// failed it; the report names the program and carries no text of the turn.
func TestProgramStatusFollowsTheTurn(t *testing.T) {
	t.Parallel()
	for fixture, end := range map[string]string{
		"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse": oscDone,
		"vercel__ai/openai-error-insufficient-quota.sse":             oscError,
	} {
		srv := streamtest.New(t)
		srv.Enqueue(streamtest.Reply{File: sharedtest.Real(t, fixture)})
		m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
		m.Init()
		if got := reported(m.View()); got != "" {
			t.Errorf("%s: before the turn: %q", fixture, got)
		}
		_, cmd := m.Update(SubmitMsg{Text: "hello"})
		if got := reported(m.View()); got != oscWorking {
			t.Errorf("%s: with the request sent: %q", fixture, got)
		}
		deliver(m, cmd)
		pump(t, m, nil)
		if got := reported(m.View()); got != end {
			t.Errorf("%s: after the turn %q, want %q", fixture, got, end)
		}
	}
}

// TestProgramStatusBlockedOnApproval: a call waiting for its approval is
// blocked on a permission.
func TestProgramStatusBlockedOnApproval(t *testing.T) {
	t.Parallel()
	m, _, _, _ := atSlowToolApproval(t)
	if got := reported(m.View()); got != oscBlocked {
		t.Errorf("at the approval: %q, want %q", got, oscBlocked)
	}
}

// TestProgramStatusStopped: a turn the user stopped leaves the program idle,
// and the next turn works again, then is done.
func TestProgramStatusStopped(t *testing.T) {
	t.Parallel()
	n := newNotifier(Notify{Mode: "off"})
	n.observe(session.PhaseWaiting, notifyT0)
	n.Update(turnEndMsg{stopped: true})
	n.observe(session.PhaseIdle, notifyT0.Add(time.Second))
	if got := reported(tea.View{ProgramStatus: n.programStatus()}); got != oscIdle {
		t.Errorf("after a stop: %q", got)
	}
	n.observe(session.PhaseStreaming, notifyT0.Add(2*time.Second))
	if got := reported(tea.View{ProgramStatus: n.programStatus()}); got != oscWorking {
		t.Errorf("the next turn: %q", got)
	}
	n.Update(turnEndMsg{})
	n.observe(session.PhaseIdle, notifyT0.Add(3*time.Second))
	if got := reported(tea.View{ProgramStatus: n.programStatus()}); got != oscDone {
		t.Errorf("the next turn's end: %q", got)
	}
}
