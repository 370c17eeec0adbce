package block

// MCP panels: the tools a server offers, a call and its result, and an
// approval request waiting for the user.

import "github.com/charmbracelet/x/ansi"

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

// mcpListBody names the tools: collapsed, their names run on as a list
// wrapped at the width (the title already says how many there are);
// expanded, one per line with its description.
func mcpListBody(p *panel, d *drawer) {
	if e := p.it.ErrorText(); e != "" {
		d.add(section{lines: paint(d.lk.errorText.Render, d.wrap(cleanLine(e)))})
	}
	tools := p.it.Details().Tools
	if p.expanded {
		d.add(section{lines: toolLines(d, tools)})
		return
	}
	var names []string
	for _, t := range tools {
		if n := cleanLine(t.Name); n != "" {
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		d.add(section{lines: paint(d.lk.title.Render, wrapWords(names, " · ", d.width))})
	}
}

// wrapWords joins words with sep into lines of at most width cells, never
// splitting a word (one wider than width is cut).
func wrapWords(words []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "":
			cur = w
		case ansi.StringWidth(cur+sep+w) <= width:
			cur += sep + w
		default:
			lines = append(lines, fit(cur, width))
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, fit(cur, width))
	}
	return lines
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

// approvalBody shows the arguments of the call asked about, whole while it
// waits (the approval dialog points here instead of repeating them), then
// the answer once given: "approved", "denied", or "denied: " and the
// user's reason. The keys to answer are the dialog's and the status
// line's, never drawn here: a panel printed by --format ansi takes none.
func approvalBody(p *panel, d *drawer) {
	switch p.decision {
	case 0:
		askedArgs(d, "arguments", p.it.Arguments)
	case 1:
		d.args("arguments", p.it.Arguments)
		d.line(d.lk.state(stateDone).Render("approved"))
	default:
		d.args("arguments", p.it.Arguments)
		denied := "denied"
		if p.reason != "" {
			denied += ": " + p.reason
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

// SetDecision records the user's answer and, for a denial, the reason
// given ("" for none; cleaned to one line here); the panel then shows it.
func (p *panel) SetDecision(approved bool, reason string) {
	d := int8(-1)
	if approved {
		d, reason = 1, ""
	}
	if reason = cleanLine(reason); p.decision != d || p.reason != reason {
		p.decision, p.reason = d, reason
		p.rev++
	}
}
