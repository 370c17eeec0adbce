package ui

// This file is the transcript's mouse: a click opens or closes a panel or
// a thought, or copies the code block under it; a drag selects across
// entries and copies the markdown source of what it covers (ui/markdown
// SourceMap maps the screen cells back to it), a double click a word, a
// triple click a paragraph. The mouse can be handed to the terminal and
// taken back (mouseToggle).

import (
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/ui/block"
	"runnel/ui/markdown"
)

// multiClick is how soon a press on the same cell counts as the next
// click of a double or triple click.
const multiClick = 500 * time.Millisecond

// cellPos is a cell of the transcript: slot i, row k of its lines, cell
// col. col -1 is before the row (the separator line above an entry).
type cellPos struct{ i, k, col int }

func (a cellPos) before(b cellPos) bool {
	if a.i != b.i {
		return a.i < b.i
	}
	if a.k != b.k {
		return a.k < b.k
	}
	return a.col < b.col
}

// markRange is the selected cells, from ≤ to, both included.
type markRange struct {
	on       bool
	from, to cellPos
}

// ordered is the range between two cells, in either order.
func ordered(a, b cellPos) markRange {
	if b.before(a) {
		a, b = b, a
	}
	return markRange{on: true, from: a, to: b}
}

// selection is the mouse's state in the transcript.
//
// Invariants: down is true between a left press on the transcript and its
// release; moved once the held button left its cell (a drag, not a click);
// clicks counts presses on the same cell each within multiClick of the
// one before (1 a click, 2 a word, 3 a paragraph); off means the mouse is
// not captured (the terminal selects) and nothing else here changes.
type selection struct {
	off    bool
	down   bool
	moved  bool
	anchor cellPos
	last   time.Time // the last press, on the frame clock
	clicks int
}

// mouseModeMsg reports that the mouse was handed to the terminal (off) or
// taken back, for the status line.
type mouseModeMsg struct{ off bool }

// mouseToggle hands the mouse to the terminal, or takes it back, and says
// which mode is on.
func (c *items) mouseToggle() {
	c.sel = selection{off: !c.sel.off}
	c.transcript.mark = markRange{}
	c.fs.post(mouseModeMsg{off: c.sel.off})
	if c.sel.off {
		c.notice(block.Info, "mouse off: the terminal selects and copies the screen; f2 takes the mouse back")
	} else {
		c.notice(block.Info, "mouse on: drag copies the markdown source, double-click a word, triple-click a paragraph; f2 hands it to the terminal")
	}
}

// mouse takes a press, a drag or a release on the screen. shown reports
// that the transcript is what the screen shows (no dialog or help).
func (c *items) mouse(msg tea.Msg, shown bool) tea.Cmd {
	if c.sel.off || !shown {
		return nil
	}
	t := &c.transcript
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft {
			return nil
		}
		p, ok := t.cellAt(msg.X, msg.Y)
		if !ok {
			c.sel.down, t.mark = false, markRange{}
			return nil
		}
		now := c.fs.clock()
		if c.sel.clicks > 0 && c.sel.clicks < 3 && p == c.sel.anchor && now.Sub(c.sel.last) <= multiClick {
			c.sel.clicks++
		} else {
			c.sel.clicks = 1
		}
		c.sel.last, c.sel.anchor, c.sel.down, c.sel.moved = now, p, true, false
		switch c.sel.clicks {
		case 2:
			t.mark = t.wordAt(p)
			return c.copyMark()
		case 3:
			t.mark = t.paragraphAt(p)
			return c.copyMark()
		}
		t.mark = markRange{}
	case tea.MouseMotionMsg:
		if !c.sel.down || c.sel.clicks != 1 {
			return nil
		}
		switch { // a drag at an edge scrolls a line, for a selection longer than the screen
		case msg.Y <= 0:
			t.scrollUp(1)
		case msg.Y >= t.shownRows():
			t.scrollDown(1)
		}
		p := t.cellNear(msg.X, msg.Y)
		if p != c.sel.anchor {
			c.sel.moved = true
		}
		if c.sel.moved {
			t.mark = ordered(c.sel.anchor, p)
		}
	case tea.MouseReleaseMsg:
		if !c.sel.down {
			return nil
		}
		c.sel.down = false
		switch {
		case c.sel.clicks != 1:
		case c.sel.moved:
			return c.copyMark()
		default:
			return c.click(c.sel.anchor)
		}
	}
	return nil
}

// copyMark copies the source of the selected cells.
func (c *items) copyMark() tea.Cmd {
	if !c.transcript.mark.on {
		return nil
	}
	return mouseCopy(c.fs, c.transcript.markedText())
}

// mouseCopy is the frame's copy (cleaned, OSC 52): its hint takes the key
// hint's line, so the transcript never moves under the mouse.
func mouseCopy(f *frameState, text string) tea.Cmd { return f.copy(text) }

// click opens or closes the panel or thought whose header is at p, or
// copies the code block at p.
func (c *items) click(p cellPos) tea.Cmd {
	s := c.transcript.slot(p.i)
	if e, ok := s.e.(*itemEntry); ok {
		if _, ok := e.b.(block.Expander); ok && !hidden(e) && p.k == headerRow(s.lines) {
			c.toggle(e)
			return nil
		}
	}
	src := sourceOf(s.e)
	if src == "" {
		return nil
	}
	off := nearest(s.sourceMap(src), p.k, p.col)
	if code, ok := codeAt(src, off); ok {
		c.transcript.mark = c.transcript.rowsOf(p, func(o int) bool { _, in := codeAt(src, o); return in && o >= 0 })
		return mouseCopy(c.fs, code)
	}
	return nil
}

// headerRow is the first row with a letter or digit: a panel's title sits
// below its border.
func headerRow(lines []string) int {
	for k, l := range lines {
		if strings.IndexFunc(ansi.Strip(l), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return k
		}
	}
	return 0
}

// nearest is the source offset of cell (k, col), or of the nearest mapped
// cell of row k, or -1.
func nearest(m [][]int, k, col int) int {
	if k < 0 || k >= len(m) {
		return -1
	}
	row := m[k]
	for d := 0; d < len(row); d++ {
		for _, c := range []int{col + d, col - d} {
			if c >= 0 && c < len(row) && row[c] >= 0 {
				return row[c]
			}
		}
	}
	return -1
}

// codeAt is the fenced code block whose body holds source offset off, as
// /copy N copies it (CodeBlocks).
func codeAt(src string, off int) (string, bool) {
	if off < 0 {
		return "", false
	}
	open, body, fence := -1, 0, ""
	for at := 0; at < len(src); {
		end := strings.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		trimmed := strings.TrimLeft(strings.TrimSuffix(src[at:end], "\r"), " \t")
		run := fenceRun(trimmed)
		switch {
		case open < 0 && run != "" && !(run[0] == '`' && strings.Contains(trimmed[len(run):], "`")):
			open, body, fence = at, end+1, run
		case open >= 0 && run != "" && run[0] == fence[0] && len(run) >= len(fence) && strings.TrimSpace(trimmed[len(run):]) == "":
			if off >= body && off < at {
				return CodeBlocks(src[open:end])[0], true
			}
			open = -1
		}
		at = end + 1
	}
	if open >= 0 && off >= body {
		return CodeBlocks(src[open:])[0], true
	}
	return "", false
}

// sourceOf is the text an entry's rows are drawn from, or "".
func sourceOf(e Entry) string {
	var b block.Block
	switch e := e.(type) {
	case *itemEntry:
		b = e.b
	case *plainEntry:
		b = e.b
	}
	if s, ok := b.(block.Sourced); ok {
		return s.Source()
	}
	return ""
}

// sourceMap is the map of the slot's lines to src, built once per render.
func (s *slot) sourceMap(src string) [][]int {
	if s.smap == nil || s.msrc != src {
		s.smap, s.msrc = markdown.SourceMap(src, s.lines), src
	}
	return s.smap
}

// cellAt is the transcript cell at screen cell (x, y); false for a
// separator, the hint line or below the last line.
func (t *Transcript) cellAt(x, y int) (cellPos, bool) {
	p, ok := t.rowAt(y)
	if !ok || p.col < 0 {
		return cellPos{}, false
	}
	p.col = min(max(x, 0), t.width-1)
	return p, true
}

// cellNear is the cell a drag at (x, y) reaches: rows above or below the
// view clamp to its first or last row.
func (t *Transcript) cellNear(x, y int) cellPos {
	rows := t.shownRows()
	y = min(max(y, 0), max(rows-1, 0))
	p, ok := t.rowAt(y)
	for !ok && y > 0 { // below the last line
		y--
		p, ok = t.rowAt(y)
	}
	if p.col >= 0 {
		p.col = min(max(x, 0), t.width-1)
	}
	return p
}

// shownRows is the number of transcript rows View draws (the hint aside).
func (t *Transcript) shownRows() int {
	if !t.follow && t.unseen > 0 {
		return t.height - 1
	}
	return t.height
}

// rowAt is the slot and row at screen row y, walking from the top as View
// does; a separator is (i, 0, -1).
func (t *Transcript) rowAt(y int) (cellPos, bool) {
	if y < 0 || y >= t.shownRows() {
		return cellPos{}, false
	}
	a, off := t.top()
	n := 0
	for i := a; i < len(t.slots); i++ {
		sp := t.span(i)
		for k := off; k < sp; k++ {
			if n == y {
				if i > 0 {
					if k == 0 {
						return cellPos{i, 0, -1}, true
					}
					k--
				}
				return cellPos{i, k, 0}, true
			}
			n++
		}
		off = 0
	}
	return cellPos{}, false
}

// wordAt is the word under p on its row: letters, digits and '_'.
func (t *Transcript) wordAt(p cellPos) markRange {
	cells := plainCells(t.slot(p.i).lines[p.k])
	word := func(c int) bool {
		return c >= 0 && c < len(cells) && (unicode.IsLetter(cells[c]) || unicode.IsDigit(cells[c]) || cells[c] == '_')
	}
	if !word(p.col) {
		return markRange{}
	}
	a, b := p.col, p.col
	for word(a - 1) {
		a--
	}
	for word(b + 1) {
		b++
	}
	return markRange{on: true, from: cellPos{p.i, p.k, a}, to: cellPos{p.i, p.k, b}}
}

// paragraphAt is the run of non-blank rows of p's entry around p.
func (t *Transcript) paragraphAt(p cellPos) markRange {
	lines := t.slot(p.i).lines
	blank := func(k int) bool { return strings.TrimSpace(ansi.Strip(lines[k])) == "" }
	if blank(p.k) {
		return markRange{}
	}
	a, b := p.k, p.k
	for a > 0 && !blank(a-1) {
		a--
	}
	for b < len(lines)-1 && !blank(b+1) {
		b++
	}
	return markRange{on: true, from: cellPos{p.i, a, 0}, to: cellPos{p.i, b, t.width}}
}

// rowsOf marks the rows of p's entry around p whose cells map to offsets
// in (in: a code block).
func (t *Transcript) rowsOf(p cellPos, in func(off int) bool) markRange {
	s := t.slot(p.i)
	m := s.sourceMap(sourceOf(s.e))
	has := func(k int) bool { return k >= 0 && k < len(m) && in(nearest(m, k, 0)) }
	a, b := p.k, p.k
	for has(a - 1) {
		a--
	}
	for has(b + 1) {
		b++
	}
	return markRange{on: true, from: cellPos{p.i, a, 0}, to: cellPos{p.i, b, t.width}}
}

// plainCells is a row's runes by cell (a wide rune fills two).
func plainCells(row string) []rune {
	var cells []rune
	for _, r := range ansi.Strip(row) {
		for range max(ansi.StringWidth(string(r)), 0) {
			cells = append(cells, r)
		}
	}
	return cells
}

// markedText is what the selection copies: for each entry it covers, the
// source of the cells (an answer's markdown, a prompt's text), or the
// text shown (panels, notices); entries apart by a blank line.
func (t *Transcript) markedText() string {
	m := t.mark
	var parts []string
	for i := m.from.i; i <= m.to.i && i < len(t.slots); i++ {
		s := t.slot(i)
		if len(s.lines) == 0 {
			continue
		}
		r0, c0, r1, c1 := 0, 0, len(s.lines)-1, t.width
		if i == m.from.i {
			r0, c0 = m.from.k, m.from.col
		}
		if i == m.to.i {
			r1, c1 = m.to.k, m.to.col
		}
		if src := sourceOf(s.e); src != "" {
			if a, b, ok := markdown.Span(src, s.sourceMap(src), r0, c0, r1, c1); ok {
				parts = append(parts, src[a:b])
			}
			continue
		}
		var rows []string
		for k := r0; k <= r1 && k < len(s.lines); k++ {
			a, b := 0, t.width
			if k == r0 {
				a = max(c0, 0)
			}
			if k == r1 {
				b = c1 + 1
			}
			rows = append(rows, strings.TrimRight(ansi.Strip(ansi.Cut(s.lines[k], a, b)), " "))
		}
		if txt := strings.Trim(strings.Join(rows, "\n"), "\n"); txt != "" {
			parts = append(parts, txt)
		}
	}
	return strings.Join(parts, "\n\n")
}

// paintMark draws row k of slot i with its selected cells highlighted.
func (t *Transcript) paintMark(line string, i, k int) string {
	m := t.mark
	if !m.on || i < m.from.i || i > m.to.i || (i == m.from.i && k < m.from.k) || (i == m.to.i && k > m.to.k) {
		return line
	}
	a, b := 0, t.width
	if i == m.from.i && k == m.from.k {
		a = max(m.from.col, 0)
	}
	if i == m.to.i && k == m.to.k {
		b = m.to.col + 1
	}
	if a == 0 && b >= t.width { // the whole row: no width to measure
		return t.marked.on + ansi.Strip(line) + t.marked.off
	}
	w := ansi.StringWidth(line)
	b = min(b, w)
	switch {
	case b <= a:
		return line
	case a == 0 && b == w:
		return t.marked.on + ansi.Strip(line) + t.marked.off
	}
	return ansi.Cut(line, 0, a) + t.marked.on + ansi.Strip(ansi.Cut(line, a, b)) + t.marked.off + ansi.Cut(line, b, w)
}
