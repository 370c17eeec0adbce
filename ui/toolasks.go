package ui

// This file is the tools child's local approvals: the questions the
// runner asks about local calls, shown one at a time in the approval
// dialog, and the reasons given for denials. It answers the runner's
// goroutines; it does not run calls or say how a round stands
// (toolrun.go). Hosted MCP approvals are another child's (hosted.go).

import (
	"runnel/session/tools"
	"runnel/stream"
)

// approvalAsk is a local tool waiting for the user's answer.
type approvalAsk struct {
	req   tools.ApprovalRequest
	reply chan answer
}

// answer is the user's decision on a local call, with the reason given for a
// denial.
type answer struct {
	d      tools.Decision
	reason string
}

// localAsks is the local approval questions of the running round.
//
// Invariants: asking is the question the approval dialog shows (nil: none
// shown), queue those waiting behind it, in the order asked; every question
// gets exactly one reply (decide, or denyAll when the round stops), so no
// runner goroutine waits forever; asking and queue are empty between
// rounds. reasons maps a denied call to the reason given (sanitized), only
// for denials with one; the round's end clears it.
type localAsks struct {
	asking  *approvalAsk      // the approval request shown now
	queue   []approvalAsk     // asked, waiting behind asking
	reasons map[string]string // call id → the reason the user denied it with, for its panel
}

// add queues a question, and shows it if none is shown (next).
func (a *localAsks) add(ask approvalAsk, f *frameState) {
	a.queue = append(a.queue, ask)
	a.next(f)
}

// next shows the next waiting question, when none is shown.
func (a *localAsks) next(f *frameState) {
	if a.asking != nil || len(a.queue) == 0 {
		return
	}
	ask := a.queue[0]
	a.queue = a.queue[1:]
	a.asking = &ask
	f.post(dialogMsg{dlg[Approval]{NewApproval(ask.req, f.styles)}})
	f.post(didMsg{what: hapAsked, detail: ask.req.Call.Name})
}

// decide passes the user's answer to the question shown, keeps a denial's
// reason, closes the dialog and shows the next question.
func (a *localAsks) decide(d tools.Decision, reason string, f *frameState) {
	if a.asking != nil {
		reason = stream.SanitizeLine(reason)
		a.asking.reply <- answer{d, reason}
		if d == tools.Deny && reason != "" { // the panel says "denied: <reason>" once the call ends
			if a.reasons == nil {
				a.reasons = map[string]string{}
			}
			a.reasons[a.asking.req.Call.CallID] = reason
		}
		a.asking = nil
	}
	f.post(dialogMsg{nil})
	a.next(f)
}

// denyAll denies the question shown and those queued behind it, closing
// the dialog: for a round that stops.
func (a *localAsks) denyAll(f *frameState) {
	if a.asking != nil {
		a.asking.reply <- answer{d: tools.Deny}
		a.asking = nil
		f.post(dialogMsg{nil})
	}
	for _, q := range a.queue {
		q.reply <- answer{d: tools.Deny}
	}
	a.queue = nil
}

// asked is the call the dialog asks about, and whether one is asked.
func (a *localAsks) asked() (tools.Call, bool) {
	if a.asking == nil {
		return tools.Call{}, false
	}
	return a.asking.req.Call, true
}

// reason is the reason the user gave for denying call id ("" for none).
func (a *localAsks) reason(id string) string { return a.reasons[id] }

// forget drops the round's reasons: the round is over.
func (a *localAsks) forget() { clear(a.reasons) }
