package block

// MCP panels: the tools a server offers, and a call and its result (an
// approval request waiting for the user is approval.go's).

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
