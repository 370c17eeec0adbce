package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// paraTail renders a tail that is one top-level paragraph on one source
// line (how models write paragraphs) piece by piece: the text before the
// last safe split is rendered once, unwrapped, and kept; only the words
// after it are rendered on every frame, and the whole line is wrapped here
// with lipgloss.Wrap, as glamour wraps it (see paraFrame).
//
// A split is a space followed by a letter, with no unmatched markup before
// it: every top-level inline node before it is a complete construct
// (emphasis, link, code span, autolink, image) or text without *, _, `, ~,
// < or \, whose brackets are balanced at the split (a bracket pair that did
// not make a link, such as a reference whose definition has not arrived:
// goldmark drops its opener, so no later "]" can pair with it; a definition
// that arrives resets the paraTail). Then nothing after the split can pair
// with anything before it, and both pieces parse as they do in the whole
// paragraph. A paragraph that opens with "[" is not split before its first
// "]" is followed by something other than ":", so no piece reads as a
// reference definition.
//
// Invariants:
//   - prefix is the styled line of src[start:split] when split > start;
//     every piece of it was rendered with the definitions current at the
//     time (any definition change resets the paraTail).
//   - src[start:split] is a safe prefix of the paragraph and src[split] is
//     a space.
type paraTail struct {
	start  int    // offset of the paragraph (== segStart)
	split  int    // end of the cached prefix; == start when there is none
	prefix string // styled line of src[start:split]

	// The result of the last render, once the frame's renders are done.
	out string
	err error
}

// unsafeInline are the characters that may open markup closed later.
// Brackets are handled apart (lastSafeSplit).
const unsafeInline = "*_`~<"

// render puts off the tail's render to the end of the frame (Stream.lines)
// if the fast path applies; tail is the tail source to show (a partial
// definition line already dropped). The fragment or the error is then in
// out and err.
func (c *paraTail) render(s *Stream, tail string) bool {
	body, ok := c.body(s, tail)
	if !ok {
		return false
	}
	labels, pieces, split := c.pieces(s, body)
	c.out, c.err = "", nil
	s.lines.add(labels, pieces, func(lines []string, err error) {
		if err != nil {
			c.err = err
			return
		}
		if split > 0 {
			c.prefix = joinLine(c.prefix, lines[0])
			c.split = c.start + split
		}
		c.out = s.r.paraFragment(joinLine(c.prefix, lines[len(lines)-1]))
	})
	return true
}

// compose puts off the render of the settled block src[start:end] to the
// end of the frame, when it is the paragraph this paraTail holds a prefix
// of, and has done called with its fragment then.
func (c *paraTail) compose(s *Stream, src string, start, end int, done func(string, error)) bool {
	if c.start != start || c.split == start {
		return false
	}
	body, ok := c.body(s, src[start:end])
	if !ok || start+len(body) < c.split {
		return false
	}
	labels, pieces, split := c.pieces(s, body)
	prefix := c.prefix // the paraTail is reset when the block settles
	s.lines.add(labels, pieces, func(lines []string, err error) {
		if err != nil {
			done("", err)
			return
		}
		if split > 0 {
			prefix = joinLine(prefix, lines[0])
		}
		done(s.r.paraFragment(joinLine(prefix, lines[len(lines)-1])), nil)
	})
	return true
}

// holds reports whether the paragraph fast path has a rendered prefix of
// the block src[segStart:end], so compose would render only its last words.
func (c *paraTail) holds(s *Stream, src string, end int) bool {
	if c.start != s.segStart || c.split == c.start {
		return false
	}
	body := trimBlankLines(src[c.start:end])
	return c.start+len(body) >= c.split && strings.IndexByte(body, '\n') < 0
}

// body returns the paragraph's text if the fast path applies to tail: the
// style allows it, and tail is one line that can only be a paragraph.
func (c *paraTail) body(s *Stream, tail string) (string, bool) {
	if !s.r.para.ok {
		return "", false
	}
	if c.start != s.segStart {
		c.reset()
		c.start, c.split = s.segStart, s.segStart
	}
	body := trimBlankLines(tail)
	if body == "" || strings.IndexByte(body, '\n') >= 0 || !paragraphStart(body) {
		return "", false
	}
	return body, true
}

// paragraphStart reports whether line, a whole or partial single line,
// can only be a paragraph: it starts with a letter, or with a digit or
// inline markup that does not make it a list item, a thematic break, a
// fence or a reference definition.
func paragraphStart(line string) bool {
	c := line[0]
	switch {
	case isLetter(c):
		return true
	case c >= '0' && c <= '9', strings.IndexByte("*_[`!(\"'", c) >= 0:
		if _, _, _, ok := listMarker(line); ok || isThematicBreak(line) {
			return false
		}
		if _, ok := fenceOpener(line); ok || strings.HasPrefix(line, "``") {
			return false // "``" may still become a fence
		}
		_, isDef := parseDef(line)
		return !isDef
	}
	return false
}

// pieces moves the split as far as it safely goes and returns what to
// render: the new middle piece (if the split moved) and the words after the
// split, the labels they may use, and the new split's offset in body (0 if
// it did not move). The caller renders them in one glamour call.
func (c *paraTail) pieces(s *Stream, body string) (labels, pieces []string, split int) {
	from := 0 // where the words after the split begin in body
	if c.split > c.start {
		from = c.split - c.start + 1
	}
	split = lastSafeSplit(s.bp, body[from:])
	if split > 0 {
		pieces = append(pieces, body[from:from+split])
		split += from
		from = split + 1
	}
	pieces = append(pieces, body[from:])
	return labelsIn(body[max(c.split-c.start, 0):]), pieces, split
}

// lastSafeSplit returns the offset in text (a paragraph piece) of the last
// space where it may be split, or 0 if there is none.
func lastSafeSplit(bp blockParser, text string) int {
	if strings.IndexByte(text, ' ') < 0 {
		return 0
	}
	if text[0] == '[' {
		if i := strings.IndexByte(text, ']'); i < 0 || i+1 == len(text) || text[i+1] == ':' {
			return 0 // a first piece might read as a reference definition
		}
	}
	doc := bp.p.Parse(textReader(text))
	para, ok := doc.FirstChild().(*ast.Paragraph)
	if !ok || para.NextSibling() != nil {
		return 0
	}
	best := 0
	depth := 0      // brackets in text left open
	parens := 0     // parentheses open since a "](": a link destination may follow
	opener := false // the "(" of a "](" comes next
	for n := para.FirstChild(); n != nil; n = n.NextSibling() {
		t, isText := n.(*ast.Text)
		if !isText {
			switch n.Kind() {
			case ast.KindEmphasis, ast.KindCodeSpan, ast.KindLink, ast.KindAutoLink, ast.KindImage:
				continue // complete constructs
			}
			return best
		}
		seg := text[t.Segment.Start:t.Segment.Stop]
		for i := 0; i < len(seg); i++ {
			switch c := seg[i]; {
			case c == '[':
				depth++
			case c == ']':
				depth = max(depth-1, 0)
				if at := t.Segment.Start + i; at+1 < len(text) && text[at+1] == '(' {
					opener = true // "](" ... ")" may still become a link
				}
			case c == '(' && (opener || parens > 0):
				parens, opener = parens+1, false
			case c == ')':
				parens = max(parens-1, 0)
			case c == '\\' || strings.IndexByte(unsafeInline, c) >= 0:
				return best // an escaped bracket would miscount
			}
			at := t.Segment.Start + i
			if seg[i] == ' ' && depth == 0 && parens == 0 && at > 0 && text[at-1] != ' ' && at+1 < len(text) && isLetter(text[at+1]) {
				best = at
			}
		}
		if t.SoftLineBreak() || t.HardLineBreak() {
			return best
		}
	}
	return best
}

// reset drops the cached prefix.
func (c *paraTail) reset() {
	c.split, c.prefix = c.start, ""
}

// joinLine joins two styled pieces of a paragraph line with the space that
// separated them.
func joinLine(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func textReader(s string) text.Reader { return text.NewReader([]byte(s)) }
