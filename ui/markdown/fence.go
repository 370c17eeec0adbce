package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"

	"runnel/ui/mdnest"
)

// fence is the code-fence fast path: a tail that is one open fenced code
// block, at the left edge, whose new lines are highlighted one by one as
// they complete, without parsing the tail again.
//
// Invariants: src[start:] begins with the fence line; rows holds the rows
// of the complete lines after it up to next (and of longLine pieces of a
// line longer than that), none of which closes it.
type fence struct {
	start, next int
	ch          byte
	n           int // length of the opening run
	lang        string
	rows        strings.Builder // rows of complete lines, joined, at the document margin
	nrows       int
}

// newFence returns the fast path for an open fenced code block parsed
// from b, which starts at base in the message; nil if the fence is
// indented (its lines are then not the source's lines).
func newFence(n *ast.FencedCodeBlock, b []byte, base int) *fence {
	p := nodeStart(n)
	ls := lineStart(b, n)
	if p < 0 || p != ls {
		return nil
	}
	nl := strings.IndexByte(string(b[p:]), '\n')
	if nl < 0 {
		return nil
	}
	ch, k := mdnest.FenceRun(string(b[p:]))
	return &fence{start: base + p, next: base + p + nl + 1, ch: ch, n: k, lang: string(n.Language(b))}
}

// view highlights the complete lines that arrived and returns the block's
// render, as join would make it, in pieces to write one after the other
// (the rows of complete lines are not copied); false if the fence closed.
func (f *fence) view(r *Renderer, src string) ([]string, bool) {
	if closedIn(src[f.next:], f.ch, f.n) {
		return nil, false // before highlighting lines the whole block's render replaces
	}
	for {
		j := strings.IndexByte(src[f.next:], '\n')
		if j < 0 {
			break
		}
		f.addRows(r, src[f.next:f.next+j+1])
		f.next += j + 1
	}
	for len(src)-f.next > longLine { // a line that goes on and on (minified JSON): its rows in pieces
		cut := f.next + longLine
		for cut > f.next && !utf8.RuneStart(src[cut]) {
			cut--
		}
		f.addRows(r, src[f.next:cut])
		f.next = cut
	}
	rows, rest := strings.TrimLeft(f.rows.String(), "\n"), src[f.next:]
	if rest == "" {
		return []string{strings.TrimRight(rows, "\n")}, true
	}
	last := r.margined(strings.Join(r.codeRows(f.lang, []string{rest}, true), "\n"))
	if rows == "" {
		return []string{strings.Trim(last, "\n")}, true
	}
	return []string{rows, "\n", last}, true
}

// longLine is the longest part of an open fence's last line drawn again
// each frame: past it, the line is drawn in pieces of this size, each
// once, each a row of its own (plain, as a line still coming is, codeRows)
// until the whole render.
const longLine = 16 << 10

// addRows highlights code (a line, or a piece of a long one) and keeps its
// rows.
func (f *fence) addRows(r *Renderer, code string) {
	for _, row := range r.codeRows(f.lang, []string{code}, true) {
		if f.nrows++; f.nrows > 1 {
			f.rows.WriteByte('\n')
		}
		f.rows.WriteString(r.margined(row))
	}
}

// openFence reports whether n is a fenced code block in b whose closing
// fence has not come: no line after its fence line closes it.
func openFence(n ast.Node, b []byte) bool {
	if _, ok := n.(*ast.FencedCodeBlock); !ok {
		return false
	}
	p := nodeStart(n)
	if p < 0 {
		return false
	}
	s := string(b[p:])
	ch, k := mdnest.FenceRun(s)
	if k < 3 {
		return false
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		return true
	}
	return !closedIn(s[nl+1:], ch, k)
}

// closedIn reports whether a line of s closes a fence of k characters ch.
func closedIn(s string, ch byte, k int) bool {
	for _, line := range strings.SplitAfter(s, "\n") {
		if closes(line, ch, k) {
			return true
		}
	}
	return false
}

// closes reports whether line closes a fence of k characters ch: up to
// three spaces, at least k of ch, then only blanks.
func closes(line string, ch byte, k int) bool {
	line = strings.TrimRight(line, "\r\n")
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	c, n := mdnest.FenceRun(line[i:])
	return c == ch && n >= k && strings.Trim(line[i+n:], " \t") == ""
}
