package block

// MCP panels: the tools a server offers, a call and its result, and an
// approval request waiting for the user.

func mcpServer(p *panel) string {
	if s := cleanLine(p.it.ServerLabel); s != "" {
		return s
	}
	return "mcp"
}

// mcpListTitle is "server: N tools" once the list arrived.
func mcpListTitle(p *panel) string {
	if p.it.Details().HasTools {
		return mcpServer(p) + ": " + plural(len(p.it.Details().Tools), "tool", "tools")
	}
	return mcpServer(p) + ": listing tools"
}

// mcpListBody lists the tools with their descriptions, when expanded; the
// title already says how many there are.
func mcpListBody(p *panel, d *drawer) {
	if e := p.it.ErrorText(); e != "" {
		d.add(section{lines: paint(d.lk.errorText.Render, d.wrap(cleanLine(e)))})
	}
	if p.expanded {
		d.add(section{lines: toolLines(d, p.it.Details().Tools)})
	}
}

// mcpToolTitle is "server.tool".
func mcpToolTitle(p *panel) string {
	name := cleanLine(p.it.Name)
	if name == "" {
		name = "tool"
	}
	return mcpServer(p) + "." + name
}

func mcpCallBody(p *panel, d *drawer) {
	d.args("arguments", p.it.Arguments)
	if out := p.it.OutputText(); out != "" {
		d.text("output", out, false)
	}
	if e := p.it.ErrorText(); e != "" {
		d.add(section{label: "error", lines: paint(d.lk.errorText.Render, d.wrap(clean(e)))})
	}
}

func approvalBody(p *panel, d *drawer) {
	d.args("arguments", p.it.Arguments)
	switch p.decision {
	case 0:
		d.line(d.lk.keys.Render("approve: y") + d.lk.muted.Render(" · ") + d.lk.keys.Render("deny: n"))
	case 1:
		d.line(d.lk.state(stateDone).Render("approved"))
	default:
		d.line(d.lk.state(stateFailed).Render("denied"))
	}
}

// approvalStatus replaces the item's status: an approval request is never
// running, it waits.
func approvalStatus(p *panel) panelStatus {
	switch p.decision {
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
	return p.it.ID, p.decision == 0
}

// SetDecision records the user's answer; the panel then shows it.
func (p *panel) SetDecision(approved bool) {
	d := int8(-1)
	if approved {
		d = 1
	}
	if p.decision != d {
		p.decision = d
		p.rev++
	}
}
