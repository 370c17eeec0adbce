package ui

// This file reports what the chat is doing to the terminal with the Program
// Status Protocol (OSC 7501, tea.View.ProgramStatus), for terminals that
// show it on a tab or in a list of sessions: working while a turn runs,
// blocked while a call waits for its approval, done or error when the turn
// ended, idle when the user stopped it. A report carries the program's name
// and nothing else (no title, no message), so no text of a turn reaches it.
// Terminals that do not know the protocol ignore it.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session"
)

// The reports, one of each: Bubble Tea compares a view's report with the
// last by value and never writes to it.
var (
	statusWorking = tea.ProgramStatus{State: tea.ProgramStateWorking, App: "runnel"}
	statusBlocked = tea.ProgramStatus{State: tea.ProgramStateBlocked, Kind: tea.ProgramStatusKindPermission, App: "runnel"}
	statusDone    = tea.ProgramStatus{State: tea.ProgramStateDone, App: "runnel"}
	statusError   = tea.ProgramStatus{State: tea.ProgramStateError, App: "runnel"}
	statusIdle    = tea.ProgramStatus{State: tea.ProgramStateIdle, App: "runnel"}
)

// programStatus is the report for the turns as the notifier follows them
// (the turn engine's phase and how the last turn ended): nil before the
// first turn, so a chat that was only opened reports nothing.
func (n *notifier) programStatus() *tea.ProgramStatus {
	switch {
	case n.state == session.PhaseApproval:
		return &statusBlocked
	case n.state != session.PhaseIdle:
		return &statusWorking
	case !n.ended:
		return nil
	case n.failed:
		return &statusError
	case n.stopped:
		return &statusIdle
	}
	return &statusDone
}
