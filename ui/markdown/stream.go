package markdown

import (
	"strings"
)

// Stream renders one growing message incrementally.
//
// The message is split into a settled prefix, a list of blocks each rendered
// once, and an unsettled tail re-rendered on every View that follows an
// Append. A cut is proposed by a cheap line scanner (blank lines outside
// fences, holding after lists; fence openers) and confirmed by a goldmark
// parse before anything is settled, so the pieced rows match a whole render.
// A tail that is an open fence at column 0 is rendered line by line
// (codeTail), so a long code block costs the same per frame as a short one.
//
// Stream is not safe for concurrent use; it belongs to the UI goroutine.
// Errors from glamour leave the block as plain source text and are kept in
// Err.
//
// Invariants:
//   - src only grows; sc.pos <= len(src); segStart <= sc.pos.
//   - blocks cover src[:segStart] in order, without gaps.
//   - settled is the concatenation of every block's fragment whenever
//     settledOK.
//   - view is the output for src as it is whenever viewOK.
type Stream struct {
	r   *Renderer
	src strings.Builder

	sc       scanner
	bp       blockParser
	defs     refDefs
	segStart int // start of the unsettled tail

	blocks    []block
	settled   string // the blocks' fragments, concatenated
	settledOK bool

	tail tailCache
	code codeTail
	list listTail

	view   string
	viewOK bool
	err    error // first render error, sticky
}

// block is a settled part of the message: whole top-level markdown blocks.
type block struct {
	start, end int      // byte range in src
	labels     []string // reference labels the block may use, sorted
	defsKey    string   // definitions prefixed when out was rendered
	out        string   // fragment (see Renderer.block)
	ok         bool     // out is current for the Stream's renderer
}

// tailCache remembers the last tail render, to skip unchanged frames and to
// reuse it when the tail settles unchanged.
type tailCache struct {
	src     string // tail source without trailing blank lines
	defsKey string
	out     string
	ok      bool
}

// NewStream starts an empty message rendered with r.
func NewStream(r *Renderer) *Stream {
	return &Stream{r: r, sc: newScanner(), bp: newBlockParser()}
}

// Append adds a delta to the message. It does no rendering.
func (s *Stream) Append(delta string) {
	if delta == "" {
		return
	}
	s.src.WriteString(delta)
	s.viewOK = false
}

// Source returns the message so far.
func (s *Stream) Source() string { return s.src.String() }

// Renderer returns the renderer in use.
func (s *Stream) Renderer() *Renderer { return s.r }

// Err returns the first render error, if any. The block that failed is shown
// as plain text.
func (s *Stream) Err() error { return s.err }

// SetRenderer switches to r (after a resize or a theme change). Every block
// is re-rendered on the next View; the cuts stay, they do not depend on
// width or style.
func (s *Stream) SetRenderer(r *Renderer) {
	if r == s.r {
		return
	}
	s.r = r
	for i := range s.blocks {
		s.blocks[i].ok = false
	}
	s.settledOK = false
	s.tail = tailCache{}
	s.code.reset()
	s.list.reset()
	s.viewOK = false
}

// Finish returns the whole-message render to run once the message is
// complete, off the UI goroutine (in a tea.Cmd); its result replaces View.
// The two have the same visible text.
func (s *Stream) Finish() func() (string, error) {
	r, src := s.r, s.Source()
	return func() (string, error) { return r.Render(src) }
}

// View renders what changed since the last call and returns the whole
// message rendered (see Renderer for the output contract).
func (s *Stream) View() string {
	if s.viewOK {
		return s.view
	}
	src := s.src.String()
	s.advance(src)
	s.refreshBlocks(src)
	tail := s.renderTail(src)
	s.view = assemble(s.settled, tail)
	s.viewOK = true
	return s.view
}

// advance scans new lines, collects definitions and settles every confirmed
// block.
func (s *Stream) advance(src string) {
	s.sc.scan(src, s.segStart)
	var changed []string
	for _, d := range s.sc.defsFound {
		if s.defs.add(d) {
			changed = append(changed, d.label)
		}
	}
	s.sc.defsFound = s.sc.defsFound[:0]

	s.markDefsChanged(changed)

	partialAt := s.sc.pos
	partial := src[partialAt:]
	cands := s.sc.cands
	if p, ok := s.sc.pendingCut(partial, partialAt, s.segStart); ok {
		cands = append(cands[:len(cands):len(cands)], p)
		s.sc.newCands = true
	}
	if !s.sc.newCands || len(cands) == 0 {
		return
	}
	s.sc.newCands = false
	cut := s.bp.lastCut(src, s.segStart, cands)
	if cut < 0 {
		return
	}
	s.settle(src, cut)
	s.sc.dropCands(cut)
}

// settle makes src[segStart:cut] a block.
func (s *Stream) settle(src string, cut int) {
	b := block{start: s.segStart, end: cut, labels: labelsIn(src[s.segStart:cut])}
	b.defsKey = s.defs.prefix(b.labels)
	if t := &s.tail; t.ok && t.defsKey == b.defsKey && t.src == trimBlankLines(src[b.start:b.end]) {
		b.out, b.ok = t.out, true
	} else if out, ok := s.list.compose(s, src, b.start, b.end); ok {
		b.out, b.ok = out, true
	} else {
		b.out, b.ok = s.render(b.defsKey, src[b.start:b.end]), true
	}
	s.blocks = append(s.blocks, b)
	if s.settledOK {
		s.settled += b.out
	}
	s.segStart = cut
	s.tail = tailCache{}
	s.code.reset()
	s.list.reset()
}

// markDefsChanged flags the blocks that use a label whose definition changed.
func (s *Stream) markDefsChanged(changed []string) {
	if len(changed) == 0 {
		return
	}
	s.list.reset() // its items were rendered with the old definitions
	s.tail = tailCache{}
	for i := range s.blocks {
		if b := &s.blocks[i]; b.ok && usesAny(b.labels, changed) {
			if s.defs.prefix(b.labels) != b.defsKey {
				b.ok = false
				s.settledOK = false
			}
		}
	}
}

// refreshBlocks re-renders the blocks that are out of date and rebuilds the
// settled rows if needed.
func (s *Stream) refreshBlocks(src string) {
	if s.settledOK {
		return
	}
	var all strings.Builder
	for i := range s.blocks {
		b := &s.blocks[i]
		if !b.ok {
			b.defsKey = s.defs.prefix(b.labels)
			b.out, b.ok = s.render(b.defsKey, src[b.start:b.end]), true
		}
		all.WriteString(b.out)
	}
	s.settled, s.settledOK = all.String(), true
}

// renderTail returns the fragment of src[segStart:].
func (s *Stream) renderTail(src string) string {
	if out, ok := s.code.render(s, src); ok {
		return out
	}
	tail := src[s.segStart:]
	if s.partialDef(src) {
		tail = tail[:len(tail)-(len(src)-s.sc.pos)]
	}
	if out, ok := s.list.render(s, src, tail); ok {
		return out
	}
	key := s.defs.prefix(labelsIn(tail))
	trimmed := trimBlankLines(tail)
	if s.tail.ok && s.tail.src == trimmed && s.tail.defsKey == key {
		return s.tail.out
	}
	out := s.render(key, tail)
	s.tail = tailCache{src: trimmed, defsKey: key, out: out, ok: true}
	return out
}

// partialDef reports whether the unfinished last line is a reference
// definition. Such a line is left out of the render until it is complete,
// so links do not flicker through partial URLs. This is the one visible
// difference from a whole render of the same prefix, which would already
// resolve links with the partial URL.
func (s *Stream) partialDef(src string) bool {
	if s.sc.fence.ch != 0 || !s.sc.defContext() || s.sc.pos >= len(src) {
		return false
	}
	_, ok := parseDef(src[s.sc.pos:])
	return ok
}

// render renders one block, falling back to its plain source on error.
func (s *Stream) render(defs, src string) string {
	out, err := s.r.block(defs, src)
	if err != nil {
		s.noteErr(err)
		return plainFragment(src)
	}
	return out
}

// noteErr keeps the first render error.
func (s *Stream) noteErr(err error) {
	if s.err == nil {
		s.err = err
	}
}

// assemble joins the settled fragments and the tail's and drops blank rows
// at both ends.
func assemble(settled, tail string) string {
	settled = strings.TrimLeft(settled, "\n")
	if settled == "" {
		return strings.Trim(tail, "\n")
	}
	tail = strings.TrimRight(tail, "\n")
	if tail == "" {
		return strings.TrimRight(settled, "\n")
	}
	return settled + tail
}

// trimBlankLines drops trailing whitespace and blank lines, which never
// change the rows of complete blocks and only add blank rows at the end of
// an open one (assemble drops those).
func trimBlankLines(src string) string {
	return strings.TrimRight(src, " \t\r\n")
}
