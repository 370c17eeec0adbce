package ui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

// This file answers a hosted MCP server's approval requests: the same dialog
// as local tools (approve once, approve this tool for the session, deny with
// an optional reason), or y / n straight on the panel. The answers go back
// together as mcp_approval_response items in the next request, chained.

// hostedKey names an MCP tool for approve-always.
func hostedKey(it *stream.Item) string { return it.ServerLabel + "." + it.Name }

// askHosted shows the dialog for the first pending request.
func (m *Model) askHosted() {
	if len(m.pending) == 0 || m.dialog != nil {
		return
	}
	e := m.pending[0]
	m.hostedAsk = e
	if e.asked.IsZero() {
		e.asked = m.now()
	}
	m.status.Started = e.asked // the time shown is the wait for the user
	m.status.State, m.status.Detail = AwaitingApproval, hostedName(e.it)
	req := tools.ApprovalRequest{
		Call: tools.Call{CallID: e.it.ID, Name: e.it.Name, Arguments: e.it.Arguments},
		Tool: e.it.ServerLabel, Kind: tools.KindServer, Policy: tools.ApproveAlways,
	}
	m.dialog = dlg[Approval]{NewApproval(req, m.frame.styles)}
}

// autoApprove answers at once the requests for tools approved for the
// session; it returns the request that sends the answers when none is left
// to ask about.
func (m *Model) autoApprove() tea.Cmd {
	var left []*itemEntry
	for _, e := range m.pending {
		if m.mcpAllowed[hostedKey(e.it)] {
			m.answer(e, true, "")
			continue
		}
		left = append(left, e)
	}
	m.pending = left
	if len(left) == 0 && len(m.mcpAnswers) > 0 {
		return m.sendAnswers()
	}
	return nil
}

// hostedDecision records the dialog's answer and asks about the next
// request, or sends them all.
func (m *Model) hostedDecision(msg ApprovalDecisionMsg) tea.Cmd {
	e := m.hostedAsk
	m.hostedAsk, m.dialog = nil, nil
	if len(m.pending) > 0 && m.pending[0] == e {
		m.pending = m.pending[1:]
	}
	approve := msg.Decision != tools.Deny
	if msg.Decision == tools.AllowForSession {
		if m.mcpAllowed == nil {
			m.mcpAllowed = map[string]bool{}
		}
		m.mcpAllowed[hostedKey(e.it)] = true
	}
	m.answer(e, approve, msg.Reason)
	if cmd := m.autoApprove(); cmd != nil {
		return cmd
	}
	if len(m.pending) > 0 {
		m.askHosted()
		return nil
	}
	return m.sendAnswers()
}

// stopHosted answers ctrl+c (or esc on the status line) while hosted MCP
// requests wait: every one is denied, nothing is sent now, and the denials
// go with the next message so that the chain stays answerable.
func (m *Model) stopHosted() {
	for _, e := range m.pending {
		m.answer(e, false, "")
	}
	m.pending, m.hostedAsk, m.dialog = nil, nil, nil
	m.mcpOwed, m.mcpAnswers = append(m.mcpOwed, m.mcpAnswers...), nil
	m.mcpOwedConv = m.conv
	m.status.State, m.status.Detail = Idle, ""
	m.notice(block.Info, "denied and stopped — nothing was sent; the denial goes with your next message")
}

// takeOwed returns the approval answers a stop kept for the next message
// of this conversation, and forgets them.
func (m *Model) takeOwed() []json.RawMessage {
	owed := m.mcpOwed
	m.mcpOwed = nil
	if m.mcpOwedConv != m.conv {
		return nil
	}
	return owed
}

// answer marks a request decided and keeps its response item.
func (m *Model) answer(e *itemEntry, approve bool, reason string) {
	if a, ok := e.b.(block.Approver); ok {
		a.SetDecision(approve)
		m.transcript.Invalidate(e.idx)
	}
	m.mcpAnswers = append(m.mcpAnswers, session.ApprovalResponse(e.it.ID, approve, reason))
}

// sendAnswers sends the collected approval responses, chained.
func (m *Model) sendAnswers() tea.Cmd {
	in := m.mcpAnswers
	m.mcpAnswers = nil
	approved := 0
	for _, r := range in {
		if strings.Contains(string(r), `"approve":true`) {
			approved++
		}
	}
	m.notice(block.Info, approvalSummary(approved, len(in)-approved))
	return m.begin(m.conv.Begin("", in...))
}

func approvalSummary(approved, denied int) string {
	switch {
	case denied == 0:
		return "approved — sending the answer"
	case approved == 0:
		return "denied — sending the answer"
	}
	return "answered the approval requests — sending"
}
