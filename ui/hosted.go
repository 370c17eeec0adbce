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

// This file is the approvals child: it answers a hosted MCP server's
// approval requests with the same dialog and keys as local tools (a or y
// approve once, s approve this tool for the session, d or n deny with an
// optional reason); with no dialog open (the request came while another
// was), the same keys open it on the first request and answer it. The
// answers go back together as mcp_approval_response items in the next
// request, chained (answersMsg). It reaches the rest of the chat only
// through messages.

// approvals is the hosted MCP approvals: asked, decided and owed.
//
// Invariants: hostedAsk is the request the approval dialog asks about, nil
// when none is asked. mcpAnswers holds the answers of requests no longer
// pending; they go out together once none is pending, or move to mcpOwed
// when the user stops, which goes with the next message of mcpOwedConv
// only.
type approvals struct {
	pending     []*itemEntry      // approval requests awaiting an answer
	hostedAsk   *itemEntry        // the hosted MCP approval request shown in the dialog
	mcpAllowed  map[string]bool   // server.tool approved for the rest of the session
	mcpAnswers  []json.RawMessage // approval responses decided so far, sent together
	mcpOwed     []json.RawMessage // denials of a stopped approval, for the next message
	mcpOwedConv *session.Conversation
}

type (
	// answersMsg says the approval answers are decided: the next turn
	// sends input, chained.
	answersMsg struct{ input []json.RawMessage }
)

// hostedKey names an MCP tool for approve-always.
func hostedKey(it *stream.Item) string { return it.ServerLabel + "." + it.Name }

// Update handles the dialog's answer to the request asked about, and the
// resets.
func (a *approvals) Update(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case ApprovalDecisionMsg:
		a.hostedDecision(msg, f)
	case resetMsg:
		if msg.forgets() {
			a.clearPending()
		}
	}
	return nil
}

// clearPending forgets the requests waiting (a new turn, a reset: their
// entries are gone or answered).
func (a *approvals) clearPending() { a.pending = nil }

// waiting reports whether hosted requests wait for an answer.
func (a *approvals) waiting() bool { return len(a.pending) > 0 }

// asked is the request the dialog asks about; nil when none is asked.
func (a *approvals) asked() *itemEntry { return a.hostedAsk }

// add adds requests waiting for an answer; it reports whether any wait.
func (a *approvals) add(asks []*itemEntry) bool {
	a.pending = append(a.pending, asks...)
	return len(a.pending) > 0
}

// askHosted shows the dialog for the first pending request, unless a
// dialog is open.
func (a *approvals) askHosted(dialogOpen bool, f *frameState) {
	if len(a.pending) == 0 || dialogOpen {
		return
	}
	e := a.pending[0]
	a.hostedAsk = e
	if e.asked.IsZero() {
		e.asked = f.clock()
	}
	// the time shown is the wait for the user
	f.post(didMsg{what: hapAsked, detail: hostedName(e.it), since: e.asked})
	req := tools.ApprovalRequest{
		Call: tools.Call{CallID: e.it.ID, Name: e.it.Name, Arguments: e.it.Arguments},
		Tool: e.it.ServerLabel, Kind: tools.KindServer, Policy: tools.ApproveAlways,
	}
	f.post(dialogMsg{dlg[Approval]{NewApproval(req, f.styles)}})
}

// autoApprove answers at once the requests for tools approved for the
// session, and sends the answers when none is left to ask about; it
// reports whether it sent them.
func (a *approvals) autoApprove(f *frameState) bool {
	var left []*itemEntry
	for _, e := range a.pending {
		if a.mcpAllowed[hostedKey(e.it)] {
			a.answer(e, true, "", f)
			continue
		}
		left = append(left, e)
	}
	a.pending = left
	if len(left) == 0 && len(a.mcpAnswers) > 0 {
		a.sendAnswers(f)
		return true
	}
	return false
}

// hostedDecision records the dialog's answer and asks about the next
// request, or sends them all.
func (a *approvals) hostedDecision(msg ApprovalDecisionMsg, f *frameState) {
	e := a.hostedAsk
	a.hostedAsk = nil
	f.post(dialogMsg{nil})
	if len(a.pending) > 0 && a.pending[0] == e {
		a.pending = a.pending[1:]
	}
	approve := msg.Decision != tools.Deny
	if msg.Decision == tools.AllowForSession {
		if a.mcpAllowed == nil {
			a.mcpAllowed = map[string]bool{}
		}
		a.mcpAllowed[hostedKey(e.it)] = true
	}
	a.answer(e, approve, msg.Reason, f)
	if a.autoApprove(f) {
		return
	}
	if len(a.pending) > 0 {
		a.askHosted(false, f) // the dialog just closed
		return
	}
	a.sendAnswers(f)
}

// answerKey answers an approval key pressed with no dialog open (the
// request came while another dialog was): the dialog opens on the first
// pending request and takes the key, so a key means the same with the
// dialog or without it.
func (a *approvals) answerKey(k tea.KeyPressMsg, f *frameState) {
	a.askHosted(false, f)
	f.post(k)
}

// stopHosted answers ctrl+c (or esc on the status line) while hosted MCP
// requests wait: every one is denied, nothing is sent now, and the denials
// go with the next message of conv so that the chain stays answerable.
func (a *approvals) stopHosted(conv *session.Conversation, f *frameState) {
	for _, e := range a.pending {
		a.answer(e, false, "", f)
	}
	a.pending, a.hostedAsk = nil, nil
	f.post(dialogMsg{nil})
	a.mcpOwed, a.mcpAnswers = append(a.mcpOwed, a.mcpAnswers...), nil
	a.mcpOwedConv = conv
	f.post(didMsg{what: hapSettled})
	f.post(noticeMsg{block.Info, "denied and stopped — nothing was sent; the denial goes with your next message"})
}

// takeOwed returns the approval answers a stop kept for the next message
// of conv, and forgets them.
func (a *approvals) takeOwed(conv *session.Conversation) []json.RawMessage {
	owed := a.mcpOwed
	a.mcpOwed = nil
	if a.mcpOwedConv != conv {
		return nil
	}
	return owed
}

// answer marks a request decided and keeps its response item.
func (a *approvals) answer(e *itemEntry, approve bool, reason string, f *frameState) {
	if ap, ok := e.b.(block.Approver); ok {
		ap.SetDecision(approve, reason) // a denial's reason shows on the panel
		f.post(redrawMsg{e.idx})
	}
	a.mcpAnswers = append(a.mcpAnswers, session.ApprovalResponse(e.it.ID, approve, reason))
}

// sendAnswers sends the collected approval responses, chained.
func (a *approvals) sendAnswers(f *frameState) {
	in := a.mcpAnswers
	a.mcpAnswers = nil
	approved := 0
	for _, r := range in {
		if strings.Contains(string(r), `"approve":true`) {
			approved++
		}
	}
	f.post(noticeMsg{block.Info, approvalSummary(approved, len(in)-approved)})
	f.post(answersMsg{in})
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
