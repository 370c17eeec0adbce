package itemlook

import (
	"sort"
	"strings"

	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// Look is how one item type is presented.
type Look struct {
	Type  string // the item type ("" for an item without one)
	Title string // plain, sentence case: "Web search", "MCP call"
	Icon  string // one plain glyph; its colour is theme's
	// Generic: the type is not in the table; Title is made from it.
	Generic bool
	// Quiet: the one-shot output leaves the item's summary out when the item
	// has no searchable text (reasoning that is encrypted or empty).
	Quiet bool

	summary func(it *stream.Item, status string) string // the line after "• ", from clipped parts
}

// For returns the look of an item type: its entry in the table, or for a
// type not in it a generic look titled after the type ("teleport call"),
// with the icon of its class (ƒ for a tool call or output, ? for anything
// else).
func For(typ string) Look {
	if l, ok := looks[typ]; ok {
		return l
	}
	l := Look{Type: typ, Title: strings.ReplaceAll(orItem(typ), "_", " "), Icon: "?", Generic: true}
	switch stream.KindFor(typ).Class {
	case stream.ClassCall, stream.ClassOutput:
		l.Icon = "ƒ"
	}
	return l
}

// Looks returns every entry of the table, by type.
func Looks() []Look {
	out := make([]Look, 0, len(looks))
	for _, l := range looks {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out
}

// Summary returns the item's one-line summary: "• ", what it is, the parts
// that say which (clipped to 120 runes each) and its status. It is never
// empty and holds no control sequence.
//
// The status is how the call ended, not only how its item streamed: a call
// runnel ran (run, nil for one it did not) says its run's outcome
// ("failed", "cancelled", "denied", "timed out"…), and an item that carries
// an error says "failed".
func (l Look) Summary(it *stream.Item, run *toolrun.Run) string {
	status := it.Status
	switch {
	case run != nil && run.Phase == toolrun.RunEnded:
		status = run.State()
	case len(it.Error) > 0 && (status == "" || status == "completed"):
		status = "failed"
	case status == "":
		status = "done"
	}
	var s string
	switch {
	case l.summary != nil:
		s = l.summary(it, status)
	case l.Generic:
		s = genericSummary(it, status)
	}
	if s == "" {
		s = clip(orItem(it.Type)) + " " + status
	}
	return stream.SanitizeLine("• " + s)
}

// looks is the table, keyed by the types of stream's kind table. Set once
// here and never written.
var looks = table(
	Look{Type: "message", Title: "Message", Icon: "›", summary: messageSummary},
	Look{Type: "reasoning", Title: "Reasoning", Icon: "∴", Quiet: true, summary: reasoningSummary},
	Look{Type: "compaction", Title: "Context compacted", Icon: "≡", summary: compactionSummary},

	Look{Type: "function_call", Title: "Function call", Icon: "ƒ", summary: callSummary},
	Look{Type: "custom_tool_call", Title: "Custom tool call", Icon: "ƒ", summary: callSummary},
	Look{Type: "tool_search_call", Title: "Tool search", Icon: "⌕"},
	Look{Type: "web_search_call", Title: "Web search", Icon: "⌕", summary: webSearchSummary},
	Look{Type: "file_search_call", Title: "File search", Icon: "⌕"},
	Look{Type: "code_interpreter_call", Title: "Code interpreter", Icon: "▷", summary: codeSummary},
	Look{Type: "image_generation_call", Title: "Image generation", Icon: "▣"},
	Look{Type: "shell_call", Title: "Shell", Icon: "$", summary: shellSummary},
	Look{Type: "local_shell_call", Title: "Local shell", Icon: "$", summary: shellSummary},
	Look{Type: "apply_patch_call", Title: "Apply patch", Icon: "±", summary: patchSummary},
	Look{Type: "computer_call", Title: "Computer", Icon: "▢"},

	Look{Type: "function_call_output", Title: "Function output", Icon: "ƒ"},
	Look{Type: "custom_tool_call_output", Title: "Custom tool output", Icon: "ƒ"},
	Look{Type: "tool_search_output", Title: "Tool search results", Icon: "⌕"},
	Look{Type: "shell_call_output", Title: "Shell output", Icon: "$"},
	Look{Type: "local_shell_call_output", Title: "Local shell output", Icon: "$"},
	Look{Type: "apply_patch_call_output", Title: "Apply patch output", Icon: "±"},
	Look{Type: "computer_call_output", Title: "Computer output", Icon: "▢"},

	Look{Type: "program", Title: "Program", Icon: "▷", summary: programSummary},
	Look{Type: "program_output", Title: "Program output", Icon: "▷", summary: outputSummary},
	Look{Type: "additional_tools", Title: "Additional tools", Icon: "◆", summary: toolListSummary},

	Look{Type: "mcp_list_tools", Title: "MCP tools listed", Icon: "◆", summary: mcpListSummary},
	Look{Type: "mcp_call", Title: "MCP call", Icon: "◆", summary: mcpCallSummary},
	Look{Type: "mcp_approval_request", Title: "MCP approval requested", Icon: "◆", summary: approvalSummary},
	Look{Type: "mcp_approval_response", Title: "MCP approval", Icon: "◆", summary: approvalResponseSummary},
)

func table(ls ...Look) map[string]Look {
	m := make(map[string]Look, len(ls))
	for _, l := range ls {
		if _, dup := m[l.Type]; dup {
			panic("itemlook: " + l.Type + " is in the table twice")
		}
		m[l.Type] = l
	}
	return m
}

func orItem(typ string) string {
	if typ == "" {
		return "item"
	}
	return typ
}
