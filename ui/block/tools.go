package block

import (
	"encoding/json"
	"strings"
)

// panelSpecs maps every item type drawn as a panel to its spec. Types not
// here get genericToolSpec (any other *_call) or unknownSpec.
var panelSpecs = map[string]*panelSpec{
	"function_call":         {icon: "ƒ", title: nameTitle("function"), body: functionBody},
	"custom_tool_call":      {icon: "ƒ", title: nameTitle("custom tool"), body: customBody},
	"web_search_call":       {icon: "⌕", title: fixedTitle("web search"), body: webSearchBody, phase: true},
	"file_search_call":      {icon: "⌕", title: fixedTitle("file search"), body: fileSearchBody, phase: true},
	"code_interpreter_call": {icon: "▷", title: fixedTitle("code interpreter"), body: codeBody, phase: true},
	"image_generation_call": {icon: "▣", title: fixedTitle("image generation"), body: imageBody, phase: true},
	"shell_call":            {icon: "$", title: fixedTitle("shell"), body: shellBody},
	"local_shell_call":      {icon: "$", title: fixedTitle("local shell"), body: shellBody},
	"shell_call_output":     {icon: "$", title: fixedTitle("shell output"), body: shellOutputBody},
	"apply_patch_call":      {icon: "±", title: patchTitle, body: patchBody},
	"computer_call":         {icon: "▢", title: fixedTitle("computer"), body: computerBody},
	"tool_search_call":      {icon: "⌕", title: fixedTitle("tool search"), body: toolSearchBody},
	"tool_search_output":    {icon: "⌕", title: fixedTitle("tool search results"), body: toolListBody},
	"mcp_list_tools":        {icon: "◆", title: mcpListTitle, body: mcpListBody},
	"mcp_call":              {icon: "◆", title: mcpToolTitle, body: mcpCallBody},
	"mcp_approval_request":  {icon: "◆", title: mcpToolTitle, body: approvalBody, state: approvalStatus},
}

// genericToolSpec draws a *_call type runnel does not know: its type, and
// whatever arguments, input, code, output or error it carries.
var genericToolSpec = &panelSpec{icon: "ƒ", title: typeTitle, body: genericBody, phase: true}

// unknownSpec draws any other item type: its type, status and id.
var unknownSpec = &panelSpec{icon: "?", title: typeTitle, body: unknownBody}

func fixedTitle(s string) func(*panel) string { return func(*panel) string { return s } }

func nameTitle(fallback string) func(*panel) string {
	return func(p *panel) string {
		if n := cleanLine(p.it.Name); n != "" {
			return n
		}
		return fallback
	}
}

func typeTitle(p *panel) string {
	if t := cleanLine(p.it.Type); t != "" {
		return t
	}
	return "item"
}

// functionBody shows a function call's arguments and, when runnel ran the
// function locally, its state (Progress) and output (Output, as a JSON
// string) as they arrive.
func functionBody(p *panel, d *drawer) {
	d.args("", p.it.Arguments)
	if prog := cleanLine(p.it.Progress); prog != "" {
		d.line(d.lk.muted.Render("local · " + prog))
	}
	if out := text(p.it.Output); out != "" {
		d.text("output", out, true)
	}
}

func customBody(p *panel, d *drawer) {
	d.args("", p.it.Input)
}

func webSearchBody(p *panel, d *drawer) {
	action := p.raw.get("action")
	var a fields
	a.load(action)
	switch str(a.get("type")) {
	case "open_page":
		d.line(d.lk.muted.Render("open ") + cleanLine(text(a.get("url"))))
	case "find_in_page":
		d.line(d.lk.muted.Render("find ") + "“" + cleanLine(text(a.get("pattern"))) + "”" +
			d.lk.muted.Render(" in ") + cleanLine(text(a.get("url"))))
	default:
		queries := strs(a.get("queries"))
		if len(queries) == 0 {
			if q := str(a.get("query")); q != "" {
				queries = []string{q}
			}
		}
		for _, q := range queries {
			d.line(d.lk.muted.Render("query ") + cleanLine(q))
		}
	}
	var urls []string
	for _, s := range objects(a.get("sources")) {
		if u := cleanLine(text(s["url"])); u != "" {
			urls = append(urls, u)
		}
	}
	d.add(section{label: plural(len(urls), "source", "sources"), lines: paint(d.lk.output.Render, fitAll(urls, d.width))})
}

func fileSearchBody(p *panel, d *drawer) {
	for _, q := range strs(p.raw.get("queries")) {
		d.line(d.lk.muted.Render("query ") + cleanLine(q))
	}
	results := p.raw.get("results")
	n, ok := count(results)
	if !ok {
		return
	}
	var lines []string
	for _, r := range objects(results) {
		name := cleanLine(text(r["filename"]))
		if name == "" {
			name = cleanLine(text(r["file_id"]))
		}
		if s := number(r["score"]); s != "" {
			name += d.lk.muted.Render(" score " + s)
		}
		lines = append(lines, name)
	}
	d.add(section{label: plural(n, "result", "results"), lines: fitAll(lines, d.width)})
}

func shellBody(p *panel, d *drawer) {
	cmds := p.it.Commands
	if len(cmds) == 0 {
		cmds = strs(p.raw.get("action", "commands"))
	}
	if len(cmds) == 0 { // local_shell_call: one command as an argv array
		if argv := strs(p.raw.get("action", "command")); len(argv) > 0 {
			cmds = []string{strings.Join(argv, " ")}
		}
	}
	var lines []string
	for _, c := range cmds {
		for i, l := range wrap(clean(c), d.width-2) {
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
	chunks := objects(p.it.Output)
	if chunks == nil {
		for _, raw := range p.it.ShellOutput {
			chunks = append(chunks, shellChunk(raw)...)
		}
	}
	var out, errs strings.Builder
	exit := ""
	for _, c := range chunks {
		out.WriteString(str(c["stdout"]))
		errs.WriteString(str(c["stderr"]))
		var o fields
		o.load(c["outcome"])
		switch str(o.get("type")) {
		case "exit":
			exit = "exit code " + number(o.get("exit_code"))
		case "timeout":
			exit = "timed out"
		}
	}
	d.text("", out.String(), true)
	if errs.Len() > 0 {
		d.add(section{label: "stderr", lines: paint(d.lk.errorText.Render, wrap(clean(errs.String()), d.width)), tail: true})
	}
	if exit != "" {
		d.line(d.lk.muted.Render(exit))
	}
}

func patchTitle(p *panel) string {
	path := cleanLine(str(p.raw.get("operation", "path")))
	if path == "" {
		return "apply patch"
	}
	return "apply patch " + path
}

func patchBody(p *panel, d *drawer) {
	if op := cleanLine(str(p.raw.get("operation", "type"))); op != "" {
		d.line(d.lk.muted.Render(strings.ReplaceAll(op, "_", " ")))
	}
	diff := p.it.Diff
	if diff == "" {
		diff = str(p.raw.get("operation", "diff"))
	}
	diff, skipped := tailOf(diff)
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
		for _, w := range wrap(l, d.width) {
			lines = append(lines, style.Render(w))
		}
	}
	if diff != "" {
		d.add(section{lines: lines, tail: true, note: d.skipped(skipped)})
	}
}

func computerBody(p *panel, d *drawer) {
	var a fields
	a.load(p.raw.get("action"))
	typ := cleanLine(str(a.get("type")))
	if typ == "" {
		return
	}
	var parts []string
	for _, k := range []string{"button", "x", "y", "text", "keys", "scroll_x", "scroll_y", "ms"} {
		if v := cleanLine(text(a.get(k))); v != "" {
			parts = append(parts, k+" "+v)
		}
	}
	if n, ok := count(a.get("path")); ok {
		parts = append(parts, plural(n, "point", "points"))
	}
	d.line(typ + d.lk.muted.Render(" "+strings.Join(parts, " · ")))
}

func toolSearchBody(p *panel, d *drawer) {
	d.args("", p.it.Arguments)
}

func toolListBody(p *panel, d *drawer) {
	d.add(section{lines: toolLines(d, p.raw.get("tools"))})
}

// toolLines lists tools as "name  description".
func toolLines(d *drawer, tools json.RawMessage) []string {
	var lines []string
	for _, t := range objects(tools) {
		name := cleanLine(text(t["name"]))
		if name == "" {
			name = cleanLine(text(t["type"]))
		}
		row := d.lk.title.Render(name)
		if desc := cleanLine(text(t["description"])); desc != "" {
			row += d.lk.muted.Render("  " + desc)
		}
		lines = append(lines, fit(row, d.width))
	}
	return lines
}

func genericBody(p *panel, d *drawer) {
	it := p.it
	d.args("arguments", it.Arguments)
	d.args("input", it.Input)
	if it.Code != "" {
		d.text("code", it.Code, true)
	}
	if o := text(it.Output); o != "" {
		d.text("output", o, false)
	}
	if e := errorText(it.Error); e != "" {
		d.add(section{lines: paint(d.lk.errorText.Render, wrap(cleanLine(e), d.width))})
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

// shellChunk reads one shell output delta: an object with stdout / stderr,
// an array of them, or a bare string (taken as stdout).
func shellChunk(raw json.RawMessage) []map[string]json.RawMessage {
	if s := str(raw); s != "" {
		q, _ := json.Marshal(s)
		return []map[string]json.RawMessage{{"stdout": q}}
	}
	if objs := objects(raw); objs != nil {
		return objs
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		return []map[string]json.RawMessage{m}
	}
	return nil
}
