package store

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"runnel/stream"
)

// Searchable text is pulled out of raw item JSON by item type, one extractor
// per type, into the columns of the search index. Text is sanitized (no
// control sequences) and the snippet markers are removed from it, so a
// snippet's only markers are the index's own.

// itemText is the searchable text of one item, by index column.
type itemText struct {
	prompt, answer, reasoning, tool string
}

func (t itemText) empty() bool {
	return t.prompt == "" && t.answer == "" && t.reasoning == "" && t.tool == ""
}

type fields map[string]json.RawMessage

// extractors maps an item type to the function that finds its text.
var extractors = map[string]func(f fields) itemText{
	"message":                 messageText,
	"reasoning":               func(f fields) itemText { return itemText{reasoning: join(parts(f["summary"]), parts(f["content"]))} },
	"function_call":           tool("name", "arguments"),
	"custom_tool_call":        tool("name", "input"),
	"mcp_call":                tool("server_label", "name", "arguments", "output", "error"),
	"mcp_approval_request":    tool("server_label", "name", "arguments"),
	"tool_search_call":        tool("arguments"),
	"function_call_output":    tool("output"),
	"custom_tool_call_output": tool("output"),
	"shell_call_output":       tool("output"),
	"local_shell_call_output": tool("output"),
	"apply_patch_call_output": tool("output"),
	"computer_call_output":    tool("output"),
	"shell_call":              tool("action.commands", "action.command"),
	"local_shell_call":        tool("action.command"),
	"code_interpreter_call":   tool("code", "outputs[].logs"),
	"web_search_call":         tool("action.query", "action.queries"),
	"file_search_call":        tool("queries", "results[].text"),
	"apply_patch_call":        tool("operation.path", "operation.diff"),
	"image_generation_call":   tool("revised_prompt"),
}

// extract returns the searchable text of one item; unknown types and
// malformed items have none.
func extract(raw []byte) itemText {
	var f fields
	if json.Unmarshal(raw, &f) != nil {
		return itemText{}
	}
	typ := str(f["type"])
	if typ == "" && f["role"] != nil {
		typ = "message" // an input message may leave its type out
	}
	fn := extractors[typ]
	if fn == nil {
		return itemText{}
	}
	t := fn(f)
	t.prompt, t.answer, t.reasoning, t.tool = clip(t.prompt), clip(t.answer), clip(t.reasoning), clip(t.tool)
	return t
}

func messageText(f fields) itemText {
	text := parts(f["content"])
	if str(f["role"]) == "assistant" {
		return itemText{answer: text}
	}
	return itemText{prompt: text}
}

// tool returns an extractor of the text at paths into the tool column. A
// path is field names joined by dots; "name[]" steps into each element of an
// array.
func tool(paths ...string) func(f fields) itemText {
	return func(f fields) itemText {
		out := make([]string, 0, len(paths))
		for _, p := range paths {
			out = append(out, pick(f, strings.Split(p, ".")))
		}
		return itemText{tool: join(out...)}
	}
}

func pick(f fields, path []string) string {
	name, each := strings.CutSuffix(path[0], "[]")
	raw := f[name]
	if len(path) == 1 {
		return loose(raw)
	}
	var elems []json.RawMessage
	if !each {
		elems = []json.RawMessage{raw}
	} else if json.Unmarshal(raw, &elems) != nil {
		return ""
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		var sub fields
		if json.Unmarshal(e, &sub) == nil {
			out = append(out, pick(sub, path[1:]))
		}
	}
	return join(out...)
}

// parts returns the text of message or reasoning content: a plain string, or
// the text/refusal of each part.
func parts(raw json.RawMessage) string {
	if s := str(raw); s != "" {
		return s
	}
	var ps []fields
	if json.Unmarshal(raw, &ps) != nil {
		return ""
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, join(str(p["text"]), str(p["refusal"])))
	}
	return join(out...)
}

// str returns raw as a string when it is a JSON string, else "".
func str(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// loose returns the text in raw: a string as is, the strings of an array
// joined (shell outputs: their stdout and stderr), an object as its JSON.
func loose(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		return str(raw)
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return ""
		}
		out := make([]string, 0, len(a))
		for _, e := range a {
			var f fields
			if len(e) > 0 && e[0] == '{' && json.Unmarshal(e, &f) == nil && (f["stdout"] != nil || f["stderr"] != nil || f["text"] != nil) {
				out = append(out, join(str(f["stdout"]), str(f["stderr"]), str(f["text"])))
				continue
			}
			out = append(out, loose(e))
		}
		return join(out...)
	case '{':
		return string(raw)
	}
	return ""
}

func join(ss ...string) string {
	n := 0
	for _, s := range ss {
		if s != "" {
			ss[n] = s
			n++
		}
	}
	return strings.Join(ss[:n], "\n")
}

// Snippet markers: private-use runes the index wraps around matches.
const (
	markOpenRune  = '\uE000'
	markCloseRune = '\uE001'
	markOpen      = string(markOpenRune)
	markClose     = string(markCloseRune)
)

// clip sanitizes text for the index and removes marker runes from it.
func clip(s string) string {
	s = stream.Sanitize(s)
	if strings.Contains(s, markOpen) || strings.Contains(s, markClose) {
		s = strings.NewReplacer(markOpen, " ", markClose, " ").Replace(s)
	}
	return s
}

// previewLine is the line of text that lists show: the first non-blank line, sanitized,
// folded and cut to 200 runes.
func previewLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if line = stream.SanitizeLine(line); line != "" {
			return cut(line, 200)
		}
	}
	return ""
}

// cut shortens s to at most n runes, ending with "…" when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n-1 {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// title makes a session title from a prompt: one line, at most 80 runes.
func title(prompt string) string { return cut(stream.SanitizeLine(prompt), 80) }

// splitArray returns the elements of a JSON array, each as its exact bytes.
func splitArray(raw []byte) ([]json.RawMessage, error) {
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	return a, nil
}
