package ui

// This file is what the turns child is asked of the conversation: the
// root never writes the conversation or the turn in flight; it sends the
// turns child one of these messages (turns.Update).

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session"
)

type (
	// overrideMsg is the next turn's prompt file (SubmitMsg.Prompt), nil
	// for the session's settings.
	overrideMsg struct{ o *session.Override }
	// projectMsg is this run's AGENTS.md, what the instructions take.
	projectMsg struct{ text string }
	// effortMsg is /effort: the reasoning effort asked for.
	effortMsg struct{ effort string }
	// fastMsg is /fast: the priority service tier, on or off.
	fastMsg struct{}
	// convMsg replaces the conversation: a resumed session.
	convMsg struct{ conv *session.Conversation }

	// forkMsg replaces the conversation with its fork at path index keep
	// (/fork: session.Conversation.Fork).
	forkMsg struct{ keep int }
	// turnSettledMsg says the turn that ended is drawn and settled: none
	// is in flight.
	turnSettledMsg struct{}
	// quitMsg says the chat is quitting: a turn still streaming writes all
	// that was shown of it to the history (it stays unfinished there).
	quitMsg struct{}
)

// Update takes what the root asks of the conversation and the turn in
// flight, and the resets (resetMsg): /new stops the turn and starts a new
// conversation, a provider switch moves it there.
func (ts *turns) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case overrideMsg:
		ts.conv.Override = msg.o
	case projectMsg:
		ts.conv.Project = msg.text
	case effortMsg:
		ts.conv.Settings.ReasoningEffort = msg.effort
	case fastMsg:
		ts.conv.Settings.ServiceTier = session.ToggleFast(ts.conv.Settings.ServiceTier)
	case toolSetMsg:
		ts.conv.Settings = msg.applyTo(ts.conv.Settings)
	case modelSwitchedMsg:
		ts.conv.Settings.Model = msg.model
	case convMsg:
		ts.conv = msg.conv
	case forkMsg:
		ts.conv = ts.conv.Fork(msg.keep)
	case attachReadMsg:
		if msg.of == ts.attaching { // else esc stopped that read: the message is in the composer
			ts.attaching = nil
			ts.fs.post(readDoneMsg{msg})
		}
	case turnSettledMsg:
		ts.cur = nil
	case quitMsg:
		if t := ts.cur; t != nil && !t.ended && t.log != nil {
			t.log.Flush(ts.fs.clock(), t.snapshots())
		}
	case resetMsg:
		return ts.reset(msg)
	}
	return nil
}

// reset is the turns' side of a reset.
func (ts *turns) reset(msg resetMsg) tea.Cmd {
	switch msg.why {
	case resetNew:
		var stop tea.Cmd
		if ts.cur != nil && !ts.cur.ended {
			stop = ts.interrupt()
		}
		ts.conv = ts.conv.Restart() // what the server refused stays unsent (session/knobs.go)
		return stop
	case resetProvider:
		c := msg.conn
		ts.conv.SwitchProvider() // the history goes with each request from now on
		s := &ts.conv.Settings
		s.Provider, s.Store, s.Background = c.Name, c.Store, c.Background
		if c.Model != "" {
			s.Model = c.Model
		}
	}
	return nil
}
