package textwrap

import (
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Words breaks text into rows of at most width cells at spaces only,
// so a word (a URL, a path, a command's argument) that fits on a row is
// never split: it goes whole to the next row. ansi.Wrap would also break
// at hyphens. A word wider than a row starts a row of its own and is
// broken where the row ends: that break is unavoidable.
//
// Each line of s keeps its leading spaces; the rows it continues on start
// hang cells further in (a hanging indent), the indent kept at most half
// the width. A break drops the spaces it falls on, as ansi.Wrap and the
// markdown renderer do: when no word was broken and no break fell on more
// than one space, joining the rows with one space each (indents removed)
// gives the line back exactly. Trailing spaces are dropped.
//
// s is plain text (cleaned); width is raised to 1.
func Words(s string, width, hang int) []string {
	width = max(width, 1)
	return ByLine(s, func(out []string, line string) []string { return wrapLine(out, line, width, hang) })
}

// ByLine wraps each line of s, without its trailing spaces, appending its
// rows to out; trailing newlines of s are dropped (nil for no text).
func ByLine(s string, wrap func(out []string, line string) []string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		out = wrap(out, strings.TrimRight(line, " "))
	}
	return out
}

// SpacedWords yields the words of s, split at spaces only, each with the
// spaces before it; spaces after the last word come with an empty word.
func SpacedWords(s string) iter.Seq2[string, string] {
	return func(yield func(spaces, word string) bool) {
		for i := 0; i < len(s); {
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			k := j
			for k < len(s) && s[k] != ' ' {
				k++
			}
			if !yield(s[i:j], s[j:k]) {
				return
			}
			i = k
		}
	}
}

// wrapLine appends the rows of one line to out.
func wrapLine(out []string, line string, width, hang int) []string {
	if len(line) <= width || ansi.StringWidth(line) <= width { // bytes ≥ cells
		return append(out, line)
	}
	body := strings.TrimLeft(line, " ")
	lead := len(line) - len(body)
	indent := min(lead+max(hang, 0), width/2)
	var row strings.Builder
	row.WriteString(line[:min(lead, width-1)])
	used, start := row.Len(), row.Len() // start: the row's indent
	flush := func() {
		out = append(out, strings.TrimRight(row.String(), " "))
		row.Reset()
		row.WriteString(strings.Repeat(" ", indent))
		used, start = indent, indent
	}
	for spaces, word := range SpacedWords(body) {
		ww := ansi.StringWidth(word)
		if used > start && used+len(spaces)+ww > width { // the break takes the spaces
			flush()
			spaces = ""
		}
		if used+len(spaces)+ww <= width {
			row.WriteString(spaces)
			row.WriteString(word)
			used += len(spaces) + ww
			continue
		}
		// a word wider than a row, on a row of its own: broken where rows end
		for word != "" {
			if used >= width {
				flush()
			}
			head := ansi.Truncate(word, width-used, "")
			if head == "" { // a wide character at the end of a row
				if used > start {
					flush()
					continue
				}
				_, n := utf8.DecodeRuneInString(word)
				head = word[:n]
			}
			row.WriteString(head)
			used += ansi.StringWidth(head)
			word = word[len(head):]
		}
	}
	return append(out, strings.TrimRight(row.String(), " "))
}
