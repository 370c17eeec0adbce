// Package mdnest bounds how deep markdown nests before a parser reads it:
// goldmark's parse is superlinear in how deep brackets, parentheses,
// quotes and lists nest (a paragraph of "[a](" runs, ">>>>…", a list
// 2,000 deep), and so is a render of deep containers. Guard marks what
// nests past MaxNest, in a copy of the source about to be parsed, so that
// the parser reads it as plain text; the caller then puts the source back,
// so the text shows as it came. It knows no parser and no styles.
package mdnest

import "strings"

// MaxNest is how deep markdown may nest before the rest is plain text.
const MaxNest = 32

// neutral is the byte a guarded character becomes: a parser reads it as a
// character of no syntax.
const neutral = 0x01

// Guard makes b, the source about to be parsed, safe to parse in linear
// time: past MaxNest, a bracket or parenthesis of a paragraph (counted
// from its last blank line, outside code fences), and a quote or list
// marker at the start of a line, become neutral. The caller parses b and
// then puts src back into it, so that the text shows as it came, as plain
// text. It returns the one-line note to give, or "" if nothing changed.
func Guard(b []byte) string {
	var note string
	sq, par := 0, 0 // open brackets and parentheses in the paragraph
	var fch byte    // the open code fence's character, 0 outside one
	var fn int
	for i := 0; i < len(b); {
		end := i + lineLen(b[i:])
		line := string(b[i:end])
		ind := strings.TrimLeft(line, " \t")
		switch ch, k := FenceRun(ind); {
		case fch != 0:
			if closes(ind, fch, fn) {
				fch = 0
			}
		case k >= 3:
			fch, fn = ch, k
		case strings.TrimSpace(ind) == "":
			sq, par = 0, 0
		default:
			if j := deepMarker(line); j >= 0 {
				b[i+j] = neutral
				note = "an answer nests quotes or lists more than 32 deep: shown as plain text from there (the text is kept whole)"
			}
			for j := i; j < end; j++ {
				d := &sq
				switch b[j] {
				case '\\':
					j++
					continue
				case '(':
					d = &par
				case ']', ')':
					if b[j] == ')' {
						d = &par
					}
					*d = max(*d-1, 0)
					continue
				case '[':
				default:
					continue
				}
				if *d == MaxNest {
					b[j] = neutral
					note = "an answer nests brackets more than 32 deep: shown as plain text there (the text is kept whole)"
					continue
				}
				*d++
			}
		}
		i = end
	}
	return note
}

// lineLen is the length of b's first line, with its newline.
func lineLen(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i + 1
		}
	}
	return len(b)
}

// deepMarker returns the offset in line of the first quote or list marker
// past MaxNest containers (two columns of indentation count as one), or -1.
func deepMarker(line string) int {
	units := 0 // half levels
	for i := 0; i < len(line); {
		switch line[i] {
		case ' ':
			units, i = units+1, i+1
			continue
		case '\t':
			units, i = units+4, i+1
			continue
		}
		n := markerLen(line[i:])
		if n == 0 {
			return -1
		}
		if units/2 >= MaxNest {
			return i
		}
		units, i = units+2, i+n
		if i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++ // the space after a marker is not indentation
		}
	}
	return -1
}

// markerLen is the length of the quote or list marker s starts with, or 0.
func markerLen(s string) int {
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	switch {
	case n == 0 && s[0] == '>':
		return 1
	case n == 0 && strings.IndexByte("-*+", s[0]) >= 0:
		n = 1
	case n > 0 && n < len(s) && (s[n] == '.' || s[n] == ')'):
		n++
	default:
		return 0
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' && s[n] != '\n' {
		return 0
	}
	return n
}

// FenceRun returns the fence character (` or ~) at the start of s and how
// many times it repeats; 0, 0 when s starts no fence. ui/markdown finds its
// fences with it too.
func FenceRun(s string) (byte, int) {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0, 0
	}
	k := 0
	for k < len(s) && s[k] == s[0] {
		k++
	}
	return s[0], k
}

// closes reports whether line, without its indentation, closes a fence of
// k characters ch.
func closes(line string, ch byte, k int) bool {
	c, n := FenceRun(line)
	return c == ch && n >= k && strings.TrimSpace(line[n:]) == ""
}
