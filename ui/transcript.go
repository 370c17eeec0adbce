package ui

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// wheelLines is how far one mouse wheel notch scrolls.
const wheelLines = 3

// Transcript is the scrollable list of entries above the composer.
//
// Every frame costs the same however long the session is: the scroll
// position is an anchor (an entry and a line within it), not a line number,
// so View, scrolling and following walk only the entries on screen and never
// the whole transcript. Rendered lines are cached per entry and width.
//
// Invariants:
//   - slots[i] holds entry i; a slot whose width differs from t.width is
//     stale and is re-read (lazily, when it comes on screen).
//   - entry i > 0 with lines is preceded by one blank separator line; its
//     span (lines it occupies) is len(lines)+1, entry 0's is len(lines).
//   - every cached line is at most t.width cells wide.
//   - follow: the bottom of the view is the end of the transcript, and
//     anchor/offset are ignored. Otherwise the top line of the view is line
//     offset of slot anchor's span, and unseen counts lines added below
//     since the user scrolled away from the bottom.
//   - mark is 0 or 1 + an entry's index: that entry's separator is drawn as
//     a short rule, and a bar in the first cell of its lines where that
//     cell is blank (no text is covered).
type Transcript struct {
	width, height int
	slots         []*slot // pointers: View fills stale caches through copies
	released      int     // slots below this were offered to releaseFar
	follow        bool
	anchor        int            // first visible slot when !follow
	offset        int            // line within the anchor's span when !follow
	unseen        int            // new lines below the view when !follow
	keys          KeyMap         // scrolling bindings
	hint          lipgloss.Style // the "↓ N new lines" line
	mark          markRange      // the cells the mouse selected (selection.go)
	marked        sgrPair        // the theme's selection style opened and closed (theme.Shell.Marked)
	navAt         int            // 1 + the entry navigation mode's cursor is on; 0: none
	markStyle     lipgloss.Style // the navigation mark's rule and bar
	memo          *viewMemo      // the last View (transcriptmemo.go); shared by copies, keyed by what View reads
}

// slot caches one entry's lines at one width.
type slot struct {
	e     Entry
	lines []string // the entry's rendered lines at width, each ≤ width cells
	raw   []string // the same lines as the entry rendered them (lines[k] is raw[k] fitted)
	width int      // the width lines were rendered at; 0: never rendered
	stale bool     // the entry changed since lines were read
	smap  [][]int  // lines' cells mapped to msrc (sourceMap), nil until a selection needs it
	msrc  string

	// a partsEntry's settled part as last read: its rows are raw[:settledRows],
	// the last of them starting at settledLast
	settled     string
	settledRows int
	settledLast int
}

// NewTranscript returns an empty transcript that follows new content.
func NewTranscript(width, height int) Transcript {
	return Transcript{width: max(width, 1), height: max(height, 1), follow: true, keys: DefaultKeyMap(), memo: &viewMemo{}}
}

// SetStyles applies the theme (the "↓ N new lines" hint, the mouse's
// selection, the navigation mark); nil is plain.
func (t *Transcript) SetStyles(st *theme.Styles) {
	t.hint, t.markStyle = theme.ShellOf(st).NewLines, theme.ShellOf(st).Prompt
	t.marked.on, t.marked.off, _ = strings.Cut(theme.ShellOf(st).Marked.Render("x"), "x") // styles once, not per row
	t.memo.bump()
}

// Width is the width entries are rendered at.
func (t Transcript) Width() int { return t.width }

// Height is the number of lines View returns.
func (t Transcript) Height() int { return t.height }

// Len is the number of entries.
func (t *Transcript) Len() int { return len(t.slots) }

// Append adds an entry at the end. While following, the view stays pinned to
// the end; otherwise it does not move and the new lines count as unseen.
func (t *Transcript) Append(e Entry) {
	s := &slot{e: e}
	t.slots = append(t.slots, s)
	t.memo.bump()
	t.releaseFar()
	if !t.follow {
		t.unseen += t.span(len(t.slots) - 1) // reads it: the count needs its lines
	}
	// while following, the entry is read when it comes on screen: appending
	// a thousand entries (a resumed session) renders only the last screenful
}

// keepEntries is how many entries at the end of the transcript keep their
// rendered lines whatever the view: the last few turns. One that is on
// screen and released anyway (many short entries) is read again on the
// next View, once. BenchmarkSessionMemory: 35 KB of heap kept per 10 KB
// answer with 16, 82 KB without releasing; 6 keeps the last three turns
// and holds 30 KB (in ../shared/bench, 30 answers: RSS 0.25 MB a turn
// with 16, 0.09 with 6 and SQLite's smaller page cache).
const keepEntries = 6

// releaser is an Entry that can drop renders it can build again.
type releaser interface{ release() }

// releaseFar drops the cached lines, and the entry's own renders, of the
// entries that fell keepEntries behind the end and are not on screen, so a
// long session holds its sources but not their styled renders. A released
// entry is read again when it comes on screen (scrolling up to it).
func (t *Transcript) releaseFar() {
	lo, hi := -1, -1 // the slots on screen when scrolled up
	if !t.follow {
		lo, hi = t.anchor, t.anchor+t.height
	}
	for ; t.released < len(t.slots)-keepEntries; t.released++ {
		i := t.released
		s := t.slots[i]
		if (i >= lo && i <= hi) || s.e.Live() {
			continue // on screen, or still changing: kept
		}
		s.lines, s.raw, s.width, s.stale, s.smap = nil, nil, 0, false, nil
		s.settled, s.settledRows = "", 0
		if r, ok := s.e.(releaser); ok {
			r.release()
		}
	}
}

// Invalidate re-reads entry i, which changed. Growth below the view counts
// as unseen while scrolled up. An index out of range is ignored.
func (t *Transcript) Invalidate(i int) {
	if i < 0 || i >= len(t.slots) {
		return
	}
	t.memo.bump()
	if t.follow || i < t.anchor {
		t.slots[i].stale = true // re-read when it next comes on screen
		return
	}
	before := t.span(i)
	t.refresh(i)
	t.unseen += max(t.span(i)-before, 0)
}

// InvalidateAll marks every entry stale (after a theme change, say): each is
// re-read when it next comes into view. The position does not move.
func (t *Transcript) InvalidateAll() {
	t.memo.bump()
	for _, s := range t.slots {
		s.width = 0
	}
}

// SetSize changes the view's size. A new width marks every entry stale; the
// live ones are re-read now (they are at the bottom, on screen), the settled
// ones when they next come into view.
func (t *Transcript) SetSize(width, height int) {
	width, height = max(width, 1), max(height, 1)
	t.height = height
	defer t.settle() // a taller view may reach the end
	if width == t.width {
		return
	}
	t.width = width
	t.memo.bump()
	for i, s := range t.slots {
		if s.e.Live() {
			t.refresh(i)
		}
	}
}

// Update scrolls: page and line keys, home/end, and the mouse wheel. The root
// decides which keys reach the transcript (up/down go to the composer's
// history unless the root routes them here).
func (t Transcript) Update(msg tea.Msg) (Transcript, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, t.keys.PageUp):
			t.scrollUp(t.page())
		case key.Matches(msg, t.keys.PageDown):
			t.scrollDown(t.page())
		case key.Matches(msg, t.keys.LineUp):
			t.scrollUp(1)
		case key.Matches(msg, t.keys.LineDown):
			t.scrollDown(1)
		case key.Matches(msg, t.keys.Top):
			t.follow, t.anchor, t.offset = false, 0, 0
			t.settle()
		case key.Matches(msg, t.keys.Bottom):
			t.follow, t.unseen = true, 0
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.scrollUp(wheelLines)
		case tea.MouseWheelDown:
			t.scrollDown(wheelLines)
		}
	}
	return t, nil
}

// View returns exactly height lines, each at most width cells wide. A
// View of the same state as the last one returns the same string, and
// costs a compare of its key (viewMemo).
func (t *Transcript) View() string {
	k := t.memo.keyOf(t)
	if out, ok := t.memo.get(k); ok {
		return out
	}
	a, off := t.top()
	rows := t.height
	showHint := !t.follow && t.unseen > 0
	if showHint {
		rows--
	}
	// the rows first, then one allocation of exactly their size: a frame
	// is a few KB, and a guess by the screen's size was several times that
	// every frame (a fifth of what a streaming answer allocated)
	var held [64]string
	lines := held[:0]
	size := 0
	for i := a; i < len(t.slots) && len(lines) < rows; i++ {
		s, sp := t.slot(i), t.span(i)
		for k := off; k < sp && len(lines) < rows; k++ {
			line := t.paintMark(t.line(s, i, k), i, k-min(i, 1))
			if t.navAt == i+1 {
				line = t.markLine(line, i > 0 && k == 0)
			}
			lines = append(lines, line)
			size += len(line)
		}
		off = 0
	}
	hint := ""
	if showHint {
		hint = t.hintLine()
	}
	var b strings.Builder
	b.Grow(size + max(rows-1, 0) + 1 + len(hint))
	for n := range rows {
		if n > 0 {
			b.WriteByte('\n')
		}
		if n < len(lines) {
			b.WriteString(lines[n])
		}
	}
	if showHint {
		if rows > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(hint)
	}
	return t.memo.put(k, b.String())
}

// hintLine is the "↓ N new lines" line, cut to the width. Its texts are
// single-cell runes, so their rune count is their width.
func (t *Transcript) hintLine() string {
	word := " new lines"
	if t.unseen == 1 {
		word = " new line"
	}
	room := t.width - t.hint.GetHorizontalFrameSize()
	n := "↓ " + strconv.Itoa(t.unseen)
	for _, s := range []string{n + word + " · end to follow", n + word, n} {
		if utf8.RuneCountInString(s) <= room {
			return t.hint.Render(s)
		}
	}
	return ansi.Truncate(t.hint.Render(n), t.width, "")
}

// page is how far pgup/pgdn scroll: a screen less one line of context.
func (t Transcript) page() int { return max(t.height-1, 1) }

// top returns the first visible line as (slot, line within its span).
func (t *Transcript) top() (int, int) {
	if t.follow {
		return t.bottomTop()
	}
	return t.anchor, t.offset
}

// bottomTop is the top of the view when the end of the transcript is at its
// bottom, or (0, 0) when everything fits. It walks back one screen.
func (t *Transcript) bottomTop() (int, int) {
	need := t.height
	for i := len(t.slots) - 1; i >= 0; i-- {
		sp := t.span(i)
		if sp >= need {
			return i, sp - need
		}
		need -= sp
	}
	return 0, 0
}

// scrollUp moves the view n lines towards the start.
func (t *Transcript) scrollUp(n int) {
	if t.follow {
		t.anchor, t.offset = t.bottomTop()
		t.follow, t.unseen = false, 0
	}
	t.offset -= n
	for t.offset < 0 && t.anchor > 0 {
		t.anchor--
		t.offset += t.span(t.anchor)
	}
	t.offset = max(t.offset, 0)
	t.settle()
}

// scrollDown moves the view n lines towards the end; reaching the end
// follows again.
func (t *Transcript) scrollDown(n int) {
	if t.follow {
		return
	}
	t.offset += n
	for t.anchor < len(t.slots)-1 && t.offset >= t.span(t.anchor) {
		t.offset -= t.span(t.anchor)
		t.anchor++
	}
	t.settle()
}

// settle resumes following when the view reaches (or passes) the end: that
// is when the lines from the anchor on fit in the view. It walks at most one
// screen of entries.
func (t *Transcript) settle() {
	if t.follow {
		return
	}
	left := -t.offset
	for i := t.anchor; i < len(t.slots); i++ {
		left += t.span(i)
		if left > t.height {
			return
		}
	}
	t.follow, t.unseen = true, 0
}

// slot returns slot i with its lines current at t.width.
func (t *Transcript) slot(i int) *slot {
	s := t.slots[i]
	if s.width != t.width || s.stale {
		s.read(t.width)
	}
	return s
}

// span is the number of lines slot i occupies, separator included.
func (t *Transcript) span(i int) int {
	n := len(t.slot(i).lines)
	if i > 0 && n > 0 {
		n++
	}
	return n
}

// line is line k of slot i's span: the separator or one of its lines.
func (t *Transcript) line(s *slot, i, k int) string {
	if i > 0 {
		if k == 0 {
			return ""
		}
		k--
	}
	return s.lines[k]
}

// refresh re-reads slot i at the current width.
func (t *Transcript) refresh(i int) { t.slots[i].read(t.width) }

// read renders the entry at width and caches its lines, tabs expanded and
// any line wider than width cut, so the view never wraps. A line the same
// as at the last read at this width is not fitted again: re-reading a
// streaming entry costs a compare per line, and the line slices are
// reused. Lines that need no fitting are the render's own (no copy). An
// entry that renders in parts (partsEntry) has the lines of its settled
// part read again only from where that part grew: a streaming answer's
// frame reads its tail, not the whole answer.
func (s *slot) read(width int) {
	if s.width != width {
		s.raw, s.lines, s.settled, s.settledRows = s.raw[:0], s.lines[:0], "", 0
	}
	s.width, s.stale, s.smap = width, false, nil
	if p, ok := s.e.(partsEntry); ok {
		settled, live := p.viewParts(width)
		from, at := 0, 0 // the first row to read, and where it starts in settled
		if s.settledRows > 0 && strings.HasPrefix(settled, s.settled) {
			from, at = s.settledRows-1, s.settledLast // its last row may go on
		}
		n := s.readRows(settled[at:], from, width)
		s.settled, s.settledRows, s.settledLast = settled, n, 0
		if n > 0 {
			s.settledLast = len(settled) - len(s.raw[n-1])
		}
		s.cut(s.readRows(live, n, width))
		return
	}
	s.settled, s.settledRows = "", 0
	s.cut(s.readRows(s.e.View(width), 0, width))
}

// readRows reads the rows of text (none for "") into raw and lines from
// row n on, and returns the row after the last.
func (s *slot) readRows(text string, n, width int) int {
	for rest, more := text, text != ""; more; n++ {
		var line string
		line, rest, more = strings.Cut(rest, "\n")
		fitted := line
		if n < len(s.raw) && s.raw[n] == line {
			if s.lines[n] != s.raw[n] {
				fitted = s.lines[n] // fitted before
			}
		} else {
			fitted = fitLine(line, width)
		}
		if n < len(s.raw) {
			s.raw[n], s.lines[n] = line, fitted // line: no old render is kept alive
		} else {
			s.raw, s.lines = append(s.raw, line), append(s.lines, fitted)
		}
	}
	return n
}

// cut drops the rows from n on, and forgets them: a row kept past the end
// of raw or lines would keep the whole render it came from alive (a long
// answer's pages, whose rows get fewer each time a page is sealed).
func (s *slot) cut(n int) {
	clear(s.raw[n:])
	clear(s.lines[n:])
	s.raw, s.lines = s.raw[:n], s.lines[:n]
}

// partsEntry is an Entry that renders in two parts (block.PartsRenderer):
// its lines are those of settled, then those of live, and settled only
// grows while the entry streams.
type partsEntry interface {
	viewParts(width int) (settled, live string)
}

// fitLine expands a line's tabs (a tab's width depends on the column) and
// cuts it to width cells.
func fitLine(line string, width int) string {
	if strings.IndexByte(line, '\t') >= 0 {
		line = strings.ReplaceAll(line, "\t", "    ")
	}
	if len(line) > width && ansi.StringWidth(line) > width { // bytes ≥ cells
		line = ansi.Truncate(line, width, "")
	}
	return line
}

// ScrollTo puts entry i at the top of the view (or follows, when everything
// from i on fits).
func (t *Transcript) ScrollTo(i int) {
	if i < 0 || i >= len(t.slots) {
		return
	}
	t.follow, t.anchor, t.offset, t.unseen = false, i, 0, 0
	t.settle()
}

// Follow jumps to the end and keeps following new content.
func (t *Transcript) Follow() { t.follow, t.unseen = true, 0 }

// layoutMsg is what the root lays out in the transcript (the items child
// hands it on): a height (with a width; 0 keeps its own width), styles, every
// entry drawn again (a new background or theme), the end followed again
// (a message sent).
type layoutMsg struct {
	width, height int
	styles        *theme.Styles
	invalidateAll bool
	follow        bool
}

// apply does what msg asks, in that order.
func (t *Transcript) apply(msg layoutMsg) {
	if msg.height > 0 {
		t.SetSize(cmp.Or(msg.width, t.width), msg.height)
	}
	if msg.styles != nil {
		t.SetStyles(msg.styles)
	}
	if msg.invalidateAll {
		t.InvalidateAll()
	}
	if msg.follow {
		t.Follow()
	}
}

// markLine is line l of the marked entry: its separator (sep) a rule, any
// other line with a bar in its first cell when that cell is a space.
func (t *Transcript) markLine(l string, sep bool) string {
	if sep {
		return t.markStyle.Render("▼" + strings.Repeat("─", max(min(t.width, 40)-1, 0)))
	}
	if l == "" || strings.HasPrefix(ansi.Strip(l), " ") {
		return t.markStyle.Render("▌") + ansi.TruncateLeft(l, 1, "")
	}
	return l
}

// Mark draws a bar beside entry i (navigation mode's cursor); -1 clears it.
func (t *Transcript) Mark(i int) { t.navAt = max(i+1, 0) }

// Reveal scrolls as little as it takes to show entry i whole: to its top
// when it starts above the view, far below it (a screen or more past the
// bottom), or is taller than the view; else until its end is at the
// bottom. It walks at most two screens of entries.
func (t *Transcript) Reveal(i int) {
	if i < 0 || i >= len(t.slots) {
		return
	}
	a, off := t.top()
	if i < a || (i == a && off > 0) {
		t.ScrollTo(i)
		return
	}
	start := -off
	for j := a; j < i; j++ {
		if start += t.span(j); start >= 2*t.height {
			t.ScrollTo(i)
			return
		}
	}
	end := start + t.span(i)
	switch {
	case end <= t.height:
	case t.span(i) >= t.height:
		t.ScrollTo(i)
	default:
		if t.follow {
			return // the end is at the bottom already
		}
		t.scrollDown(end - t.height)
	}
}

// blankAfter reports whether every entry after entry i draws nothing now.
func (t *Transcript) blankAfter(i int) bool {
	for j := i + 1; j < t.Len(); j++ {
		if t.slots[j].e.View(t.Width()) != "" {
			return false
		}
	}
	return true
}

// drawn is the first entry from i on in direction dir that draws lines,
// or -1.
func (t *Transcript) drawn(i, dir int) int {
	for ; i >= 0 && i < t.Len(); i += dir {
		if len(t.slot(i).lines) > 0 {
			return i
		}
	}
	return -1
}

// blockText is what y copies of entry i: an answer's markdown source, or
// the block's lines as shown, without styles, trailing spaces or the
// indentation every line shares.
func (t *Transcript) blockText(i int) string {
	if i < 0 || i >= t.Len() {
		return ""
	}
	e := t.slots[i].e
	if ie, ok := e.(*itemEntry); ok && ie.it != nil && ie.it.Type == "message" {
		if t := ie.it.Text(); t != "" {
			return t
		}
	}
	lines := t.slot(i).lines
	out := make([]string, len(lines))
	indent := -1
	for k, l := range lines {
		out[k] = strings.TrimRight(ansi.Strip(l), " ")
		if t := strings.TrimLeft(out[k], " "); t != "" {
			if d := len(out[k]) - len(t); indent < 0 || d < indent {
				indent = d
			}
		}
	}
	for k, l := range out {
		if len(l) >= indent && indent > 0 {
			out[k] = l[indent:]
		}
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// sgrPair is a style's opening and closing escape sequences.
type sgrPair struct{ on, off string }
