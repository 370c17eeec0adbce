package markdown

import (
	"strconv"
	"strings"
)

// Line syntax: what the first characters of a markdown line say about it.
// These helpers are deliberately shallow; the scanner uses them to propose
// cuts, and a goldmark parse confirms every cut (structure.go).

func isBlank(line string) bool {
	return strings.Trim(line, " \t\r") == ""
}

// leadingSpaces counts the columns of indentation, a tab counting as 4.
func leadingSpaces(line string) (cols, bytes int) {
	for bytes < len(line) {
		switch line[bytes] {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols, bytes
		}
		bytes++
	}
	return cols, bytes
}

// fenceOpener reports whether line opens a fenced code block with at most 3
// spaces of indentation. A backtick fence's info string may not contain a
// backtick.
func fenceOpener(line string) (fence, bool) {
	cols, i := leadingSpaces(line)
	if cols > 3 || i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return fence{}, false
	}
	ch := line[i]
	n := 0
	for i+n < len(line) && line[i+n] == ch {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	if ch == '`' && strings.IndexByte(line[i+n:], '`') >= 0 {
		return fence{}, false
	}
	return fence{ch: ch, n: n}, true
}

// isCloser reports whether line closes a fence f opened at the top level.
func isCloser(line string, f fence) bool {
	cols, i := leadingSpaces(line)
	if cols > 3 {
		return false
	}
	n := 0
	for i+n < len(line) && line[i+n] == f.ch {
		n++
	}
	return n >= f.n && isBlank(line[i+n:])
}

// isListItem reports whether line starts with a list marker (any indent).
func isListItem(line string) bool {
	marker, _ := itemMarker(strings.TrimLeft(line, " \t"), true)
	return marker
}

// itemMarker reports whether rest (a line without its indentation) starts
// with a bullet or ordered list marker, or a definition-list colon. For a
// partial line, decided is false until enough of it has arrived.
func itemMarker(rest string, complete bool) (marker, decided bool) {
	if rest == "" {
		return false, complete
	}
	i := 0
	switch c := rest[0]; {
	case c == '-' || c == '+' || c == '*' || c == ':':
		i = 1
	case c >= '0' && c <= '9':
		for i < len(rest) && i < 10 && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == len(rest) {
			return false, complete
		}
		if i > 9 || (rest[i] != '.' && rest[i] != ')') {
			return false, true
		}
		i++
	default:
		return false, true
	}
	if i == len(rest) {
		return complete, complete
	}
	c := rest[i]
	return c == ' ' || c == '\t', true
}

// closesBlock reports whether line, after a line of kind prev, ends its
// block on its own line: an ATX heading, a thematic break, or a setext
// underline under paragraph text. A block may start right after it.
func closesBlock(line string, prev lineKind) bool {
	if isATXHeading(line) {
		return true
	}
	cols, i := leadingSpaces(line)
	if cols > 3 {
		return false
	}
	rest := line[i:]
	if isThematicBreak(rest) {
		return true // "---" under text is a setext underline: also one line
	}
	t := strings.TrimRight(rest, " \t\r")
	return prev == lineText && t != "" && strings.Trim(t, "=") == ""
}

// isATXHeading reports whether line is an ATX heading.
func isATXHeading(line string) bool {
	cols, i := leadingSpaces(line)
	if cols > 3 {
		return false
	}
	n := 0
	for i+n < len(line) && line[i+n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return false
	}
	return i+n == len(line) || line[i+n] == ' ' || line[i+n] == '\t'
}

// listMarker parses a list marker at the start of line (no indentation):
// a bullet, or an ordered number with its delimiter, followed by a space,
// a tab or the end of the line. A thematic break is not a marker.
func listMarker(line string) (bullet, delim byte, num int, ok bool) {
	if line == "" || isThematicBreak(line) {
		return 0, 0, 0, false
	}
	after := func(i int) bool { return i == len(line) || line[i] == ' ' || line[i] == '\t' }
	switch c := line[0]; {
	case c == '-' || c == '+' || c == '*':
		if !after(1) {
			return 0, 0, 0, false
		}
		return c, 0, 0, true
	case c >= '0' && c <= '9':
		i := 0
		for i < len(line) && i < 10 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i > 9 || i == len(line) || (line[i] != '.' && line[i] != ')') || !after(i+1) {
			return 0, 0, 0, false
		}
		n, err := strconv.Atoi(line[:i])
		if err != nil {
			return 0, 0, 0, false
		}
		return 0, line[i], n, true
	}
	return 0, 0, 0, false
}

// isThematicBreak reports whether line (no indentation) is a thematic break:
// three or more of the same '-', '*' or '_', with spaces or tabs between.
func isThematicBreak(line string) bool {
	line = strings.TrimRight(line, " \t\r")
	if line == "" {
		return false
	}
	c := line[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}
