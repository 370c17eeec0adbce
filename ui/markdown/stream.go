package markdown

import (
	"strings"
)

// Stream renders one growing message incrementally.
//
// The message is split into settled blocks, each rendered once (blocks.go),
// and an unsettled tail rendered again on every View that follows an Append
// (tail.go). A cut is proposed by a cheap line scanner (scan.go) and
// confirmed by a goldmark parse (structure.go) before anything settles, so
// the pieced output matches a whole render. A tail that is a code fence
// (codetail.go), a list (listtail.go) or a one-line paragraph (paratail.go)
// has a fast path that renders only its last line, item or words per frame,
// so a long one costs about the same per frame as a short one.
//
// A glamour call costs about as much as a short paragraph's text, so View
// gathers its renders (batch.go): the paragraph pieces of the block that
// settles and of the tail go in one unwrapped call at the end, and blocks
// that need rendering, a settling list's rest, a bullet list's closed items
// and a tail without a fast path go in one wrapped call.
//
// Stream is not safe for concurrent use; it belongs to the UI goroutine.
// Errors from glamour leave the block as plain source text and are kept in
// Err.
//
// Invariants:
//   - src only grows; segStart <= sc.pos <= len(src).
//   - blocks cover src[:segStart] in order, without gaps.
//   - view is the output for src as it is whenever viewOK.
type Stream struct {
	r   *Renderer
	src strings.Builder

	sc       scanner
	bp       blockParser
	defs     refDefs
	segStart int // start of the unsettled tail

	blocks blocks
	tail   tailCache
	code   codeTail
	list   listTail
	para   paraTail

	// Renders put off within one View (batch.go); empty between Views.
	lines     lineBatch // unwrapped, done by flushLines
	parts     []partJob // wrapped, done by the next renderBlocks
	listLater bool      // the list fast path's fragment comes from renderBlocks

	view   string
	viewOK bool
	err    error // first render error, sticky

	stats renderStats
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
// is rendered again on the next View; the cuts stay, they depend on neither
// width nor style.
func (s *Stream) SetRenderer(r *Renderer) {
	if r == s.r {
		return
	}
	s.r = r
	s.blocks.invalidateAll()
	s.tail = tailCache{}
	s.code.reset()
	s.list.reset()
	s.para.reset()
	s.viewOK = false
}

// Finish returns the whole-message render to run once the message is
// complete, off the UI goroutine (in a tea.Cmd); its result replaces View.
// The two show the same text.
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
	c := s.r.counter()
	s.advance(src)
	c = s.note(pathSettle, c)
	tail, path := s.renderTail(src)
	s.flushLines()
	if path == pathPara {
		if tail, path = s.para.out, pathPara; s.para.err != nil {
			s.noteErr(s.para.err)
			s.para.reset()
			tail, path = s.renderWhole(src, s.tailSource(src))
		}
	}
	c = s.note(path, c)
	s.renderBlocks(src, nil) // any the tail render did not take along
	if s.listLater {
		s.listLater = false
		if tail = s.list.out; s.list.err != nil {
			s.noteErr(s.list.err)
			s.list.reset()
			tail, _ = s.renderWhole(src, s.tailSource(src))
		}
	}
	if len(s.blocks.stale()) > 0 {
		s.renderBlocks(src, nil) // blocks whose put-off render failed
	}
	s.note(pathBlocks, c)
	s.view = assemble(s.blocks.joined(), tail)
	s.viewOK = true
	return s.view
}

// advance scans new lines, collects definitions and settles every confirmed
// block (rendering is left to renderTail and renderBlocks).
func (s *Stream) advance(src string) {
	s.sc.scan(src, s.segStart)
	var changed []string
	for _, d := range s.sc.defsFound {
		if s.defs.add(d) {
			changed = append(changed, d.label)
		}
	}
	s.sc.defsFound = s.sc.defsFound[:0]
	if len(changed) > 0 {
		s.blocks.defsChanged(changed, &s.defs)
		s.list.reset() // its items were rendered with the old definitions
		s.para.reset()
	}

	cands := s.sc.cands
	if p, ok := s.sc.pendingCut(src[s.sc.pos:], s.sc.pos, s.segStart); ok {
		cands = append(cands[:len(cands):len(cands)], p)
		s.sc.newCands = true
	}
	if !s.sc.newCands || len(cands) == 0 {
		return
	}
	s.sc.newCands = false
	cuts := s.bp.cuts(src, s.segStart, cands)
	if len(cuts) == 0 {
		return
	}
	last := cuts[len(cuts)-1]
	if len(cuts) > 1 && s.para.holds(s, src, cuts[0]) {
		// The paragraph has a rendered prefix: settle it on its own so
		// only its last words are rendered, not the whole of it again.
		s.settle(src, cuts[0])
	}
	s.settle(src, last)
	s.sc.dropCands(last)
}

// settle makes src[segStart:cut] a block, reusing a render of it if the
// tail or list fast path has one.
func (s *Stream) settle(src string, cut int) {
	b := block{start: s.segStart, end: cut, labels: labelsIn(src[s.segStart:cut])}
	b.defsKey = s.defs.prefix(b.labels)
	if t := &s.tail; t.ok && t.defsKey == b.defsKey && t.src == trimBlankLines(src[b.start:b.end]) {
		b.out, b.ok = t.out, true
	} else if out, ok := s.code.compose(s, src, b.start, b.end); ok {
		b.out, b.ok = out, true
	} else {
		i := len(s.blocks.list)
		done := func(out string, err error) {
			b := &s.blocks.list[i]
			b.pending = false
			if err == nil {
				b.out, b.ok = out, true
			} // else it is rendered whole with the other stale blocks
		}
		if out, ok, later := s.list.compose(s, src, b.start, b.end, done); ok {
			b.out, b.ok, b.pending = out, !later, later
		} else {
			b.pending = s.para.compose(s, src, b.start, b.end, done)
		}
	}
	s.blocks.add(b)
	s.segStart = cut
	s.tail = tailCache{}
	s.code.reset()
	s.list.reset()
	s.para.reset()
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

// trimBlankLines drops trailing blank lines (and the newline before them),
// which never change the fragment of complete blocks and only add blank rows
// at the end of an open one (assemble drops those). Trailing spaces on the
// last line with text stay: "- " is a list item where "-" is not.
func trimBlankLines(src string) string {
	for {
		i := strings.LastIndexByte(src, '\n')
		if !isBlank(src[i+1:]) {
			return src
		}
		if i < 0 {
			return ""
		}
		src = src[:i]
	}
}
