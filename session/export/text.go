package export

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"runnel/stream"
)

// Markdown building blocks: every piece of stored text goes through one of
// these, which sanitize it and keep it from breaking the document around it
// (a fence in the text, a backtick in a name, an answer that opens a code
// block and never closes it).

// indentJSON returns s indented when it is JSON, else s.
func indentJSON(s string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}

// fenced returns text as a fenced code block with the info string lang,
// fenced with more backticks than any run inside it.
func fenced(lang, text string) string {
	text = strings.TrimRight(stream.Sanitize(text), "\n")
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	return fence + lang + "\n" + text + "\n" + fence + "\n"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// code returns s as one line of inline code.
func code(s string) string {
	s = stream.SanitizeLine(s)
	if s == "" {
		return "``"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// quote returns text as a block quote.
func quote(text string) string {
	text = strings.TrimRight(stream.Sanitize(text), "\n")
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			b.WriteString(">\n")
			continue
		}
		b.WriteString("> ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// closeFences returns markdown with a closing fence added when it opens a
// fenced code block it never closes, so the rest of the document is not
// swallowed into it.
func closeFences(md string) string {
	var open string // the fence that opened the current block, "" outside one
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 || len(trimmed) < 3 {
			continue
		}
		c := trimmed[0]
		if c != '`' && c != '~' {
			continue
		}
		n := 0
		for n < len(trimmed) && trimmed[n] == c {
			n++
		}
		switch {
		case n < 3:
		case open == "":
			if c == '`' && strings.Contains(trimmed[n:], "`") {
				continue // not a fence: an info string may not hold a backtick
			}
			open = trimmed[:n]
		case c == open[0] && n >= len(open) && strings.TrimSpace(trimmed[n:]) == "":
			open = ""
		}
	}
	if open == "" {
		return md
	}
	return strings.TrimRight(md, "\n") + "\n" + open + "\n"
}

// details returns a collapsed HTML section. "</details>" in the body is
// defused so the body cannot close the section early.
func details(summary, body string) string {
	body = strings.TrimRight(closeFences(stream.Sanitize(body)), "\n")
	body = closingDetails.ReplaceAllString(body, "&lt;/$1")
	return "<details>\n<summary>" + escapeHTML(stream.SanitizeLine(summary)) + "</summary>\n\n" + body + "\n\n</details>\n"
}

var closingDetails = regexp.MustCompile(`(?i)</(details)`)

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
