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

// fields is a decoded item: its members, undecoded.
type fields map[string]json.RawMessage

// decode reads an item object; anything else has no fields.
func decode(raw []byte) fields {
	var f fields
	if json.Unmarshal(raw, &f) != nil {
		return nil
	}
	return f
}

// str returns member k when it is a JSON string, else "".
func (f fields) str(k string) string {
	raw := f[k]
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// obj returns member k decoded as an object (nil when it is not one).
func (f fields) obj(k string) fields { return decode(f[k]) }

// list returns member k decoded as an array of objects.
func (f fields) list(k string) []fields {
	var raws []json.RawMessage
	if json.Unmarshal(f[k], &raws) != nil {
		return nil
	}
	out := make([]fields, 0, len(raws))
	for _, r := range raws {
		if o := decode(r); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// strs returns member k as strings: an array of strings, or one string.
func (f fields) strs(k string) []string {
	if s := f.str(k); s != "" {
		return []string{s}
	}
	var out []string
	if json.Unmarshal(f[k], &out) != nil {
		return nil
	}
	return out
}

// loose returns member k as text: a string as is, an array of strings or of
// parts joined by lines, any other JSON indented.
func (f fields) loose(k string) string {
	raw := bytes.TrimSpace(f[k])
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s := f.str(k); s != "" || raw[0] == '"' {
		return s
	}
	if raw[0] == '[' {
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) == nil {
			lines := make([]string, 0, len(elems))
			for _, e := range elems {
				lines = append(lines, partText(e))
			}
			return strings.Join(lines, "\n")
		}
	}
	return indentJSON(string(raw))
}

// partText is the text of one content or output part: a string, the text or
// refusal of a part, a shell output's stdout and stderr, a marker for an
// image or file, else its JSON.
func partText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	p := decode(raw)
	if p == nil {
		return string(raw)
	}
	switch typ := p.str("type"); {
	case p.str("text") != "":
		return p.str("text")
	case p.str("refusal") != "":
		return "Refused: " + p.str("refusal")
	case p["stdout"] != nil || p["stderr"] != nil:
		return strings.TrimRight(p.str("stdout")+p.str("stderr"), "\n")
	case strings.Contains(typ, "image"):
		return "[image]"
	case strings.Contains(typ, "file"):
		return "[file " + p.str("filename") + "]"
	}
	return string(raw)
}

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
