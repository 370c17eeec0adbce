package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"runnel/stream"
)

// Previews and snippets are shown as plain, readable text: answers are
// markdown, and "## Plan", "**bold**" or a code fence's "```go" are noise in
// a one-line list entry. plainMarkdown removes markdown syntax and keeps the
// words: the markers of headings, quotes, bullets and emphasis, code fences,
// thematic breaks and table rules go; links and images become their text,
// code spans their code, table cells are separated by two spaces.
//
// It works line by line on any fragment (a snippet may start or end in the
// middle of a construct: an unmatched marker is removed when it flanks a
// word, kept when it sits between two letters or digits or alone between
// spaces, as in "snake_case" or "2 * 3"), and never moves or drops the
// snippet marker runes, so the marks still cover the matched words.
func plainMarkdown(s string) string {
	if !strings.ContainsAny(s, "#*_`~[]<>|-+=!\\") {
		return s
	}
	var out []string
	eachPlainLine(s, func(line string) bool {
		out = append(out, line)
		return true
	})
	return strings.Join(out, "\n")
}

// firstPlainLine is the first line of s that is not blank once plain
// (plainMarkdown), reading no further than it: a preview of a long answer
// costs what its first lines cost.
func firstPlainLine(s string) string {
	first := ""
	eachPlainLine(s, func(line string) bool {
		if stream.SanitizeLine(line) == "" {
			return true
		}
		first = line
		return false
	})
	return first
}

// eachPlainLine calls yield with each line of s made plain, in order, until
// it returns false. Lines that were only syntax (a fence, a rule) are left
// out.
func eachPlainLine(s string, yield func(string) bool) {
	fence := "" // the open fence's marker run, "" outside a fenced block
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		trim := strings.TrimSpace(line)
		if f := fenceRun(trim); f != "" && (fence == "" || (f[0] == fence[0] && len(f) >= len(fence) && strings.TrimLeft(trim, f[:1]) == "")) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" {
			if !yield(line) { // code, as written
				return
			}
			continue
		}
		if line = plainLine(trim); (line != "" || trim == "") && !yield(line) {
			return
		}
	}
}

// fenceRun returns the run of ``` or ~~~ (three or more) a line starts with,
// "" when it is not a fence line.
func fenceRun(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !strings.Contains(line[n:], "`")) {
			return line[:n]
		}
	}
	return ""
}

// plainLine strips one line outside code blocks: block markers at its
// start, then inline syntax.
func plainLine(line string) string {
	if isRule(line) {
		return ""
	}
	for { // quote markers, possibly nested
		rest, ok := strings.CutPrefix(line, ">")
		if !ok {
			break
		}
		line = strings.TrimLeft(rest, " ")
	}
	if n := headingLevel(line); n > 0 {
		line = strings.TrimSpace(line[n:])
		line = strings.TrimSpace(strings.TrimRight(line, "#")) // a closing sequence
	}
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && line[1] == ' ' {
		line = strings.TrimLeft(line[2:], " ")
		if len(line) >= 4 && line[0] == '[' && line[2] == ']' && line[3] == ' ' && strings.ContainsRune(" xX", rune(line[1])) {
			line = line[4:] // a task box
		}
	}
	if strings.HasPrefix(line, "|") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		line = strings.Join(cells, "  ")
	}
	return inline(line)
}

// isRule reports a thematic break or a table's delimiter row.
func isRule(line string) bool {
	if line == "" {
		return false
	}
	if strings.Trim(line, "|-: ") == "" && strings.Contains(line, "-") && (strings.Contains(line, "|") || strings.Count(line, "-") >= 3) {
		return true
	}
	for _, c := range "*_=" {
		if strings.Trim(line, string(c)+" ") == "" && strings.Count(line, string(c)) >= 3 {
			return true
		}
	}
	return false
}

// headingLevel returns the length of an ATX heading's "#" run (1 to 6,
// followed by a space or the end), 0 when line is not a heading.
func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(line) && line[n] != ' ') {
		return 0
	}
	return n
}

// maxScan bounds how far inline looks for the end of a code span, link or
// autolink, so that a line of unmatched openers costs linear time.
const maxScan = 2048

// within is s[i:] cut to maxScan bytes.
func within(s string, i int) string { return s[i:min(len(s), i+maxScan)] }

// inline removes emphasis markers, code span backticks, link and image
// syntax (keeping the text), autolink brackets and backslash escapes.
func inline(s string) string {
	var b strings.Builder
	brackets, angles := closer{s: s, c: ']'}, closer{s: s, c: '>'}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|~<>", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := run(s, i, '`')
			if end := strings.Index(within(s, i+n), s[i:i+n]); end >= 0 {
				b.WriteString(strings.TrimSpace(s[i+n : i+n+end]))
				i += n + end + n
				continue
			}
			i += n // an unmatched run (a snippet cut inside the span)
			continue
		case c == '!' && i+1 < len(s) && s[i+1] == '[' && brackets.within(i+1):
			if text, n := link(within(s, i+1)); n > 0 {
				b.WriteString(inline(text))
				i += 1 + n
				continue
			}
		case c == '[' && brackets.within(i):
			if text, n := link(within(s, i)); n > 0 {
				b.WriteString(inline(text))
				i += n
				continue
			}
		case c == '<' && angles.within(i):
			if end := angles.next - i; end > 1 && isAutolink(s[i+1:i+end]) {
				b.WriteString(s[i+1 : i+end])
				i += end + 1
				continue
			}
		case c == '*' || c == '_' || (c == '~' && i+1 < len(s) && s[i+1] == '~'):
			n := run(s, i, c)
			if flanks(s, i, i+n, c) {
				i += n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// closer finds the next closing byte of a line ("]" of a link, ">" of an
// autolink) for inline, so that a construct is looked for only where it
// can close within maxScan: a line of "[" or "<" with no closer after
// them costs one scan, not maxScan bytes per opener.
type closer struct {
	s    string
	c    byte
	next int  // the next c after the last position asked (valid unless done)
	done bool // no c follows it
}

// within reports whether c follows s[i] within maxScan bytes, at next.
// The positions asked only grow.
func (c *closer) within(i int) bool {
	if !c.done && c.next <= i {
		if k := strings.IndexByte(c.s[i+1:], c.c); k >= 0 {
			c.next = i + 1 + k
		} else {
			c.done = true
		}
	}
	return !c.done && c.next-i < maxScan
}

// run is the length of the run of c starting at s[i].
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// flanks reports whether the delimiter run s[i:j] of c opens or closes
// emphasis: a word on one side at least, and for "_" (or any run between
// two letters or digits, as in 2*3) not inside a word.
func flanks(s string, i, j int, c byte) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[j:])
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	space := func(r rune) bool { return r == utf8.RuneError || unicode.IsSpace(r) }
	if space(before) && space(after) {
		return false
	}
	if word(before) && word(after) {
		return c == '*' && j-i >= 2 // "a**b**c" is emphasis, "2*3" is not
	}
	return true
}

// link parses "[text](dest)" or "[text][ref]" at the start of s and returns
// the text and the length of the whole construct, 0 when s starts no link.
func link(s string) (string, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			text, rest := s[1:i], s[i+1:]
			if len(rest) > 0 && (rest[0] == '(' || rest[0] == '[') {
				closer := byte(')')
				if rest[0] == '[' {
					closer = ']'
				}
				if end := strings.IndexByte(rest, closer); end > 0 {
					return text, i + 1 + end + 1
				}
				if closer == ')' && !strings.ContainsAny(rest, " \t") {
					return text, len(s) // a destination the snippet cut off
				}
			}
			return "", 0
		}
	}
	return "", 0
}

// isAutolink reports whether s (between < and >) is a URL or mail address.
func isAutolink(s string) bool {
	if strings.ContainsAny(s, " <") {
		return false
	}
	if at := strings.IndexByte(s, '@'); at > 0 && !strings.Contains(s, ":") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	return colon >= 2 && strings.IndexFunc(s[:colon], func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '.' || r == '-'))
	}) < 0
}
