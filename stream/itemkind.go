package stream

import (
	"fmt"
	"sort"
	"strings"
)

// The kind table is the one place item types are listed. For each type it
// holds the title and icon that name it, its one-line summary and its
// searchable text; the store's search index, the markdown export, the UI's
// panels and the one-shot summaries all read it. A type not in the table
// gets a generic entry (see KindFor), so an item of a type runnel has never
// seen is still named, summarized and searchable by what it carries.

// Class says how an item is shown and paired.
type Class int

const (
	ClassOther     Class = iota // anything else: shown as a panel of facts (MCP tool lists, approvals, compaction, unknown types)
	ClassMessage                // a message: its text is the answer (assistant) or the prompt (anyone else)
	ClassReasoning              // reasoning: summary and reasoning text
	ClassCall                   // a tool call: a panel with its arguments, answered by an output with its call_id
	ClassOutput                 // a tool output: shown under its call, found by call_id
)

// Searchable is an item's searchable text, by column of the search index.
type Searchable struct {
	Prompt, Answer, Reasoning, Tool string
}

// Empty reports whether there is no text in any column.
func (s Searchable) Empty() bool {
	return s.Prompt == "" && s.Answer == "" && s.Reasoning == "" && s.Tool == ""
}

// ItemKind is one entry of the kind table.
type ItemKind struct {
	Type    string // the item type ("" for an item without one)
	Title   string // plain, sentence case: "Web search", "MCP call"
	Icon    string // one plain glyph; its colour is theme's
	Class   Class
	Generic bool // a fallback entry: Type is not in the table
	// Quiet: the one-shot output leaves the item's summary out when the item
	// has no searchable text (reasoning that is encrypted or empty).
	Quiet bool

	summary func(it *Item, status string) string // the line after "• ", from clipped parts
	text    func(it *Item) Searchable
}

// Summary returns the item's one-line summary: "• ", what it is, the parts
// that say which (clipped to 120 runes each) and its status. It is never
// empty and holds no control sequence.
//
// The status is how the call ended, not only how its item streamed: a call
// runnel ran (Run) says its run's outcome ("failed", "cancelled", "denied",
// "timed out"…), and an item that carries an error says "failed".
func (k ItemKind) Summary(it *Item) string {
	status := it.Status
	switch {
	case it.Run != nil && it.Run.Phase == RunEnded:
		status = it.Run.State()
	case len(it.Error) > 0 && (status == "" || status == "completed"):
		status = "failed"
	case status == "":
		status = "done"
	}
	var s string
	if k.summary != nil {
		s = k.summary(it, status)
	}
	if s == "" {
		s = clip(orItem(it.Type)) + " " + status
	}
	return SanitizeLine("• " + s)
}

// Text returns the item's searchable text, sanitized. An entry without a
// text function of its own searches by its class: a tool call by its name,
// arguments, input, code, output and error; a tool output by its output;
// anything else has no searchable text.
func (k ItemKind) Text(it *Item) Searchable {
	text := k.text
	if text == nil {
		switch k.Class {
		case ClassCall:
			text = genericCallText
		case ClassOutput:
			text = outputText
		default:
			return Searchable{}
		}
	}
	t := text(it)
	return Searchable{Sanitize(t.Prompt), Sanitize(t.Answer), Sanitize(t.Reasoning), Sanitize(t.Tool)}
}

// KindFor returns the table's entry for an item type. A type not in the
// table gets a generic entry titled after the type: a "*_call" is a tool
// call (searchable by its name, arguments, input, code, output and error), a
// "*_output" a tool output (searchable by its output), anything else a
// panel of facts with no searchable text.
func KindFor(typ string) ItemKind {
	if k, ok := kinds[typ]; ok {
		return k
	}
	k := ItemKind{Type: typ, Title: strings.ReplaceAll(orItem(typ), "_", " "), Icon: "?", Class: ClassOther, Generic: true}
	switch {
	case strings.HasSuffix(typ, "_call"):
		k.Icon, k.Class = "ƒ", ClassCall
	case strings.HasSuffix(typ, "_output"):
		k.Icon, k.Class = "ƒ", ClassOutput
	}
	return k
}

// ItemKinds returns every entry of the table, by type.
func ItemKinds() []ItemKind {
	out := make([]ItemKind, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out
}

// kinds is the table. Set once here and never written.
var kinds = table(
	ItemKind{Type: "message", Title: "Message", Icon: "›", Class: ClassMessage, summary: messageSummary, text: messageText},
	ItemKind{Type: "reasoning", Title: "Reasoning", Icon: "∴", Class: ClassReasoning, Quiet: true, summary: reasoningSummary, text: reasoningText},
	ItemKind{Type: "compaction", Title: "Context compacted", Icon: "≡", summary: compactionSummary},

	ItemKind{Type: "function_call", Title: "Function call", Icon: "ƒ", Class: ClassCall, summary: callSummary, text: toolText(name, args)},
	ItemKind{Type: "custom_tool_call", Title: "Custom tool call", Icon: "ƒ", Class: ClassCall, summary: callSummary, text: toolText(name, input)},
	ItemKind{Type: "tool_search_call", Title: "Tool search", Icon: "⌕", Class: ClassCall, text: toolText(args)},
	ItemKind{Type: "web_search_call", Title: "Web search", Icon: "⌕", Class: ClassCall, summary: webSearchSummary, text: webSearchText},
	ItemKind{Type: "file_search_call", Title: "File search", Icon: "⌕", Class: ClassCall, text: fileSearchText},
	ItemKind{Type: "code_interpreter_call", Title: "Code interpreter", Icon: "▷", Class: ClassCall, summary: codeSummary, text: codeText},
	ItemKind{Type: "image_generation_call", Title: "Image generation", Icon: "▣", Class: ClassCall, text: toolText(func(it *Item) string { return it.Details().RevisedPrompt })},
	ItemKind{Type: "shell_call", Title: "Shell", Icon: "$", Class: ClassCall, summary: shellSummary, text: shellText},
	ItemKind{Type: "local_shell_call", Title: "Local shell", Icon: "$", Class: ClassCall, summary: shellSummary, text: shellText},
	ItemKind{Type: "apply_patch_call", Title: "Apply patch", Icon: "±", Class: ClassCall, summary: patchSummary, text: patchText},
	ItemKind{Type: "computer_call", Title: "Computer", Icon: "▢", Class: ClassCall},

	ItemKind{Type: "function_call_output", Title: "Function output", Icon: "ƒ", Class: ClassOutput},
	ItemKind{Type: "custom_tool_call_output", Title: "Custom tool output", Icon: "ƒ", Class: ClassOutput},
	ItemKind{Type: "tool_search_output", Title: "Tool search results", Icon: "⌕", Class: ClassOutput},
	ItemKind{Type: "shell_call_output", Title: "Shell output", Icon: "$", Class: ClassOutput},
	ItemKind{Type: "local_shell_call_output", Title: "Local shell output", Icon: "$", Class: ClassOutput},
	ItemKind{Type: "apply_patch_call_output", Title: "Apply patch output", Icon: "±", Class: ClassOutput},
	ItemKind{Type: "computer_call_output", Title: "Computer output", Icon: "▢", Class: ClassOutput},

	ItemKind{Type: "mcp_list_tools", Title: "MCP tools listed", Icon: "◆", summary: mcpListSummary},
	ItemKind{Type: "mcp_call", Title: "MCP call", Icon: "◆", Class: ClassCall, summary: mcpCallSummary, text: toolText(server, name, args, output, errText)},
	ItemKind{Type: "mcp_approval_request", Title: "MCP approval requested", Icon: "◆", summary: approvalSummary, text: toolText(server, name, args)},
	ItemKind{Type: "mcp_approval_response", Title: "MCP approval", Icon: "◆", summary: approvalResponseSummary},
)

func table(ks ...ItemKind) map[string]ItemKind {
	m := make(map[string]ItemKind, len(ks))
	for _, k := range ks {
		if _, dup := m[k.Type]; dup {
			panic("stream: kind " + k.Type + " is in the table twice")
		}
		m[k.Type] = k
	}
	return m
}

func orItem(typ string) string {
	if typ == "" {
		return "item"
	}
	return typ
}

// clip makes s one line of at most 120 runes.
func clip(s string) string {
	s = SanitizeLine(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// Searchable text.

func name(it *Item) string    { return it.Name }
func args(it *Item) string    { return it.Arguments }
func input(it *Item) string   { return it.Input }
func server(it *Item) string  { return it.ServerLabel }
func output(it *Item) string  { return it.OutputText() }
func errText(it *Item) string { return it.ErrorText() }

// toolText returns a text function that puts what each getter returns, one
// per line, in the tool column.
func toolText(get ...func(*Item) string) func(*Item) Searchable {
	return func(it *Item) Searchable {
		out := make([]string, 0, len(get))
		for _, g := range get {
			out = append(out, g(it))
		}
		return Searchable{Tool: join(out...)}
	}
}

var (
	outputText      = toolText(output)
	genericCallText = toolText(name, args, input, func(it *Item) string { return it.Code }, output, errText)
)

func messageText(it *Item) Searchable {
	text := join(partTexts(it.Content)...)
	if it.Role == "assistant" {
		return Searchable{Answer: text}
	}
	return Searchable{Prompt: text}
}

func reasoningText(it *Item) Searchable {
	return Searchable{Reasoning: join(join(partTexts(it.Summary)...), join(partTexts(it.Content)...))}
}

func partTexts(ps []Part) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Text
	}
	return out
}

func webSearchText(it *Item) Searchable {
	a := it.Details().Action
	return Searchable{Tool: join(a.Query, join(a.Queries...))}
}

func fileSearchText(it *Item) Searchable {
	texts := make([]string, 0, len(it.Details().Results))
	for _, r := range it.Details().Results {
		texts = append(texts, r.Text)
	}
	return Searchable{Tool: join(join(it.Details().Queries...), join(texts...))}
}

func codeText(it *Item) Searchable {
	logs := make([]string, 0, len(it.Details().Outputs))
	for _, o := range it.Details().Outputs {
		logs = append(logs, o.Logs)
	}
	return Searchable{Tool: join(it.Code, join(logs...))}
}

// shellText is each command on its own line; a local shell's argv, one
// word per line.
func shellText(it *Item) Searchable {
	cmds := it.Commands
	if len(cmds) == 0 {
		cmds = it.Details().Action.Commands
	}
	return Searchable{Tool: join(join(cmds...), join(it.Details().Action.Argv...))}
}

func patchText(it *Item) Searchable {
	return Searchable{Tool: join(it.Details().Operation.Path, it.PatchDiff())}
}

// join joins the non-empty strings by lines.
func join(ss ...string) string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

// Summaries: the line after "• ".

func messageSummary(it *Item, status string) string {
	who := "message"
	if it.Role != "" {
		who = it.Role
	}
	if t := strings.TrimSpace(it.Text()); t != "" {
		return clip(who) + ": " + clip(t)
	}
	return clip(who) + " " + status
}

func reasoningSummary(it *Item, status string) string {
	sum := strings.Join(it.SummaryText(), " ")
	if sum == "" {
		sum = it.Text()
	}
	if strings.TrimSpace(sum) == "" {
		return "reasoning " + status
	}
	return "reasoning: " + clip(sum)
}

// callSummary is "function name(arguments) status".
func callSummary(it *Item, status string) string {
	a := it.Arguments
	if it.Type == "custom_tool_call" {
		a = it.Input
	}
	return fmt.Sprintf("%s %s(%s) %s", strings.TrimSuffix(it.Type, "_call"), clip(it.Name), clip(a), status)
}

func mcpCallSummary(it *Item, status string) string {
	line := fmt.Sprintf("mcp %s.%s(%s) %s", clip(it.ServerLabel), clip(it.Name), clip(it.Arguments), status)
	if e := it.ErrorText(); e != "" {
		line += ": " + clip(e)
	}
	return line
}

func mcpListSummary(it *Item, status string) string {
	return fmt.Sprintf("mcp %s: %d tools", clip(it.ServerLabel), len(it.Details().Tools))
}

func approvalSummary(it *Item, status string) string {
	return fmt.Sprintf("mcp approval requested: %s.%s(%s)", clip(it.ServerLabel), clip(it.Name), clip(it.Arguments))
}

func approvalResponseSummary(it *Item, status string) string {
	v := "denied"
	if it.Details().Approve {
		v = "approved"
	}
	return "mcp approval " + v + ": " + clip(it.ApprovalRequestID)
}

// compactionSummary: the item is opaque (encrypted); what it means is that
// the model's context now starts from it.
func compactionSummary(it *Item, status string) string {
	return "context compacted"
}

func codeSummary(it *Item, status string) string {
	return fmt.Sprintf("code interpreter: %d lines %s", strings.Count(it.Code, "\n")+1, status)
}

func shellSummary(it *Item, status string) string {
	return fmt.Sprintf("shell: %s %s", clip(strings.Join(it.ShellCommands(), " && ")), status)
}

func patchSummary(it *Item, status string) string {
	return fmt.Sprintf("apply_patch: %d diff lines %s", strings.Count(it.PatchDiff(), "\n"), status)
}

func webSearchSummary(it *Item, status string) string {
	q := strings.Join(it.WebQueries(), "; ")
	if q == "" {
		q = it.Details().Action.URL
	}
	if q == "" {
		return "web_search_call " + status
	}
	return "web search: " + clip(q) + " " + status
}
