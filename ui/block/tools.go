package block

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// panelSpecs maps the item types whose panel has a body of its own to its
// spec. Their icon and title come from the type's look (ui/itemlook);
// every other type gets genericToolSpec (a tool call) or unknownSpec.
var panelSpecs = map[string]*panelSpec{
	"function_call":         {title: nameTitle, body: functionBody},
	"custom_tool_call":      {title: nameTitle, body: customBody},
	"web_search_call":       {title: webSearchTitle, body: webSearchBody, phase: true},
	"file_search_call":      {title: kindTitle, body: fileSearchBody, phase: true},
	"code_interpreter_call": {title: kindTitle, body: codeBody, phase: true},
	"image_generation_call": {title: kindTitle, body: imageBody, phase: true},
	"shell_call":            {title: kindTitle, body: shellBody},
	"local_shell_call":      {title: kindTitle, body: shellBody},
	"shell_call_output":     {title: kindTitle, body: shellOutputBody},
	"apply_patch_call":      {title: patchTitle, body: patchBody},
	"computer_call":         {title: kindTitle, body: computerBody},
	"tool_search_call":      {title: kindTitle, body: toolSearchBody},
	"tool_search_output":    {title: kindTitle, body: toolListBody},
	"additional_tools":      {title: kindTitle, body: toolListBody},
	"mcp_list_tools":        {title: mcpListTitle, body: mcpListBody},
	"mcp_call":              {title: mcpToolTitle, body: mcpCallBody},
	"mcp_approval_request":  {title: mcpToolTitle, body: approvalBody, state: approvalStatus},
	"compaction":            {title: kindTitle, body: compactionBody},
}

// genericToolSpec draws a tool call with no body of its own: whatever
// arguments, input, code, output or error it carries.
var genericToolSpec = &panelSpec{title: kindTitle, body: genericBody, phase: true}

// unknownSpec draws any other item: its status and id, and what it carries.
var unknownSpec = &panelSpec{title: kindTitle, body: unknownBody}

// kindTitle is the look's title in lower case; for a type not in the
// table, the type as sent.
func kindTitle(p *panel) string {
	if !p.look.Generic {
		return strings.ToLower(p.look.Title)
	}
	if t := cleanLine(p.it.Type); t != "" {
		return t
	}
	return "item"
}

// nameTitle is the called name, else the kind's title.
func nameTitle(p *panel) string {
	if n := cleanLine(p.it.Name); n != "" {
		return n
	}
	return kindTitle(p)
}

// functionBody shows a function call's arguments (whole while the call
// waits, for its approval or its turn) and, when runnel runs the function
// locally, its progress message while it runs and its output (Output, as a
// JSON string) as it arrives; a call the user denied with a reason shows
// "denied: <reason>" instead of the output that tells the model so. How the
// run stands and how long it took are the header's (runStatus), never
// repeated here.
func functionBody(p *panel, d *drawer) {
	r := p.run
	if r != nil && r.Phase == toolrun.RunWaiting {
		askedArgs(d, "", p.it.Arguments) // whole: the approval dialog points here
	} else {
		d.args("", p.it.Arguments)
	}
	if r != nil && r.Phase == toolrun.RunRunning {
		if prog := cleanLine(r.Detail); prog != "" {
			d.line(d.lk.muted.Render("local · " + prog))
		}
	}
	if r != nil && r.Phase == toolrun.RunEnded && r.Outcome == toolrun.StatusDenied && cleanLine(r.Detail) != "" {
		d.add(section{lines: paint(d.lk.state(stateInterrupted).Render, d.wrap("denied: "+cleanLine(r.Detail))), whole: true})
		return // the output only says so to the model
	}
	if out := p.it.OutputText(); out != "" {
		d.text("output", out, true)
	}
}

func customBody(p *panel, d *drawer) {
	d.args("", p.it.Input)
}

// webSearchTitle names what the call did: a search, or an action on a
// page (open_page, find_in_page), which is not a search.
func webSearchTitle(p *panel) string {
	switch p.it.Details().Action.Type {
	case "open_page":
		return "open page"
	case "find_in_page":
		return "find in page"
	}
	return kindTitle(p)
}

func webSearchBody(p *panel, d *drawer) {
	a := p.it.Details().Action
	switch a.Type {
	case "open_page":
		d.line(d.lk.muted.Render("open ") + cleanLine(a.URL))
	case "find_in_page":
		d.line(d.lk.muted.Render("find ") + "“" + cleanLine(a.Pattern) + "”" +
			d.lk.muted.Render(" in ") + cleanLine(a.URL))
	default:
		for _, q := range p.it.WebQueries() {
			d.line(d.lk.muted.Render("query ") + cleanLine(q))
		}
	}
	var urls []string
	for _, s := range a.Sources {
		if u := cleanLine(s); u != "" {
			urls = append(urls, u)
		}
	}
	d.add(section{label: plural(len(urls), "source", "sources"), lines: paint(d.lk.output.Render, fitAll(urls, d.width))})
}

func fileSearchBody(p *panel, d *drawer) {
	for _, q := range p.it.Details().Queries {
		d.line(d.lk.muted.Render("query ") + cleanLine(q))
	}
	if !p.it.Details().HasResults {
		return
	}
	results := p.it.Details().Results
	var lines []string
	for _, r := range results {
		name := cleanLine(r.Filename)
		if name == "" {
			name = cleanLine(r.FileID)
		}
		score := ""
		if r.Score != "" {
			score = " score " + cleanLine(r.Score)
		}
		// the name is a path: shortened in the middle, the score kept
		name = fitRow(name, max(d.width-ansi.StringWidth(score), d.width/2))
		lines = append(lines, name+d.lk.muted.Render(score))
	}
	d.add(section{label: plural(len(results), "result", "results"), lines: fitAll(lines, d.width)})
}

func shellBody(p *panel, d *drawer) {
	if cwd := cleanLine(p.it.Details().Action.Value("working_directory")); cwd != "" {
		d.line(d.lk.muted.Render("cwd ") + cwd) // a local shell call's directory
	}
	var lines []string
	for _, c := range p.it.ShellCommands() {
		for i, l := range wrapPanel(clean(c), d.width-2, !d.p.expanded) {
			prefix := "  "
			if i == 0 {
				prefix = d.lk.muted.Render("$ ")
			}
			lines = append(lines, prefix+d.lk.output.Render(l))
		}
	}
	d.add(section{lines: lines, tail: true})
}

func shellOutputBody(p *panel, d *drawer) {
	var out, errs strings.Builder
	exit := ""
	for _, c := range p.it.ShellChunks() {
		out.WriteString(c.Stdout)
		errs.WriteString(c.Stderr)
		switch c.Outcome {
		case "exit":
			exit = "exit code " + c.ExitCode
		case "timeout":
			exit = "timed out"
		}
	}
	d.text("", out.String(), true)
	if errs.Len() > 0 {
		d.add(section{label: "stderr", lines: paint(d.lk.errorText.Render, d.wrap(clean(errs.String()))), tail: true})
	}
	if exit != "" {
		d.line(d.lk.muted.Render(exit))
	}
}

func patchTitle(p *panel) string {
	path := cleanLine(p.it.Details().Operation.Path)
	if path == "" {
		return kindTitle(p)
	}
	return kindTitle(p) + " " + path
}

func patchBody(p *panel, d *drawer) {
	if op := cleanLine(p.it.Details().Operation.Type); op != "" {
		d.line(d.lk.muted.Render(strings.ReplaceAll(op, "_", " ")))
	}
	diff, skipped := tailOf(p.it.PatchDiff())
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(clean(diff), "\n"), "\n") {
		style := d.lk.output
		switch {
		case strings.HasPrefix(l, "@@"):
			style = d.lk.diffHunk
		case strings.HasPrefix(l, "+"):
			style = d.lk.diffAdd
		case strings.HasPrefix(l, "-"):
			style = d.lk.diffDel
		}
		for _, w := range d.wrap(l) {
			lines = append(lines, style.Render(w))
		}
	}
	if diff != "" {
		d.add(section{lines: lines, tail: true, note: d.skipped(skipped)})
	}
}

func computerBody(p *panel, d *drawer) {
	a := p.it.Details().Action
	typ := cleanLine(a.Type)
	if typ == "" {
		return
	}
	var parts []string
	for _, k := range []string{"button", "x", "y", "text", "keys", "scroll_x", "scroll_y", "ms"} {
		if v := cleanLine(a.Value(k)); v != "" {
			parts = append(parts, k+" "+v)
		}
	}
	if a.HasPath {
		parts = append(parts, plural(a.Points, "point", "points"))
	}
	d.line(typ + d.lk.muted.Render(" "+strings.Join(parts, " · ")))
}

func toolSearchBody(p *panel, d *drawer) {
	d.args("", p.it.Arguments)
}

func toolListBody(p *panel, d *drawer) {
	d.add(section{lines: toolLines(d, p.it.Details().Tools)})
}

// toolLines lists tools as "name  description".
func toolLines(d *drawer, tools []stream.ToolInfo) []string {
	var lines []string
	for _, t := range tools {
		name := cleanLine(t.Name)
		if name == "" {
			name = cleanLine(t.Type)
		}
		row := d.lk.title.Render(name)
		if desc := cleanLine(t.Description); desc != "" {
			row += d.lk.muted.Render("  " + desc)
		}
		lines = append(lines, fit(row, d.width))
	}
	return lines
}

// genericBody draws what a call of no body of its own carries: its
// action's queries or URL (a provider's own search or fetch:
// "openrouter:web_search"), arguments, input, code, output (or result) and
// error.
func genericBody(p *panel, d *drawer) {
	it := p.it
	if a := it.Details().Action; a.Query != "" || len(a.Queries) > 0 || a.URL != "" || len(a.Sources) > 0 {
		webSearchBody(p, d)
	}
	d.args("arguments", it.Arguments)
	d.args("input", it.Input)
	if it.Code != "" {
		d.text("code", it.Code, true)
	}
	if o := it.OutputText(); o != "" {
		d.text("output", o, false)
	}
	if e := it.ErrorText(); e != "" {
		d.add(section{lines: paint(d.lk.errorText.Render, d.wrap(cleanLine(e)))})
	}
}

func unknownBody(p *panel, d *drawer) {
	var facts []string
	if s := cleanLine(p.it.Status); s != "" {
		facts = append(facts, "status "+s)
	}
	if id := cleanLine(p.it.ID); id != "" {
		facts = append(facts, "id "+id)
	}
	if len(facts) > 0 {
		d.line(d.lk.muted.Render(strings.Join(facts, " · ")))
	}
	genericBody(p, d)
}

// fitAll fits each row to width.
func fitAll(rows []string, width int) []string {
	for i, r := range rows {
		rows[i] = fit(r, width)
	}
	return rows
}
