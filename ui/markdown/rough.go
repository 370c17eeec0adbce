package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// roughMin is the tail length from which it is rough.
const roughMin = 32 << 10

// roughParseMax is the longest rough tail parsed again when its block ends:
// past it, or for a table (whose render, not its parse, costs up to 400 ms
// at 32 KB), the tail stays rough until a whole render (the caller's, off
// the frame) replaces it, so no frame pays for the whole block.
const roughParseMax = 256 << 10

// rough is the long-block path: once the unsettled tail (an open block of
// any kind) has grown past roughMin, a frame draws it as its last parse
// rendered it, then what came since as plain rows, keeping those complete:
// a frame costs what is new. Each line is read once, as it completes.
// After a line that surely ends the block (a blank line ending a
// paragraph, then the next line) the tail is parsed again at once; after
// one that may (a blank line in a list, a line that may start a block),
// once the tail has grown by an eighth since, so parsing stays linear. A
// table, or a tail past roughParseMax, is never parsed again in a frame:
// it stays rough until a whole render.
//
// Invariants: src[start:] is the tail; out renders src[start:at]; w holds
// the rows of src[at:fed], done its complete rows joined; scan is a line
// start and src[scan:] holds the lines not read.
type rough struct {
	start, at, fed, scan int
	out                  string
	kind                 ast.NodeKind
	marker               byte // a list's marker
	w                    *wrapper
	done                 strings.Builder
	blank                bool // the last line read is blank
	ended, sure, due     bool // the block surely ended; then a line came; it may have ended
	stubborn             bool // a parse after sure left this tail open
	drafted              bool // out has code Draft left uncoloured
}

// roughPath is a Stream's long-block path across its tails: the rough tail
// in use, if any, and the bounds that decide when a tail turns rough and
// when it is parsed again.
//
// Invariants: cur, when set, draws the tail that starts at cur.start;
// stubborn is -1 or the start of a tail that a parse after a line that
// surely ended its block left open (it waits for the next line then).
type roughPath struct {
	cur      *rough // the long-block path, when the tail is long
	min      int    // tail length from which rough is used (roughMin)
	parseMax int    // the longest rough tail parsed again (roughParseMax)
	stubborn int    // the start of a tail that stayed open when it surely ended
}

func newRoughPath() roughPath {
	return roughPath{min: roughMin, parseMax: roughParseMax, stubborn: -1}
}

// newRough is the long-block path for a long tail of blocks nodes, drawn
// as out: its last block, or the one before if the last one's first line
// is incomplete; nil for a short tail.
func (s *Stream) newRough(nodes []ast.Node, b []byte, out, src string) *rough {
	if len(src)-s.segStart < s.long.min {
		return nil
	}
	last := nodes[len(nodes)-1]
	if k := len(nodes); k > 1 && lineStart(b, last) >= 0 && strings.IndexByte(string(b[lineStart(b, last):]), '\n') < 0 {
		last = nodes[k-2]
	}
	r := &rough{start: s.segStart, at: len(src), fed: len(src), out: out, kind: last.Kind(), stubborn: s.long.stubborn == s.segStart}
	for _, n := range nodes {
		r.drafted = r.drafted || s.drafty && hasCode(n) // View parses again
	}
	if l, ok := last.(*ast.List); ok {
		r.marker = l.Marker
	}
	r.scan = s.segStart + strings.LastIndexByte(src[s.segStart:], '\n') + 1
	if prev := src[s.segStart:max(r.scan-1, s.segStart)]; r.scan > s.segStart {
		r.blank = strings.TrimSpace(prev[strings.LastIndexByte(prev, '\n')+1:]) == ""
	}
	r.w = &wrapper{sc: &s.r.sgr, width: max(s.r.width-s.r.margin, 1)}
	return r
}

// view reads the lines that completed and draws the tail; false when the
// tail is to be parsed again.
func (r *rough) view(s *Stream, src string) ([]string, bool) {
	for {
		nl := strings.IndexByte(src[r.scan:], '\n')
		if nl < 0 {
			break
		}
		r.read(src[r.scan : r.scan+nl])
		r.scan += nl + 1
	}
	if r.parses(s, len(src)-r.start) && (r.sure && !r.stubborn || (r.sure || r.due) && 8*(len(src)-r.at) >= len(src)-r.start) {
		if r.sure {
			s.long.stubborn = r.start
		}
		return nil, false
	}
	r.feed(s, src)
	last := *r.w // the row being filled, laid out on a copy
	last.out, last.row, last.pending, last.word = nil, slices.Clone(last.row), slices.Clone(last.pending), slices.Clone(last.word)
	out := []string{r.out}
	if r.done.Len() > 0 {
		out = append(out, "\n", r.done.String())
	}
	if r.fed > r.at {
		for _, row := range last.finish() {
			out = append(out, "\n", s.r.margined(row))
		}
	}
	return out, true
}

// feed lays out the text that came since the last frame as plain rows:
// a paragraph's lines flow on, other blocks' lines start rows of their own.
func (r *rough) feed(s *Stream, src string) {
	a := s.r.paraAttrs().with(s.r.style.Text)
	lines := r.kind != ast.KindParagraph
	for text := src[r.fed:]; text != ""; {
		nl := strings.IndexByte(text, '\n')
		if !lines || nl < 0 {
			nl = len(text)
		}
		r.w.runs = append(r.w.runs[:0], run{text: text[:nl], a: a})
		r.w.feed(0)
		if nl == len(text) {
			break
		}
		r.w.finish() // a row per line, its indentation kept
		r.w.pending, r.w.pw, r.w.first, r.w.broken = r.w.pending[:0], 0, true, false
		text = text[nl+1:]
	}
	r.fed = len(src)
	for _, row := range r.w.out {
		if r.done.Len() > 0 {
			r.done.WriteByte('\n')
		}
		r.done.WriteString(s.r.margined(row))
	}
	r.w.out = r.w.out[:0]
}

// parses reports whether a tail of n bytes may be parsed again in a frame.
func (r *rough) parses(s *Stream, n int) bool {
	return r.kind != extast.KindTable && n <= s.long.parseMax
}

// read takes a completed line: may it end the block, or surely?
func (r *rough) read(line string) {
	blank := strings.TrimSpace(line) == ""
	t := strings.TrimLeft(line, " \t")
	ind := len(line) - len(t)
	switch {
	case r.ended && !blank:
		r.sure = true
	case blank:
		r.ended = r.ended || r.kind == ast.KindParagraph || r.kind == extast.KindTable
		r.due = r.due || !r.ended
	case r.kind == ast.KindHeading:
		r.ended = true
	case r.blank && ind == 0 && inert(t[0]):
		r.sure = true // after a blank line, text at the margin starts a block
	case r.continues(t, ind):
	case r.kind == ast.KindHTMLBlock:
		r.due = r.due || htmlEnds(t)
	default:
		r.due = true
	}
	r.blank = blank
}

// continues reports whether a line that is not blank, t after ind bytes of
// indentation, surely goes on with the open block: it cannot end it.
func (r *rough) continues(t string, ind int) bool {
	switch {
	case ind >= 4 && r.kind != ast.KindHTMLBlock, inert(t[0]):
		return true
	case r.kind == ast.KindList:
		return ind > 0 || t[0] == r.marker || t[0] >= '0' && t[0] <= '9'
	case r.kind == ast.KindBlockquote:
		return t[0] == '>'
	case r.kind == extast.KindTable:
		return t[0] == '|'
	}
	return false
}

// htmlEnds reports whether a line of an HTML block may end it.
func htmlEnds(t string) bool {
	return strings.Contains(t, "-->") || strings.Contains(t, "?>") || strings.Contains(t, "]]>") || strings.Contains(t, "</")
}

// inert reports whether a line starting with c (after its indentation)
// cannot start a block nor change the one before it.
func inert(c byte) bool {
	return strings.IndexByte("#>-*+=_|:<`~0123456789", c) < 0
}

func (r *Renderer) paraAttrs() attrs { return r.base.with(r.style.Paragraph.StylePrimitive) }
