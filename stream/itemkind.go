package stream

import (
	"sort"
	"strings"
)

// The kind table is the one place item types are listed. For each type it
// holds the protocol's facts: its class (how it is paired and shown: a
// message, reasoning, a call answered by an output with its call_id, …) and
// its searchable text, which the store's search index reads. How a type is
// presented to people (title, icon, one-line summary) is the UI's, in a
// table keyed by the same types (ui/itemlook) that a test holds to this
// one. A type not in the table gets a generic entry (see KindFor), so an
// item of a type runnel has never seen is still classed and searchable by
// what it carries.

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
	Class   Class
	Generic bool // a fallback entry: Type is not in the table
	// Answered: a call the client answers with an output naming its
	// call_id; one the server sends with no call_id gets one (CallIDFor).
	Answered bool

	text func(it *Item) Searchable
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
// table gets a generic entry: a "*_call" or a provider's own tool
// ("openrouter:web_search", any "vendor:tool") is a tool call (searchable by
// its name, arguments, input, code, action, output and error), a
// "*_output" a tool output (searchable by its output), anything else a
// panel of facts with no searchable text.
func KindFor(typ string) ItemKind {
	if k, ok := kinds[typ]; ok {
		return k
	}
	k := ItemKind{Type: typ, Class: ClassOther, Generic: true}
	switch {
	case strings.HasSuffix(typ, "_call") || IsVendorType(typ):
		k.Class = ClassCall
	case strings.HasSuffix(typ, "_output"):
		k.Class = ClassOutput
	}
	return k
}

// SearchText is the item's searchable text (ItemKind.Text) as it would be
// read from its JSON (StoredItem): an item with a role and no type is a
// message.
func (it *Item) SearchText() Searchable {
	typ := it.Type
	if typ == "" && it.Role != "" {
		typ = "message"
	}
	return KindFor(typ).Text(it)
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
	ItemKind{Type: "message", Class: ClassMessage, text: messageText},
	ItemKind{Type: "reasoning", Class: ClassReasoning, text: reasoningText},
	ItemKind{Type: "compaction"},

	ItemKind{Type: "function_call", Class: ClassCall, Answered: true, text: toolText(name, args)},
	ItemKind{Type: "custom_tool_call", Class: ClassCall, Answered: true, text: toolText(name, input)},
	ItemKind{Type: "tool_search_call", Class: ClassCall, text: toolText(args)},
	ItemKind{Type: "web_search_call", Class: ClassCall, text: webSearchText},
	ItemKind{Type: "file_search_call", Class: ClassCall, text: fileSearchText},
	ItemKind{Type: "code_interpreter_call", Class: ClassCall, text: codeText},
	ItemKind{Type: "image_generation_call", Class: ClassCall, text: toolText(func(it *Item) string { return it.Details().RevisedPrompt })},
	ItemKind{Type: "shell_call", Class: ClassCall, Answered: true, text: shellText},
	ItemKind{Type: "local_shell_call", Class: ClassCall, Answered: true, text: shellText},
	ItemKind{Type: "apply_patch_call", Class: ClassCall, Answered: true, text: patchText},
	ItemKind{Type: "computer_call", Class: ClassCall, Answered: true},

	ItemKind{Type: "function_call_output", Class: ClassOutput},
	ItemKind{Type: "custom_tool_call_output", Class: ClassOutput},
	ItemKind{Type: "tool_search_output", Class: ClassOutput},
	ItemKind{Type: "shell_call_output", Class: ClassOutput},
	ItemKind{Type: "local_shell_call_output", Class: ClassOutput},
	ItemKind{Type: "apply_patch_call_output", Class: ClassOutput},
	ItemKind{Type: "computer_call_output", Class: ClassOutput},

	// OpenAI's programmatic tool calling: a program the server runs
	// (its code), which calls the client's functions, and its output (its
	// result), paired by call_id.
	ItemKind{Type: "program", Class: ClassCall, text: codeText},
	ItemKind{Type: "program_output", Class: ClassOutput},
	ItemKind{Type: "additional_tools", text: toolListText},

	ItemKind{Type: "mcp_list_tools"},
	ItemKind{Type: "mcp_call", Class: ClassCall, text: toolText(server, name, args, output, errText)},
	ItemKind{Type: "mcp_approval_request", text: toolText(server, name, args)},
	ItemKind{Type: "mcp_approval_response"},
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
	genericCallText = toolText(name, args, input, func(it *Item) string { return it.Code }, actionText, output, errText)
)

// IsVendorType reports whether an item type is a provider's own, written
// "vendor:tool" in plain lower-case names (OpenRouter's server tools:
// "openrouter:web_search", "openrouter:datetime"…).
func IsVendorType(typ string) bool {
	v, tool, ok := strings.Cut(typ, ":")
	return ok && isWord(v) && isWord(tool)
}

// isWord reports whether s is a plain lower-case name: letters, digits,
// '_', '-' and '.'.
func isWord(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' && c != '.' {
			return false
		}
	}
	return s != ""
}

// actionText is what a call's action names: its queries, else its URL.
func actionText(it *Item) string {
	a := it.Details().Action
	return join(a.Query, join(a.Queries...), a.URL)
}

func toolListText(it *Item) Searchable {
	names := make([]string, 0, len(it.Details().Tools))
	for _, t := range it.Details().Tools {
		names = append(names, join(t.Name, t.Description))
	}
	return Searchable{Tool: join(names...)}
}

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
