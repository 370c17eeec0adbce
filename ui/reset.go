package ui

// This file is the chat's one reset: /new, a transcript built again from
// the conversation (a resume, a fork, a branch) and a provider switch are
// one message, resetMsg, that the root routes to every child; each child
// decides what it forgets. No root code resets a child's state itself.

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
)

// resetWhy is what a reset is for.
type resetWhy int

const (
	// resetRedraw: the transcript is built again from the conversation;
	// what it shows, counts and asks goes (items, approvals, metering,
	// the status line's figures).
	resetRedraw resetWhy = iota
	// resetNew: /new. Everything of the conversation goes: the turn in
	// flight stops, the tools' round ends, the history starts a session.
	resetNew
	// resetProvider: the chat moved to another provider (resetMsg.conn);
	// the conversation goes on there, with the provider's settings.
	resetProvider
)

var resetNames = [...]string{"redraw", "new", "provider"}

func (w resetWhy) String() string {
	if w < 0 || int(w) >= len(resetNames) {
		return "resetWhy(" + strconv.Itoa(int(w)) + ")"
	}
	return resetNames[w]
}

// resetMsg is a reset, routed to every child (Model.reset).
type resetMsg struct {
	why      resetWhy
	height   int              // the transcript's height (items)
	settings session.Settings // the conversation's, once the turns child took the reset (history, status line)
	conn     Connection       // resetProvider: what the chat is connected to now
}

// forgets reports whether a child that keeps what the transcript shows
// forgets it in this reset.
func (msg resetMsg) forgets() bool { return msg.why == resetRedraw || msg.why == resetNew }

// reset routes one resetMsg to every child. The turns child takes it
// first: the others read the conversation's settings it leaves.
func (m *Model) reset(why resetWhy, conn Connection) tea.Cmd {
	msg := resetMsg{why: why, height: m.transcriptHeight(), conn: conn}
	cmd := m.turns.Update(msg)
	msg.settings = m.turns.conv.Settings
	m.statusBar.Update(msg)
	return tea.Batch(cmd,
		m.tools.Update(msg, m.frame),
		m.items.Update(msg),
		m.approvals.Update(msg, m.frame),
		m.metering.Update(msg, m.frame, m.meterEnv()),
		m.history.Update(msg, m.frame))
}
