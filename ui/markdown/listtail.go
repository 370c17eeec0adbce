package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// itemMark is the text of the stand-in list items listTail renders next to
// real ones to cut their rows out.
const itemMark = "runnelitemmark"

// listTail renders a tail that is one top-level list item by item: items
// that a later sibling has closed are rendered once, in batches, and kept;
// only the last item is rendered on every frame. Long lists are the most
// common large block in model answers.
//
// A batch is rendered between two stand-in items of the same list type (so
// the items keep their place and numbering: glamour numbers an item by its
// index plus the list's start) and cut out between the stand-ins' rows; the
// last item is rendered after one stand-in, or piece by piece when it is
// one line of paragraph text (itemSplit, itemtail.go), in which case it
// joins body without another render when it closes. A list of one item so
// far takes the fast path only piece by piece. Glamour ignores looseness, so a
// tight stand-in does not change a loose list. Item boundaries come from a
// goldmark parse, run only when a line that may start an item completes.
//
// Invariants:
//   - active only while the tail starts at start with a list item line.
//   - items[0] == start; items are confirmed item starts, increasing, and
//     each lies on a complete line, except that the last may lie on the
//     unfinished line once its marker and first text settle it (itemBegun).
//   - body holds the fragment bytes of items [0, done): the list's lead
//     rows and those items' rows.
//   - body was rendered with the definitions current at the time; any
//     definition change resets the listTail.
type listTail struct {
	active  bool
	dead    bool  // the tail is not a single list; do not retry this segment
	start   int   // offset of the first item line (== segStart)
	indent  int   // columns before the first marker
	bullet  byte  // '-', '+' or '*'; 0 for an ordered list
	delim   byte  // '.' or ')' for an ordered list
	first   int   // number of the first ordered item
	scanned int   // lines before this offset were checked for item starts
	items   []int // confirmed item starts
	done    int   // items rendered into body
	body    strings.Builder
	lastKey string // source and defs of the last item render
	lastOut string
	split   itemSplit // the last item rendered piece by piece (itemtail.go)

	// The result of a render put off to the View's renderBlocks.
	out string
	err error
}

// render returns the tail's fragment if the fast path applies. tail is the
// tail source to show (a partial definition line already dropped).
func (c *listTail) render(s *Stream, src, tail string) (string, bool) {
	if c.dead && c.start == s.segStart {
		return "", false
	}
	if !c.active || c.start != s.segStart {
		if !c.begin(src, s.segStart) {
			return "", false
		}
	}
	c.confirmItems(s, src, s.sc.pos, true) // a new item closes the one before
	if c.dead {
		c.reset()
		c.dead = true
		return "", false
	}
	end := s.segStart + len(tail)
	if len(c.items) < 2 {
		// One item so far: only worth it piece by piece.
		rows, ok, err := c.splitRows(s, src, 0, c.items[0], end)
		if err != nil {
			s.noteErr(err)
		}
		if !ok || err != nil {
			return "", false
		}
		return s.r.items.lead + rows + s.r.items.trail, true
	}
	c.out, c.err = "", nil
	last, later, err := c.update(s, src, len(c.items)-1, end, func(rest string, err error) {
		if c.err = err; err == nil {
			c.out = c.body.String() + rest
		}
	})
	if err != nil {
		s.noteErr(err)
		c.reset()
		return "", false
	}
	if later {
		s.listLater = true // View takes out or err after renderBlocks
		return "", true
	}
	return c.body.String() + last, true
}

// compose returns the fragment of src[start:end] built from the rendered
// items plus one render of the rest, for settling the list as a block. When
// the rest is a list's last item and more, its render is put off to the
// View's next renderBlocks (later is true) and done gets the fragment then.
func (c *listTail) compose(s *Stream, src string, start, end int, done func(string, error)) (out string, ok, later bool) {
	if !c.active || c.start != start || (c.done == 0 && c.split.item != 0) || c.items[c.done] >= end {
		return "", false, false
	}
	c.confirmItems(s, src, end, false)
	if c.items[len(c.items)-1] >= end {
		return "", false, false
	}
	if c.dead {
		// A list and more (confirmItems added no item): the rest is
		// rendered whole after the items done, with the frame's other
		// wrapped renders.
		c.dead = false
		rest := src[c.items[c.done]:end]
		body, part, cut := c.body.String(), rest, c.done > 0
		if cut {
			part = c.marker(c.done) + "\n" + rest
		}
		s.parts = append(s.parts, partJob{labels: labelsIn(rest), part: part, done: func(frag string, err error) {
			if err == nil && cut {
				lo := rowAfter(frag, 0)
				if lo < 0 || strings.Count(frag, itemMark) != 1 {
					err = errFraming
				} else {
					frag = frag[lo:]
				}
			}
			done(body+frag, err)
		}})
		return "", true, true
	}
	last, _, err := c.update(s, src, len(c.items)-1, end, nil)
	if err != nil {
		return "", false, false
	}
	return c.body.String() + last, true, false
}

// begin starts the fast path if the tail's first line is a list item.
func (c *listTail) begin(src string, start int) bool {
	c.reset()
	c.start = start
	nl := strings.IndexByte(src[start:], '\n')
	partial := nl < 0 // the item's own line: it is checked again as it grows
	if partial {
		nl = len(src) - start
	}
	cols, i := leadingSpaces(src[start : start+nl])
	line := src[start+i : start+nl]
	bullet, delim, num, ok := listMarker(line)
	if cols > 3 || !ok {
		c.dead = !partial
		return false
	}
	c.active, c.indent, c.bullet, c.delim, c.first = true, cols, bullet, delim, num
	c.items = append(c.items[:0], start)
	c.scanned = start + nl + 1
	if partial {
		c.scanned = start
	}
	return true
}

// confirmItems parses the list up to end (a line start) when a line before
// it may have started a new item, and records the confirmed item starts.
// With partial, the unfinished line after end counts too once it has begun
// an item for sure (itemBegun).
func (c *listTail) confirmItems(s *Stream, src string, end int, partial bool) {
	maybe := false
	for c.scanned < end {
		nl := strings.IndexByte(src[c.scanned:end], '\n')
		line := src[c.scanned : c.scanned+nl]
		if cols, i := leadingSpaces(line); cols == c.indent {
			if b, d, _, ok := listMarker(line[i:]); ok && b == c.bullet && d == c.delim {
				maybe = true
			}
		}
		c.scanned += nl + 1
	}
	if partial && end < len(src) && end > c.items[len(c.items)-1] && c.itemBegun(src[end:]) {
		maybe, end = true, len(src)
	}
	if !maybe {
		return
	}
	// Items before the last confirmed one are closed: parse from there.
	from := c.items[len(c.items)-1]
	doc := s.bp.p.Parse(text.NewReader([]byte(src[from:end])))
	list, ok := doc.FirstChild().(*ast.List)
	if !ok || list.NextSibling() != nil || list.FirstChild() == nil {
		c.dead = true // a list and more: a cut will settle it soon
		return
	}
	for it := list.FirstChild().NextSibling(); it != nil; it = it.NextSibling() {
		lo, _ := nodeSpan(it)
		if lo < 0 {
			break // an empty item: its start is unknown
		}
		at := from + strings.LastIndexByte(src[from:from+lo], '\n') + 1
		if at <= c.items[len(c.items)-1] {
			break
		}
		cols, i := leadingSpaces(src[at:end])
		nl := strings.IndexByte(src[at:end], '\n')
		if nl < 0 {
			nl = end - at // the unfinished line
		}
		if nl < i || cols != c.indent {
			break
		}
		b, d, _, ok := listMarker(src[at+i : at+nl])
		if !ok || b != c.bullet || d != c.delim {
			break
		}
		c.items = append(c.items, at)
	}
	if c.done >= len(c.items) {
		c.dead = true // an item already rendered is no longer confirmed
	}
}

// itemBegun reports whether line, the unfinished last line, begins an item
// of this list whatever follows: the list's marker at its indent, a space,
// then a character that keeps the line from becoming a thematic break.
func (c *listTail) itemBegun(line string) bool {
	cols, i := leadingSpaces(line)
	if cols != c.indent {
		return false
	}
	b, d, _, ok := listMarker(line[i:])
	if !ok || b != c.bullet || d != c.delim {
		return false
	}
	j := i + strings.IndexAny(line[i:], " \t")
	if j < i || line[j] != ' ' {
		return false
	}
	text := strings.TrimLeft(line[j:], " ")
	if text == "" || len(line)-len(text)-j > 4 {
		return false // no text yet, or indented code
	}
	return strings.Trim(text, " \t"+string(b)) != "" && text[0] != ' '
}

// update renders items [done, upto) into body and the rest (the last item
// and anything after it, up to end), and returns the rest's fragment bytes.
// An item rendered piece by piece goes into body without another render.
// For a bullet list one glamour call renders the batch and the rest, with a
// stand-in item between them; in an ordered list that stand-in would take a
// number from the rest, so there it takes two calls. Given later, a bullet
// list's call is put off to the View's next renderBlocks (Stream.parts):
// update returns true and later gets the rest's fragment bytes then.
func (c *listTail) update(s *Stream, src string, upto, end int, later func(string, error)) (string, bool, error) {
	if upto > c.done && c.split.item == c.done {
		rows, ok, err := c.splitRows(s, src, c.done, c.items[c.done], c.items[c.done+1])
		if err != nil {
			return "", false, err
		}
		if ok {
			if c.done == 0 {
				c.body.WriteString(s.r.items.lead)
			}
			c.body.WriteString(rows)
			c.done++
			c.lastKey, c.lastOut = "", ""
		}
	}
	if upto <= c.done {
		last, err := c.renderRest(s, src, end)
		return last, false, err
	}
	rest := src[c.items[upto]:end]
	withRest := c.bullet != 0
	chunk := src[c.items[c.done]:c.items[upto]]
	var b strings.Builder
	marks := 1
	if c.done > 0 {
		b.WriteString(c.marker(c.done) + "\n")
		marks++
	}
	b.WriteString(chunk)
	if !strings.HasSuffix(chunk, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(c.marker(upto) + "\n")
	labels := labelsIn(chunk)
	if withRest {
		b.WriteString(rest)
		labels = sortedUnique(append(labels, labelsIn(rest)...))
	}
	defs := s.defs.prefix(labels)
	if later != nil && withRest {
		s.parts = append(s.parts, partJob{labels: labels, part: b.String(), done: func(frag string, err error) {
			if err == nil {
				frag, err = c.takeBatch(frag, marks, upto)
			}
			later(frag, err)
		}})
		return "", true, nil
	}
	frag, err := s.r.block(defs, b.String())
	if err != nil {
		return "", false, err
	}
	rest, err = c.takeBatch(frag, marks, upto)
	if err != nil || withRest {
		return rest, false, err
	}
	last, err := c.renderRest(s, src, end)
	return last, false, err
}

// takeBatch moves the rows of items [done, upto) from frag, a render of
// them between marks stand-ins, into body, and returns the fragment bytes
// after the last stand-in.
func (c *listTail) takeBatch(frag string, marks, upto int) (string, error) {
	if strings.Count(frag, itemMark) != marks {
		return "", errFraming
	}
	lo := 0
	if c.done > 0 {
		lo = rowAfter(frag, 0)
	}
	hi := rowStart(frag, lo)
	after := rowAfter(frag, lo)
	if lo < 0 || hi < 0 || after < 0 {
		return "", errFraming
	}
	c.body.WriteString(frag[lo:hi])
	c.done = upto
	c.lastKey, c.lastOut = "", ""
	return frag[after:], nil
}

// renderRest returns the fragment bytes of src[items[done]:end], the last
// item and anything after it: piece by piece if the item qualifies, else
// rendered whole.
func (c *listTail) renderRest(s *Stream, src string, end int) (string, error) {
	rows, ok, err := c.splitRows(s, src, c.done, c.items[c.done], end)
	if err != nil {
		return "", err
	}
	if ok {
		lead := ""
		if c.done == 0 {
			lead = s.r.items.lead
		}
		return lead + rows + s.r.items.trail, nil
	}
	return c.renderLast(s, src[c.items[c.done]:end])
}

// renderLast renders rest (the last item and anything after it) in its
// place and returns its fragment bytes.
func (c *listTail) renderLast(s *Stream, rest string) (string, error) {
	defs := s.defs.prefix(labelsIn(rest))
	key := defs + "\x00" + rest
	if key == c.lastKey {
		return c.lastOut, nil
	}
	if c.done == 0 { // the whole list: no stand-in, the lead included
		frag, err := s.r.block(defs, rest)
		if err != nil {
			return "", err
		}
		c.lastKey, c.lastOut = key, frag
		return frag, nil
	}
	frag, err := s.r.block(defs, c.marker(c.done)+"\n"+rest)
	if err != nil {
		return "", err
	}
	lo := rowAfter(frag, 0)
	if lo < 0 || strings.Count(frag, itemMark) != 1 {
		return "", errFraming
	}
	c.lastKey, c.lastOut = key, frag[lo:]
	return c.lastOut, nil
}

// marker returns a stand-in item line placed just before item i: ordered
// stand-ins carry the number that makes item i keep its own.
func (c *listTail) marker(i int) string {
	pad := strings.Repeat(" ", c.indent)
	if c.bullet != 0 {
		return pad + string(c.bullet) + " " + itemMark
	}
	return pad + strconv.Itoa(c.first+i-1) + string(c.delim) + " " + itemMark
}

// reset drops the fast path state.
func (c *listTail) reset() {
	c.active, c.dead = false, false
	c.items = c.items[:0]
	c.done = 0
	c.body.Reset()
	c.lastKey, c.lastOut = "", ""
	c.split = itemSplit{item: -1}
}

// rowStart returns the start of the row holding the first itemMark at or
// after from, or -1.
func rowStart(frag string, from int) int {
	i := strings.Index(frag[from:], itemMark)
	if i < 0 {
		return -1
	}
	return strings.LastIndexByte(frag[:from+i], '\n') + 1
}

// rowAfter returns the offset just after the row holding the first itemMark
// at or after from, or -1.
func rowAfter(frag string, from int) int {
	i := strings.Index(frag[from:], itemMark)
	if i < 0 {
		return -1
	}
	nl := strings.IndexByte(frag[from+i:], '\n')
	if nl < 0 {
		return -1
	}
	return from + i + nl + 1
}
