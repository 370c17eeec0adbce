package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/demo"
	"runnel/stream"
)

// TestResetIsOneMessage: /new, a redraw and a provider switch are one
// resetMsg each child takes as its why says. After a demo turn with a tool
// round, /new leaves no entry, no approval, no figure and no turn; a
// redraw of the conversation counts its responses again to the same sums
// (one sum, the metering child's); a provider switch keeps the
// transcript and the sums, and moves the conversation and the status line.
func TestResetIsOneMessage(t *testing.T) {
	t.Parallel()
	client := &stream.Client{BaseURL: demo.BaseURL, Transport: demo.New(demo.Options{})}
	m := newTestModel(t, Options{Client: client, Provider: "demo", Settings: session.Settings{Model: demo.Model, Store: true}})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "weather"}) // a function call, answered in a round of its own
	d.until("the weather answer and its tool round", func() bool {
		return m.turns.cur == nil && m.statusBar.status.State == Idle && len(m.turns.conv.Turns) == 2
	})
	used, meter, entries := m.metering.sessionUsage(), m.statusBar.status.Meter, m.items.transcript.Len()
	if used.Input == 0 || used != m.statusBar.status.SessionUsage {
		t.Fatalf("after a turn: the metering child's sum %+v, the status line's %+v", used, m.statusBar.status.SessionUsage)
	}

	m.redraw() // resetRedraw: the same conversation, counted again
	if got := m.metering.sessionUsage(); got != used || m.statusBar.status.SessionUsage != used || m.statusBar.status.Meter != meter {
		t.Errorf("a redraw counts %+v (status %+v, meter %+v); before it %+v, %+v", got, m.statusBar.status.SessionUsage, m.statusBar.status.Meter, used, meter)
	}
	if m.items.transcript.Len() == 0 {
		t.Error("a redraw shows nothing")
	}

	d.send(providerSwitchedMsg{from: "demo", conn: Connection{Name: "other", Label: "http://127.0.0.1:1/v1", Client: client, Model: "m2"}})
	if m.metering.sessionUsage() != used || m.items.transcript.Len() < entries {
		t.Errorf("a provider switch lost the sums (%+v) or the transcript (%d entries)", m.metering.sessionUsage(), m.items.transcript.Len())
	}
	if s := m.turns.conv.Settings; s.Provider != "other" || s.Model != "m2" || !m.turns.conv.Stateless {
		t.Errorf("after the switch the conversation's settings are %+v (stateless %v)", s, m.turns.conv.Stateless)
	}
	if st := m.statusBar.status; st.Model != "m2" || st.ProviderName != "other" || m.opts.Provider != "http://127.0.0.1:1/v1" {
		t.Errorf("after the switch the status line shows %q @%q, the options %q", st.Model, st.ProviderName, m.opts.Provider)
	}

	d.send(SlashMsg{Name: "new"})
	forgotten(t, m)
	if m.turns.conv.Settings.Provider != "other" {
		t.Errorf("/new forgot the provider: %+v", m.turns.conv.Settings)
	}
}

// forgotten checks that /new left nothing of the conversation: no turn,
// no figure, no approval or answer, nothing on screen but its notice.
func forgotten(t *testing.T, m *Model) {
	t.Helper()
	switch {
	case len(m.turns.conv.Turns) != 0 || m.turns.cur != nil:
		t.Errorf("/new kept %d turns", len(m.turns.conv.Turns))
	case m.metering.sessionUsage() != (Usage{}) || m.statusBar.status.SessionUsage != (Usage{}) || m.statusBar.status.Meter != (Meter{}):
		t.Errorf("/new kept the figures: %+v, %+v", m.metering.sessionUsage(), m.statusBar.status)
	case len(m.approvals.pending) != 0 || len(m.items.answers) != 0:
		t.Errorf("/new kept %d approvals, %d answers", len(m.approvals.pending), len(m.items.answers))
	case !strings.Contains(plain(m), "new conversation") || strings.Contains(plain(m), "weather"):
		t.Errorf("/new shows:\n%s", plain(m))
	}
}

// TestStatusStateIsThePhase: the state the status line shows is the turn
// engine's phase, refined only within it by what the stream or the tools
// said; a stale fact from another phase never shows.
func TestStatusStateIsThePhase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		phase session.Phase
		said  happening
		want  State
	}{
		{session.PhaseIdle, hapAnswering, Idle},
		{session.PhaseIdle, hapAsked, Idle},
		{session.PhaseWaiting, hapToolRuns, Waiting},
		{session.PhaseStreaming, hapBegan, Streaming},
		{session.PhaseStreaming, hapCallOnWay, CallingTool},
		{session.PhaseStreaming, hapToolRuns, RunningTool},
		{session.PhaseTools, hapCallOnWay, CallingTool},
		{session.PhaseTools, hapAnswering, RunningTool},
		{session.PhaseApproval, hapToolRuns, AwaitingApproval},
	}
	for _, c := range cases {
		if got := shownState(c.phase, c.said); got != c.want {
			t.Errorf("phase %v, said %v: shows %v, want %v", c.phase, c.said, got, c.want)
		}
	}
	var b statusBar
	b.Update(didMsg{what: hapAsked}) // a child's fact, before the engine knows
	b.sync(&session.Conversation{}, activityOf(session.PhaseIdle, b.saidLast(), chatFacts{}))
	if b.status.State != Idle {
		t.Errorf("the line shows %v while the engine is idle", b.status.State)
	}
}
