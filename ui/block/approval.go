package block

// Approval requests: the user's answer to one, and its panel's body and
// status.

// approval is the user's answer to an approval request.
//
// Invariants: decision is 0 while the request waits, 1 once approved, -1
// once denied; reason is "" but for a denial, and one clean line.
type approval struct {
	decision int8
	reason   string // why the user denied, cleaned; "" for none
}

// set records an answer and reports whether it changed anything: the
// reason of an approval is dropped, and a denial's cleaned to one line.
func (a *approval) set(approved bool, reason string) bool {
	d := int8(-1)
	if approved {
		d, reason = 1, ""
	}
	if reason = cleanLine(reason); a.decision == d && a.reason == reason {
		return false
	}
	a.decision, a.reason = d, reason
	return true
}

// approvalBody shows the arguments of the call asked about, whole while it
// waits (the approval dialog points here instead of repeating them), then
// the answer once given: "approved", "denied", or "denied: " and the
// user's reason. The keys to answer are the dialog's and the status
// line's, never drawn here: a panel printed by --format ansi takes none.
func approvalBody(p *panel, d *drawer) {
	switch p.answer.decision {
	case 0:
		askedArgs(d, "arguments", p.it.Arguments)
	case 1:
		d.args("arguments", p.it.Arguments)
		d.line(d.lk.state(stateDone).Render("approved"))
	default:
		d.args("arguments", p.it.Arguments)
		denied := "denied"
		if p.answer.reason != "" {
			denied += ": " + p.answer.reason
		}
		d.add(section{lines: paint(d.lk.state(stateFailed).Render, d.wrap(denied)), whole: true})
	}
}

// askedArgs draws the arguments of a call that waits for the user's
// approval, never shortened: what the user approves is all on screen.
func askedArgs(d *drawer, label, args string) {
	n := len(d.secs)
	d.args(label, args)
	for i := n; i < len(d.secs); i++ {
		d.secs[i].whole = true
	}
}

// approvalStatus replaces the item's status: an approval request is never
// running, it waits.
func approvalStatus(p *panel) panelStatus {
	switch p.answer.decision {
	case 1:
		return panelStatus{text: "approved", state: stateDone}
	case -1:
		return panelStatus{text: "denied", state: stateFailed}
	}
	return panelStatus{text: "awaiting approval", state: stateRunning}
}

// Approval returns the request's id and whether it still waits for a
// decision. Only mcp_approval_request panels are ever pending.
func (p *panel) Approval() (id string, pending bool) {
	if p.it.Type != "mcp_approval_request" {
		return "", false
	}
	return p.it.ID, p.answer.decision == 0
}

// SetDecision records the user's answer and, for a denial, the reason
// given ("" for none; cleaned to one line here); the panel then shows it.
func (p *panel) SetDecision(approved bool, reason string) {
	if p.answer.set(approved, reason) {
		p.rev++
	}
}
