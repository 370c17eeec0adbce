package export

import (
	"encoding/json"
	"strings"

	"runnel/stream"
)

// One renderer per item type, in one table. A renderer writes the item's
// blocks; tool calls write a one-line header (what, which, status) and their
// arguments and output as fenced blocks, the output found by call id.

// renderers maps an item type to its renderer. Types not here are written
// by generic: a header naming the type and the item's JSON.
var renderers = map[string]func(d *doc, f fields){
	"message":               (*doc).message,
	"reasoning":             (*doc).reasoning,
	"function_call":         call("Function call", "arguments", "json"),
	"custom_tool_call":      call("Tool call", "input", ""),
	"tool_search_call":      call("Tool search", "arguments", "json"),
	"mcp_call":              (*doc).mcpCall,
	"mcp_list_tools":        (*doc).mcpListTools,
	"mcp_approval_request":  (*doc).mcpApproval,
	"web_search_call":       (*doc).webSearch,
	"file_search_call":      (*doc).fileSearch,
	"code_interpreter_call": (*doc).codeInterpreter,
	"image_generation_call": (*doc).imageGeneration,
	"shell_call":            (*doc).shell,
	"local_shell_call":      (*doc).shell,
	"apply_patch_call":      (*doc).applyPatch,
	"mcp_approval_response": (*doc).approvalAlone,
}

// item writes one stored item. done is false for an item saved while it
// still streamed.
func (d *doc) item(f fields, done bool) {
	typ := f.str("type")
	if typ == "" && f["role"] != nil {
		typ = "message"
	}
	switch {
	case typ == "mcp_approval_response" && d.asked[f.str("approval_request_id")]:
		return // written under its request
	case strings.HasSuffix(typ, "_output"):
		if !d.called[f.str("call_id")] {
			d.outputAlone(f)
		}
		return // else written under its call
	}
	n := d.b.Len()
	if r := renderers[typ]; r != nil {
		r(d, f)
	} else {
		d.generic(f)
	}
	if !done && d.b.Len() > n {
		d.block("*(saved while still streaming)*")
	}
}

// head writes a tool header: "**Function call** `name` · completed".
func (d *doc) head(what, name string, f fields) {
	h := "**" + what + "**"
	if name = stream.SanitizeLine(name); name != "" {
		h += " " + code(name)
	}
	if st := stream.SanitizeLine(f.str("status")); st != "" {
		h += " · " + st
	}
	d.block(h)
}

func (d *doc) message(f fields) {
	text := content(f)
	if strings.TrimSpace(text) == "" {
		return
	}
	if f.str("role") != "assistant" && f.str("role") != "" {
		d.block("**" + stream.SanitizeLine(f.str("role")) + ":**")
		d.block(quote(text))
		return
	}
	d.block(closeFences(stream.Sanitize(text)))
}

func (d *doc) reasoning(f fields) {
	var parts []string
	for _, p := range f.list("summary") {
		if t := strings.TrimSpace(p.str("text")); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		if t := strings.TrimSpace(content(f)); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return // encrypted or empty: nothing a reader can use
	}
	d.block(details("Reasoning", strings.Join(parts, "\n\n")))
}

// call returns the renderer of a tool call whose input is member arg,
// fenced as lang.
func call(what, arg, lang string) func(d *doc, f fields) {
	return func(d *doc, f fields) {
		d.head(what, f.str("name"), f)
		if a := f.loose(arg); strings.TrimSpace(a) != "" {
			if lang == "json" {
				a = indentJSON(a)
			}
			d.block(fenced(lang, a))
		}
		d.answer(f.str("call_id"))
	}
}

// answer writes the output of call id, when there is one.
func (d *doc) answer(id string) {
	out, ok := d.outputs[id]
	if !ok || id == "" {
		return
	}
	if out.str("status") == "in_progress" { // recorded while the call ran; runnel never finished it
		d.block("Output (interrupted: runnel stopped before this call finished; its output so far):")
	} else {
		d.block("Output:")
	}
	d.block(fencedOutput(outputText(out)))
}

// fencedOutput fences a tool's output, indented as JSON when it is a JSON
// object or array.
func fencedOutput(text string) string {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if json.Valid([]byte(t)) {
			return fenced("json", indentJSON(t))
		}
	}
	return fenced("", text)
}

// outputText is the text of a tool output item.
func outputText(out fields) string {
	if t := out.loose("output"); t != "" {
		return t
	}
	return "(empty)"
}

// outputAlone writes a tool output whose call is not in the session.
func (d *doc) outputAlone(f fields) {
	d.head("Tool output", "for "+f.str("call_id"), f)
	d.block(fencedOutput(outputText(f)))
}

func (d *doc) mcpCall(f fields) {
	d.head("MCP call", label(f), f)
	if a := f.loose("arguments"); strings.TrimSpace(a) != "" {
		d.block(fenced("json", indentJSON(a)))
	}
	if out := f.loose("output"); out != "" {
		d.block("Output:")
		d.block(fencedOutput(out))
	}
	if e := f.loose("error"); e != "" {
		d.block("Error:")
		d.block(fenced("", e))
	}
}

// label is an MCP item's "server.tool".
func label(f fields) string {
	if s := f.str("server_label"); s != "" {
		if n := f.str("name"); n != "" {
			return s + "." + n
		}
		return s
	}
	return f.str("name")
}

func (d *doc) mcpListTools(f fields) {
	d.head("MCP tools listed", f.str("server_label"), f)
	var names []string
	for _, t := range f.list("tools") {
		names = append(names, code(t.str("name")))
	}
	if len(names) > 0 {
		d.block(strings.Join(names, ", "))
	}
	if e := f.loose("error"); e != "" {
		d.block("Error:")
		d.block(fenced("", e))
	}
}

func (d *doc) mcpApproval(f fields) {
	d.head("MCP approval requested", label(f), f)
	if a := f.loose("arguments"); strings.TrimSpace(a) != "" {
		d.block(fenced("json", indentJSON(a)))
	}
	if r, ok := d.approvals[f.str("id")]; ok {
		d.block(verdict(r))
	} else {
		d.block("*No answer was recorded.*")
	}
}

// approvalAlone writes an approval response whose request is not in the
// session.
func (d *doc) approvalAlone(f fields) {
	d.block(verdict(f) + " (request " + code(f.str("approval_request_id")) + ")")
}

func verdict(r fields) string {
	v := "**Denied**"
	if string(r["approve"]) == "true" {
		v = "**Approved**"
	}
	if why := stream.SanitizeLine(r.str("reason")); why != "" {
		v += ": " + why
	}
	return v
}

func (d *doc) webSearch(f fields) {
	a := f.obj("action")
	q := strings.Join(append(a.strs("query"), a.strs("queries")...), "; ")
	if q == "" {
		q = a.str("url")
	}
	d.head("Web search", "", f)
	if q = stream.SanitizeLine(q); q != "" {
		d.block(quote(q))
	}
}

func (d *doc) fileSearch(f fields) {
	d.head("File search", "", f)
	if q := f.strs("queries"); len(q) > 0 {
		d.block(quote(strings.Join(q, "\n")))
	}
	if rs := f.list("results"); len(rs) > 0 {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString("- " + code(r.str("filename")) + "\n")
		}
		d.block(b.String())
	}
}

func (d *doc) codeInterpreter(f fields) {
	d.head("Code interpreter", "", f)
	if c := f.str("code"); strings.TrimSpace(c) != "" {
		d.block(fenced("python", c))
	}
	var logs []string
	for _, o := range f.list("outputs") {
		if l := o.str("logs"); l != "" {
			logs = append(logs, l)
		} else if o.str("type") == "image" {
			logs = append(logs, "[image]")
		}
	}
	if len(logs) > 0 {
		d.block("Output:")
		d.block(fenced("", strings.Join(logs, "\n")))
	}
}

func (d *doc) imageGeneration(f fields) {
	d.head("Image generation", "", f)
	if p := f.str("revised_prompt"); p != "" {
		d.block(quote(p))
	}
	d.block("*(the image is in the JSON export)*")
}

func (d *doc) shell(f fields) {
	d.head("Shell", "", f)
	a := f.obj("action")
	cmds := append(a.strs("commands"), a.strs("command")...)
	if typ := f.str("type"); typ == "local_shell_call" && len(cmds) > 1 {
		cmds = []string{strings.Join(cmds, " ")} // one argv
	}
	if len(cmds) > 0 {
		d.block(fenced("sh", strings.Join(cmds, "\n")))
	}
	d.answer(f.str("call_id"))
}

func (d *doc) applyPatch(f fields) {
	op := f.obj("operation")
	d.head("Apply patch", op.str("path"), f)
	if diff := op.str("diff"); diff != "" {
		d.block(fenced("diff", diff))
	}
	d.answer(f.str("call_id"))
}

// generic writes an item of a type this package does not know: its type
// and its JSON.
func (d *doc) generic(f fields) {
	typ := f.str("type")
	if typ == "" {
		typ = "item"
	}
	d.head(strings.ReplaceAll(typ, "_", " "), f.str("name"), f)
	raw, _ := json.Marshal(map[string]json.RawMessage(f)) // members sorted by name
	d.block(fenced("json", indentJSON(string(raw))))
	d.answer(f.str("call_id"))
}
