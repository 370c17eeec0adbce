package itemlook

// This file holds the one-line summaries: the text after "• " for each
// type that has its own, made of clipped, sanitized parts.

import (
	"cmp"
	"fmt"
	"strings"

	"runnel/stream"
)

// clip makes s one line of at most 120 runes.
func clip(s string) string {
	s = stream.SanitizeLine(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// Summaries: the line after "• ".

func messageSummary(it *stream.Item, status string) string {
	who := "message"
	if it.Role != "" {
		who = it.Role
	}
	if t := strings.TrimSpace(it.Text()); t != "" {
		return clip(who) + ": " + clip(t)
	}
	return clip(who) + " " + status
}

func reasoningSummary(it *stream.Item, status string) string {
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
func callSummary(it *stream.Item, status string) string {
	a := it.Arguments
	if it.Type == "custom_tool_call" {
		a = it.Input
	}
	return fmt.Sprintf("%s %s(%s) %s", strings.TrimSuffix(it.Type, "_call"), clip(it.Name), clip(a), status)
}

func mcpCallSummary(it *stream.Item, status string) string {
	line := fmt.Sprintf("mcp %s.%s(%s) %s", clip(it.ServerLabel), clip(it.Name), clip(it.Arguments), status)
	if e := it.ErrorText(); e != "" {
		line += ": " + clip(e)
	}
	return line
}

func mcpListSummary(it *stream.Item, status string) string {
	return fmt.Sprintf("mcp %s: %d tools", clip(it.ServerLabel), len(it.Details().Tools))
}

func approvalSummary(it *stream.Item, status string) string {
	return fmt.Sprintf("mcp approval requested: %s.%s(%s)", clip(it.ServerLabel), clip(it.Name), clip(it.Arguments))
}

func approvalResponseSummary(it *stream.Item, status string) string {
	v := "denied"
	if it.Details().Approve {
		v = "approved"
	}
	return "mcp approval " + v + ": " + clip(it.ApprovalRequestID)
}

// compactionSummary: the item is opaque (encrypted); what it means is that
// the model's context now starts from it.
func compactionSummary(it *stream.Item, status string) string {
	return "context compacted"
}

func codeSummary(it *stream.Item, status string) string {
	return fmt.Sprintf("code interpreter: %d lines %s", strings.Count(it.Code, "\n")+1, status)
}

func shellSummary(it *stream.Item, status string) string {
	return fmt.Sprintf("shell: %s %s", clip(strings.Join(it.ShellCommands(), " && ")), status)
}

func patchSummary(it *stream.Item, status string) string {
	return fmt.Sprintf("apply_patch: %d diff lines %s", strings.Count(it.PatchDiff(), "\n"), status)
}

// webSearchSummary says what the call did: a search for its queries, or an
// action on a page, which is not a search ("open page: URL", "find in page:
// “pattern” in URL").
func webSearchSummary(it *stream.Item, status string) string {
	a := it.Details().Action
	switch a.Type {
	case "open_page":
		return "open page: " + clip(a.URL) + " " + status
	case "find_in_page":
		return "find in page: “" + clip(a.Pattern) + "” in " + clip(a.URL) + " " + status
	}
	q := strings.Join(it.WebQueries(), "; ")
	if q == "" {
		q = a.URL
	}
	if q == "" {
		return "web_search_call " + status
	}
	return "web search: " + clip(q) + " " + status
}

// programSummary is "program: its first line (N lines) status".
func programSummary(it *stream.Item, status string) string {
	code := strings.TrimSpace(it.Code)
	if code == "" {
		return "program " + status
	}
	first, _, _ := strings.Cut(code, "\n")
	return fmt.Sprintf("program: %s (%d lines) %s", clip(first), strings.Count(code, "\n")+1, status)
}

// outputSummary is "<type>: its output".
func outputSummary(it *stream.Item, status string) string {
	if o := strings.TrimSpace(it.OutputText()); o != "" {
		return clip(strings.ReplaceAll(it.Type, "_", " ")) + ": " + clip(o)
	}
	return ""
}

// toolListSummary is "<type>: the tools' names".
func toolListSummary(it *stream.Item, status string) string {
	var names []string
	for _, t := range it.Details().Tools {
		names = append(names, cmp.Or(t.Name, t.Type))
	}
	if len(names) == 0 {
		return ""
	}
	return clip(strings.ReplaceAll(it.Type, "_", " ")) + ": " + clip(strings.Join(names, ", "))
}

// genericSummary says what an item of a type runnel does not know
// carries, the first that it has of: a call's name and arguments, the
// action's query or URL, its code's first line, its output, the tools it
// lists; "" when none.
func genericSummary(it *stream.Item, status string) string {
	what := clip(orItem(it.Type))
	a := it.Details().Action
	q := strings.Join(append([]string{a.Query}, a.Queries...), "; ")
	switch {
	case it.Name != "" || it.Arguments != "":
		return fmt.Sprintf("%s %s(%s) %s", what, clip(it.Name), clip(it.Arguments), status)
	case strings.Trim(q, "; ") != "":
		return what + ": " + clip(strings.Trim(q, "; ")) + " " + status
	case a.URL != "":
		return what + ": " + clip(a.URL) + " " + status
	case strings.TrimSpace(it.Code) != "":
		first, _, _ := strings.Cut(strings.TrimSpace(it.Code), "\n")
		return what + ": " + clip(first) + " " + status
	case strings.TrimSpace(it.OutputText()) != "":
		return what + ": " + clip(it.OutputText()) + " " + status
	}
	if s := toolListSummary(it, status); s != "" {
		return s
	}
	return ""
}
