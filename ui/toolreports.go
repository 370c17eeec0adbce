package ui

// This file holds what the tools and approvals children report to the root
// (frameState.post): a round's outputs ready to be sent, a panel to redraw,
// frames wanted, what happened (didMsg, activity.go), a dialog, the request's tool set, the MCP
// servers, a message to put back in the composer. Each has one case in
// Model.update that hands it to the child owning the effect.

import (
	"encoding/json"
	"time"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
)

type (
	// ToolsSettledMsg says a round's outputs are ready: the next turn sends
	// input, recorded in round (the round's record; nil without a history).
	ToolsSettledMsg struct {
		input []json.RawMessage
		round *session.TurnLog
	}

	// panelChangedMsg says a tool's panel changed: it is redrawn on the
	// next frame.
	panelChangedMsg struct{ it *stream.Item }

	// panelEndedMsg says a tool's panel ended: it is redrawn at once, in
	// the same view as the notice and the status line that say so.
	panelEndedMsg struct {
		it  *stream.Item
		now time.Time
	}

	// toolFramesMsg asks for frames: calls run and their panels move.
	toolFramesMsg struct{}

	// mcpStatusMsg is the MCP servers' part of the status line.
	mcpStatusMsg struct{ summary, brief string } // brief: Manager.Brief, when room is short

	// mcpServersMsg says the local MCP servers are up: their tool lists
	// are shown.
	mcpServersMsg struct{ mgr *tools.Manager }
)

// toolSetMsg says the request's tools changed: the conversation's settings
// hold them (redacted) from now on, and the names switched on when
// setEnabled.
type toolSetMsg struct {
	tools      []json.RawMessage
	enabled    []string
	setEnabled bool
}

// applyTo returns s holding the tools msg reports.
func (msg toolSetMsg) applyTo(s session.Settings) session.Settings {
	s.Tools = msg.tools
	if msg.setEnabled {
		s.EnabledTools = msg.enabled
	}
	return s
}

// runMsg says where runnel's run of a call stands, for its panel.
type runMsg struct {
	it  *stream.Item
	run tools.Run
}
