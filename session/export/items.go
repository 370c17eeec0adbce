package export

import (
	"encoding/json"
	"strings"

	"runnel/stream"
	"runnel/stream/cite"
)

// Items are written by kind: each header is titled from headings, and
// outputs are found by their class in the item kind table (stream.KindFor).
// Tool calls write a one-line header (what, which, status) and their
// arguments and output as fenced blocks, the output found by call id. The
// types with a body of their own are in renderers; every other type is
// written by generic.

// headings title each item type's header, keyed by the types of stream's
// kind table (a test holds the two to the same types). They are this
// document's own words: the chat's titles and icons are the UI's
// (ui/itemlook), which session code does not import.
var headings = map[string]string{
	"message":                 "Message",
	"reasoning":               "Reasoning",
	"compaction":              "Context compacted",
	"function_call":           "Function call",
	"custom_tool_call":        "Custom tool call",
	"tool_search_call":        "Tool search",
	"web_search_call":         "Web search",
	"file_search_call":        "File search",
	"code_interpreter_call":   "Code interpreter",
	"image_generation_call":   "Image generation",
	"shell_call":              "Shell",
	"local_shell_call":        "Local shell",
	"apply_patch_call":        "Apply patch",
	"computer_call":           "Computer",
	"function_call_output":    "Function output",
	"custom_tool_call_output": "Custom tool output",
	"tool_search_output":      "Tool search results",
	"shell_call_output":       "Shell output",
	"local_shell_call_output": "Local shell output",
	"apply_patch_call_output": "Apply patch output",
	"computer_call_output":    "Computer output",
	"program":                 "Program",
	"program_output":          "Program output",
	"additional_tools":        "Additional tools",
	"mcp_list_tools":          "MCP tools listed",
	"mcp_call":                "MCP call",
	"mcp_approval_request":    "MCP approval requested",
	"mcp_approval_response":   "MCP approval",
}

// heading titles an item type's header: its entry in headings, or for a
// type not in it the type, underscores as spaces ("item" for none).
func heading(typ string) string {
	if h, ok := headings[typ]; ok {
		return h
	}
	if typ == "" {
		return "item"
	}
	return strings.ReplaceAll(typ, "_", " ")
}

// renderer writes one item of a kind under its title.
type renderer func(d *doc, it *stream.Item, title string)

// renderers maps an item type to the renderer of its body.
var renderers = map[string]renderer{
	"message":               (*doc).message,
	"reasoning":             (*doc).reasoning,
	"function_call":         call("json", func(it *stream.Item) string { return it.Arguments }),
	"custom_tool_call":      call("", func(it *stream.Item) string { return it.Input }),
	"tool_search_call":      call("json", func(it *stream.Item) string { return it.Arguments }),
	"mcp_call":              (*doc).mcpCall,
	"mcp_list_tools":        (*doc).mcpListTools,
	"mcp_approval_request":  (*doc).mcpApproval,
	"code_interpreter_call": (*doc).codeInterpreter,
	"image_generation_call": (*doc).imageGeneration,
	"shell_call":            (*doc).shell,
	"local_shell_call":      (*doc).shell,
	"apply_patch_call":      (*doc).applyPatch,
	"mcp_approval_response": (*doc).approvalAlone,
}

// item writes one stored item. done is false for an item saved while it
// still streamed.
func (d *doc) item(it *stream.Item, done bool) {
	title := heading(it.Type)
	if cite.Grouped(it) {
		d.search(it)
		return
	}
	if it.Type == "reasoning" && stream.KindFor(it.Type).Text(it).Empty() {
		return // nothing to write (encrypted): it does not end a group of searches
	}
	switch {
	case it.Type == "mcp_approval_response" && d.asked[it.ApprovalRequestID]:
		return // written under its request
	case stream.KindFor(it.Type).Class == stream.ClassOutput:
		if !d.called[it.CallID] {
			d.outputAlone(it, title)
		}
		return // else written under its call
	}
	d.endSearches()
	if d.html != nil {
		d.flush()
		d.html.summary = ""
		d.html.shift = itemHeadings
		defer func() { d.html.shift = 0 }()
	}
	n := d.b.Len()
	if r := renderers[it.Type]; r != nil {
		r(d, it, title)
	} else {
		d.generic(it, title)
	}
	if !done && d.b.Len() > n {
		d.block("*(saved while still streaming)*")
	}
	if d.html != nil {
		d.panel(it.Type, title)
	}
}

// head writes a tool header: "**Function call** `name` · completed".
func (d *doc) head(what, name string, it *stream.Item) {
	h := "**" + what + "**"
	if name = stream.SanitizeLine(name); name != "" {
		h += " " + code(name)
	}
	sum := what // the HTML panel's summary: the same words, plain
	if name != "" {
		sum += " " + name
	}
	if st := stream.SanitizeLine(it.Status); st != "" {
		h += " · " + st
		sum += " · " + st
	}
	if d.html != nil {
		d.html.summary = sum
		return
	}
	d.block(h)
}

func (d *doc) message(it *stream.Item, _ string) {
	text := it.PartsText()
	if strings.TrimSpace(text) == "" {
		return
	}
	if it.Role != "assistant" && it.Role != "" {
		d.block("**" + stream.SanitizeLine(it.Role) + ":**")
		d.block(quote(text))
		return
	}
	if md, ok := answer(it); ok {
		d.block(md)
		return
	}
	d.block(closeFences(stream.Sanitize(cite.DropTrackingIn(text))))
}

func (d *doc) reasoning(it *stream.Item, title string) {
	var parts []string
	for _, s := range it.SummaryText() {
		if t := strings.TrimSpace(s); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		if t := strings.TrimSpace(it.PartsText()); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return // encrypted or empty: nothing a reader can use
	}
	if d.html != nil { // the panel is the <details>
		d.block(closeFences(stream.Sanitize(strings.Join(parts, "\n\n"))))
		return
	}
	d.block(details(title, strings.Join(parts, "\n\n")))
}

// call returns the renderer of a tool call whose input is arg, fenced as
// lang.
func call(lang string, arg func(*stream.Item) string) renderer {
	return func(d *doc, it *stream.Item, title string) {
		d.head(title, it.Name, it)
		if a := arg(it); strings.TrimSpace(a) != "" {
			if lang == "json" {
				a = indentJSON(a)
			}
			d.block(fenced(lang, a))
		}
		d.answer(it.CallID)
	}
}

// answer writes the output of call id, when there is one.
func (d *doc) answer(id string) {
	out, ok := d.outputs[id]
	if !ok || id == "" {
		return
	}
	if out.Status == "in_progress" { // recorded while the call ran; runnel never finished it
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
func outputText(out *stream.Item) string {
	if t := out.OutputText(); t != "" {
		return t
	}
	return "(empty)"
}

// outputAlone writes a tool output whose call is not in the session.
func (d *doc) outputAlone(it *stream.Item, title string) {
	d.head(title, "for "+it.CallID, it)
	d.block(fencedOutput(outputText(it)))
}

// errorBlock writes an item's error, when it has one.
func (d *doc) errorBlock(it *stream.Item) {
	if e := it.ErrorText(); e != "" {
		d.block("Error:")
		d.block(fenced("", e))
	}
}

func (d *doc) mcpCall(it *stream.Item, title string) {
	d.head(title, label(it), it)
	if a := it.Arguments; strings.TrimSpace(a) != "" {
		d.block(fenced("json", indentJSON(a)))
	}
	if out := it.OutputText(); out != "" {
		d.block("Output:")
		d.block(fencedOutput(out))
	}
	d.errorBlock(it)
}

// label is an MCP item's "server.tool".
func label(it *stream.Item) string {
	if s := it.ServerLabel; s != "" {
		if n := it.Name; n != "" {
			return s + "." + n
		}
		return s
	}
	return it.Name
}

func (d *doc) mcpListTools(it *stream.Item, title string) {
	d.head(title, it.ServerLabel, it)
	var names []string
	for _, t := range it.Details().Tools {
		names = append(names, code(t.Name))
	}
	if len(names) > 0 {
		d.block(strings.Join(names, ", "))
	}
	d.errorBlock(it)
}

func (d *doc) mcpApproval(it *stream.Item, title string) {
	d.head(title, label(it), it)
	if a := it.Arguments; strings.TrimSpace(a) != "" {
		d.block(fenced("json", indentJSON(a)))
	}
	if r, ok := d.approvals[it.ID]; ok {
		d.block(verdict(r))
	} else {
		d.block("*No answer was recorded.*")
	}
}

// approvalAlone writes an approval response whose request is not in the
// session.
func (d *doc) approvalAlone(it *stream.Item, _ string) {
	d.block(verdict(it) + " (request " + code(it.ApprovalRequestID) + ")")
}

func verdict(r *stream.Item) string {
	v := "**Denied**"
	if r.Details().Approve {
		v = "**Approved**"
	}
	if why := stream.SanitizeLine(r.Details().Reason); why != "" {
		v += ": " + why
	}
	return v
}

func (d *doc) codeInterpreter(it *stream.Item, title string) {
	d.head(title, "", it)
	if c := it.Code; strings.TrimSpace(c) != "" {
		d.block(fenced("python", c))
	}
	var logs []string
	for _, o := range it.Details().Outputs {
		if o.Logs != "" {
			logs = append(logs, o.Logs)
		} else if o.Type == "image" {
			logs = append(logs, "[image]")
		}
	}
	if len(logs) > 0 {
		d.block("Output:")
		d.block(fenced("", strings.Join(logs, "\n")))
	}
}

func (d *doc) imageGeneration(it *stream.Item, title string) {
	d.head(title, "", it)
	if p := it.Details().RevisedPrompt; p != "" {
		d.block(quote(p))
	}
	d.block("*(the image is in the JSON export)*")
}

func (d *doc) shell(it *stream.Item, title string) {
	d.head(title, "", it)
	if cmds := it.ShellCommands(); len(cmds) > 0 {
		d.block(fenced("sh", strings.Join(cmds, "\n")))
	}
	d.answer(it.CallID)
}

func (d *doc) applyPatch(it *stream.Item, title string) {
	d.head(title, it.Details().Operation.Path, it)
	if diff := it.PatchDiff(); diff != "" {
		d.block(fenced("diff", diff))
	}
	d.answer(it.CallID)
}

// generic writes an item with no body of its own (a type runnel does not
// know, or one with nothing to pick out): its title and its JSON, members
// sorted by name.
func (d *doc) generic(it *stream.Item, title string) {
	d.head(title, it.Name, it)
	var members map[string]json.RawMessage
	raw := []byte(it.Raw)
	if json.Unmarshal(it.Raw, &members) == nil {
		raw, _ = json.Marshal(members) // members sorted by name
	}
	d.block(fenced("json", indentJSON(string(raw))))
	d.answer(it.CallID)
}
