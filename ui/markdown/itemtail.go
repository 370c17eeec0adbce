package markdown

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// listBreaks are the characters glamour lets lipgloss break a list's rows
// after (ansi.BlockElement.Finish).
const listBreaks = " ,.;-+|"

// itemFrame is how a top-level list item on one source line is built,
// learnt by calibrateItems. Glamour writes each item as its marker and its
// styled inline text on one line, and wraps the whole list with
// lipgloss.Wrap at the block width; the item's text is styled as the same
// text in a paragraph. So an item's rows can be built from paragraph pieces
// rendered without wrapping (itemSplit).
//
// Invariant: ok only if, for this style, the rows of an item built here
// are byte for byte the rows glamour renders, checked on a sample long
// enough to wrap, with markup, in a bullet and an ordered list.
type itemFrame struct {
	ok    bool
	lead  string // fragment bytes before the first item's rows
	trail string // fragment bytes after the last item's rows
}

// itemRows returns the rows of an item whose marker renders as mark and
// whose text renders as the styled line, each row ending in "\n".
func (r *Renderer) itemRows(mark, line string) string {
	return trimPadding(lipgloss.Wrap(mark+line, r.width, listBreaks)) + "\n"
}

// itemMarks renders the markers of stand-in items, each a one-item list,
// and pieces as paraLines does, without wrapping, and returns their styled
// markers and the pieces' styled lines.
func (r *Renderer) itemMarks(defs string, markers []string, pieces []string) (marks, lines []string, err error) {
	paras, joined := joinPieces(pieces)
	parts := make([]string, 0, len(markers)+len(paras))
	for _, m := range markers {
		parts = append(parts, m+" "+itemMark)
	}
	parts = append(parts, paras...)
	frags, err := r.parts(&r.unwrapped, 0, defs, parts)
	if err != nil {
		return nil, nil, err
	}
	for _, frag := range frags[:len(markers)] {
		i := strings.Index(frag, itemMark)
		if i < 0 || strings.Count(frag, itemMark) != 1 {
			return nil, nil, errFraming
		}
		marks = append(marks, frag[strings.LastIndexByte(frag[:i], '\n')+1:i])
	}
	lines, err = r.fragLines(frags[len(markers):], joined)
	if err != nil && joined {
		lines, err = r.paraLinesApart(defs, pieces)
	}
	if err != nil {
		return nil, nil, err
	}
	return marks, lines, nil
}

// calibrateItems learns the list frame and checks that items built from
// paragraph pieces match glamour's rows, for a bullet and an ordered list.
func (r *Renderer) calibrateItems() itemFrame {
	if !r.para.ok {
		return itemFrame{}
	}
	sample := strings.TrimSpace(strings.Repeat("Some **bold** text, `code`, a [link](https://example.com/x) and *more* words; a-b. ", 5))
	half := strings.Index(sample, " and *more*")
	var f itemFrame
	for k, m := range []string{"-", "7."} {
		second := "-"
		if k == 1 {
			second = "8."
		}
		frag, err := r.block("", m+" "+itemMark+"\n"+second+" "+sample)
		if err != nil {
			return itemFrame{}
		}
		lo, after := rowStart(frag, 0), rowAfter(frag, 0)
		if lo < 0 || after < 0 {
			return itemFrame{}
		}
		marks, lines, err := r.itemMarks("", []string{m, second}, []string{sample[:half], sample[half+1:]})
		if err != nil {
			return itemFrame{}
		}
		rows := r.itemRows(marks[1], joinLine(lines[0], lines[1]))
		first := r.itemRows(marks[0], itemMark)
		if !strings.HasPrefix(frag[after:], rows) || frag[lo:after] != first ||
			strings.Count(rows, "\n") < 3 || xansi.Strip(rows) == "" {
			return itemFrame{}
		}
		lead, trail := frag[:lo], frag[after+len(rows):]
		if k == 1 && (lead != f.lead || trail != f.trail) {
			return itemFrame{}
		}
		f.lead, f.trail = lead, trail
	}
	f.ok = true
	return f
}

// itemSplit renders the last item of a listTail, when it is one line that
// can only be a paragraph after its marker, piece by piece as paraTail
// renders a paragraph: the text before the last safe split is rendered
// once and kept, only the words after it on every frame, and the rows are
// wrapped here (itemFrame). When the item closes, its rows go into the
// list's body without another render.
//
// Invariants:
//   - item is the index of the item the state is for, -1 for none.
//   - mark is the styled marker of that item (its number included).
//   - prefix is the styled line of src[start:split] when split > start,
//     rendered with the definitions current at the time.
type itemSplit struct {
	item   int
	start  int // offset of the item's text, after the marker and its spaces
	split  int // end of the cached prefix; == start when there is none
	mark   string
	prefix string
}

// itemText returns the offset of the item's text in src and the text, if
// the item at src[at:] (up to end) is one line whose text can only be a
// paragraph.
func (c *listTail) itemText(src string, at, end int) (int, string, bool) {
	line := trimBlankLines(src[at:end])
	if line == "" || strings.IndexByte(line, '\n') >= 0 {
		return 0, "", false
	}
	cols, i := leadingSpaces(line)
	if cols != c.indent {
		return 0, "", false
	}
	b, d, _, ok := listMarker(line[i:])
	if !ok || b != c.bullet || d != c.delim {
		return 0, "", false
	}
	j := i + strings.IndexAny(line[i:], " \t")
	if j < i || line[j] == '\t' {
		return 0, "", false
	}
	n := 0
	for j+n < len(line) && line[j+n] == ' ' {
		n++
	}
	if n > 4 || j+n == len(line) {
		return 0, "", false
	}
	text := line[j+n:]
	if !paragraphStart(text) || strings.ContainsAny(text, "\t\r") {
		return 0, "", false
	}
	if text[0] == '[' && (len(text) < 3 || text[2] == ']') {
		return 0, "", false // may be a task list checkbox
	}
	return at + j + n, text, true
}

// splitRows returns the rows of item k, whose source is src[at:end], built
// from pieces, or false if the item does not qualify.
func (c *listTail) splitRows(s *Stream, src string, k, at, end int) (string, bool, error) {
	if !s.r.items.ok {
		return "", false, nil
	}
	start, text, ok := c.itemText(src, at, end)
	if !ok {
		return "", false, nil
	}
	sp := &c.split
	if sp.item != k || sp.start != start {
		*sp = itemSplit{item: k, start: start, split: start}
	}
	if start+len(text) < sp.split {
		*sp = itemSplit{item: -1}
		return "", false, nil
	}
	from := 0
	if sp.split > start {
		from = sp.split - start + 1
	}
	var pieces []string
	split := lastSafeSplit(s.bp, text[from:])
	if split > 0 {
		pieces = append(pieces, text[from:from+split])
		split += from
		from = split + 1
	}
	pieces = append(pieces, text[from:])
	var markers []string
	if sp.mark == "" {
		markers = append(markers, c.itemMarker(k))
	}
	defs := s.defs.prefix(labelsIn(text[max(sp.split-start, 0):]))
	marks, lines, err := s.r.itemMarks(defs, markers, pieces)
	if err != nil {
		*sp = itemSplit{item: -1}
		return "", false, err
	}
	if len(marks) > 0 {
		sp.mark = marks[0]
	}
	if split > 0 {
		sp.prefix = joinLine(sp.prefix, lines[0])
		sp.split = start + split
	}
	return s.r.itemRows(sp.mark, joinLine(sp.prefix, lines[len(lines)-1])), true, nil
}

// itemMarker returns the marker of item k as the list numbers it.
func (c *listTail) itemMarker(k int) string {
	pad := strings.Repeat(" ", c.indent)
	if c.bullet != 0 {
		return pad + string(c.bullet)
	}
	return pad + strconv.Itoa(c.first+k) + string(c.delim)
}
