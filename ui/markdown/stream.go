package markdown

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
)

// Stream renders one growing message incrementally (see the package doc).
//
// Each View parses the unsettled tail with goldmark and settles the
// top-level blocks that no later text can change (settleable), each
// rendered once from that parse; the last block is rendered on every View,
// and the one before it, when it waits for the last one's first line, once
// for each place it ends, which its settling reuses (waiting.go); a list's
// complete items are rendered once (items.go). A Parts with no new text since the
// last returns the last parts (viewOK), but after a Draft.
// Reference definitions are shared: the definitions of settled blocks and
// of the tail are given to every parse, and when they change, the settled
// blocks that mention a changed label are rendered again.
//
// Stream is not safe for concurrent use; it belongs to the UI goroutine.
// Invariants:
//   - src only grows; blocks cover src[:segStart] in order, without gaps.
//   - head is join of the blocks' outs.
//   - joinParts(settledView, liveView) is the output for src as it is
//     whenever viewOK, and equals Renderer.Render(src) (the
//     streamed-equals-whole property), but for the code colours of Draft's
//     blocks while drafty; settledView is head, or "" when the output is
//     not head's rows followed by the tail's.
//   - fence, when set, is the open code fence that starts at segStart;
//     long.cur, when set, draws the tail (rough.go). Not both.
//   - the view equals Renderer.Render(src) but while long.cur is set.
type Stream struct {
	r   *Renderer
	src strings.Builder

	blocks   []settled
	segStart int // start of the unsettled tail
	head     strings.Builder
	defs     definitions // the reference definitions (refs.go)
	fence    *fence
	long     roughPath // the long-block path (rough.go)
	wait     waiting   // the block that waits for the next one's first line (waiting.go)
	items    itemRows  // the complete items of a list that is the tail's last block (items.go)

	settledView string // the view's rows up to the tail's (Parts)
	liveView    string // and the tail's
	viewOK      bool
	drafty      bool  // Draft rendered part of the view, or is rendering
	err         error // first render error, sticky
}

// settled is a block that no later text changes, rendered.
type settled struct {
	start, end int
	out        string
	refs       []parser.Reference // definitions within it
	draft      bool               // rendered by Draft's renderer
}

// NewStream starts an empty message rendered with r.
func NewStream(r *Renderer) *Stream {
	return &Stream{r: r, long: newRoughPath()}
}

// Append adds a delta to the message. It does no rendering.
func (s *Stream) Append(delta string) {
	if delta == "" {
		return
	}
	s.src.WriteString(delta)
	s.viewOK = false
}

// Renderer returns the renderer in use.
func (s *Stream) Renderer() *Renderer { return s.r }

// Rough reports whether the view draws a long open block's end as plain
// text (rough.go): a whole render draws it properly.
func (s *Stream) Rough() bool { return s.long.cur != nil }

// Err returns the first render error, if any; the message is then shown as
// plain text.
func (s *Stream) Err() error { return s.err }

// SetRenderer switches to r (after a resize or a theme change) and renders
// every settled block again.
func (s *Stream) SetRenderer(r *Renderer) {
	if r == s.r {
		return
	}
	s.r = r
	s.fence, s.long.cur, s.drafty = nil, nil, false
	s.rerender(func(settled) bool { return true })
	s.viewOK = false
}

// View renders what changed since the last call and returns the whole
// message rendered (see Renderer for the output contract).
func (s *Stream) View() string { return joinParts(s.Parts()) }

// Parts is View in two parts: the view's rows are the rows of head
// followed by those of live (joinParts), where head only grows while the
// message streams (it is the rows of the blocks no later text changes), so
// a caller that keeps what it made of head's rows handles only what is new,
// and nothing copies the whole view.
func (s *Stream) Parts() (head, live string) {
	if s.drafty {
		s.drafty, s.viewOK, s.fence = false, false, nil
		if s.long.cur != nil && s.long.cur.drafted {
			s.long.cur = nil
		}
		s.rerender(func(b settled) bool { return b.draft })
	}
	return s.render()
}

// joinParts is the text whose rows are those of settled followed by those
// of live ("" has no rows).
func joinParts(settled, live string) string {
	switch {
	case settled == "":
		return live
	case live == "":
		return settled
	}
	return settled + "\n" + live
}

// Draft is View for a frame in a hurry: what it renders anew is rendered by
// quick, the Stream's renderer without code highlighting, and the next View
// renders that again. The rows are the same; only code waits for colour.
func (s *Stream) Draft(quick *Renderer) string { return joinParts(s.DraftParts(quick)) }

// DraftParts is Draft in two parts (Parts).
func (s *Stream) DraftParts(quick *Renderer) (head, live string) {
	if s.viewOK || quick == nil || quick == s.r {
		return s.render()
	}
	r := s.r
	s.r, s.drafty = quick, true
	defer func() { s.r = r }()
	return s.render()
}

// render is Parts, with the renderer in s.r.
func (s *Stream) render() (settled, live string) {
	if s.viewOK {
		return s.settledView, s.liveView
	}
	src := s.src.String()
	defer func() {
		if p := recover(); p != nil {
			s.err = cmp.Or(s.err, fmt.Errorf("render markdown: %v", p)) // the first one
			s.r.noteOnce(panicNote(p))
			settled, live = "", src
		}
		s.settledView, s.liveView, s.viewOK = settled, live, true
	}()
	tail := s.renderTail(src)
	s.syncRefs()
	head := s.head.String()
	n := 1
	for _, t := range tail {
		n += len(t)
	}
	sep := head != "" && len(tail) > 0 && tail[0] != ""
	var b strings.Builder
	b.Grow(n)
	if sep {
		b.WriteByte('\n') // with the one joinParts writes, the blank row between blocks
	}
	for _, t := range tail {
		b.WriteString(t)
	}
	live = b.String()
	if head != "" && live != "" && !sep {
		return "", head + live // the tail goes on head's last row: one part
	}
	return head, live
}

// renderTail settles what it can and renders the rest, in pieces to be
// written one after the other (see fenceText).
func (s *Stream) renderTail(src string) []string {
	if s.fence != nil {
		if out, ok := s.fence.view(s.r, src); ok {
			return out
		}
		s.fence = nil // it closed: parse again
	}
	if s.long.cur != nil {
		if out, ok := s.long.cur.view(s, src); ok {
			return out
		}
		s.long.cur = nil
	}
	tail, base := src[s.segStart:], s.segStart
	known := s.settledRefs()
	doc, b, own := s.r.parse(tail, known)
	s.defs.tail = own
	var nodes []ast.Node
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		nodes = append(nodes, n)
	}
	cut := s.settleable(nodes, b)
	refs := refsKey(known, own)
	render := func(n ast.Node) string { // a block that is not the last, or a list
		if l, ok := n.(*ast.List); ok {
			return s.items.top(s.r, l, b, base, refs)
		}
		return s.r.top(n, b, false)
	}
	from, draft := 0, false
	var outs []string
	for i := 0; i < cut; i++ {
		outs = append(outs, s.wait.top(s.r, nodes, i, b, base, refs, render))
		draft = draft || s.drafty && hasCode(nodes[i])
		if end := boundary(b, nodes, i+1); end > from { // else the next block goes with this one
			s.settle(s.segStart+from, s.segStart+end, join(outs), draft)
			from, outs, draft = end, outs[:0], false
		}
	}
	s.segStart += from
	for i, n := range nodes[cut:] {
		last := cut+i == len(nodes)-1
		if last && openFence(n, b) {
			if f := newFence(n.(*ast.FencedCodeBlock), b, s.segStart-from); f != nil && f.start == s.segStart {
				s.fence = f
				out, _ := f.view(s.r, src)
				outs = append(outs, strings.Join(out, ""))
				continue
			}
		}
		switch {
		case !last:
			outs = append(outs, s.wait.top(s.r, nodes, cut+i, b, base, refs, render))
		case openFence(n, b):
			outs = append(outs, s.r.top(n, b, true))
		default:
			outs = append(outs, render(n))
		}
	}
	out := join(outs)
	if s.fence == nil && len(nodes) > cut {
		s.long.cur = s.newRough(nodes[cut:], b, out, src)
	}
	return []string{out}
}

// settleable returns how many of the tail's top-level blocks are settled:
// all but the last; all but the last two while the last one's first line
// is incomplete, as that line may still change the block before it (not
// a closed code fence: nothing changes it); not a definition list
// followed by a paragraph (it may become the next term). The block after
// the last settled one must have a known start.
func (s *Stream) settleable(nodes []ast.Node, b []byte) int {
	k := len(nodes)
	if k < 2 {
		return 0
	}
	cut := k - 1
	last := lineStart(b, nodes[k-1])
	if last < 0 || !strings.Contains(string(b[last:]), "\n") {
		if f, ok := nodes[k-2].(*ast.FencedCodeBlock); !ok || openFence(f, b) {
			cut--
		}
	}
	if _, dl := nodes[max(cut-1, 0)].(*extast.DefinitionList); dl && cut > 0 {
		if _, p := nodes[cut].(*ast.Paragraph); p {
			cut--
		}
	}
	for cut > 0 && boundary(b, nodes, cut) < 0 {
		cut--
	}
	return cut
}

// settle keeps src[start:end] as a block rendered to out; draft: out has
// code Draft left uncoloured.
func (s *Stream) settle(start, end int, out string, draft bool) {
	blk := settled{start: start, end: end, out: out, draft: draft}
	src := s.src.String()[start:end]
	if strings.Contains(src, "]:") {
		_, _, blk.refs = s.r.parse(src, nil)
	}
	s.blocks = append(s.blocks, blk)
	s.addHead(out)
}

// addHead appends a settled block's render to head, as join would.
func (s *Stream) addHead(out string) {
	if out = strings.Trim(out, "\n"); out != "" {
		if s.head.Len() > 0 {
			s.head.WriteString("\n\n")
		}
		s.head.WriteString(out)
	}
}

// settledRefs returns the definitions in settled blocks, in order.
func (s *Stream) settledRefs() []parser.Reference {
	var out []parser.Reference
	for _, b := range s.blocks {
		out = append(out, b.refs...)
	}
	return out
}

// syncRefs renders again the settled blocks that mention a label whose
// definition changed since they were rendered.
func (s *Stream) syncRefs() {
	changed := s.defs.sync(s.settledRefs())
	if len(changed) == 0 {
		return
	}
	src := s.src.String()
	s.rerender(func(b settled) bool {
		low := strings.ToLower(src[b.start:b.end])
		for _, k := range changed {
			if strings.Contains(low, "["+k) {
				return true
			}
		}
		return false
	})
}

// rerender renders again the settled blocks that need it, each from its
// own source with every known definition, and rebuilds head.
func (s *Stream) rerender(need func(settled) bool) {
	src := s.src.String()
	refs := append(s.settledRefs(), s.defs.tail...)
	s.head.Reset()
	for i := range s.blocks {
		b := &s.blocks[i]
		if need(*b) {
			doc, bs, _ := s.r.parse(src[b.start:b.end], refs)
			b.out = s.r.document(doc, bs) // never an open fence: a block followed it
			b.draft = s.drafty && hasCode(doc)
		}
		s.addHead(b.out)
	}
}

// hasCode reports whether n is or holds a code block.
func hasCode(n ast.Node) bool {
	code := n.Kind() == ast.KindFencedCodeBlock || n.Kind() == ast.KindCodeBlock
	for c := n.FirstChild(); c != nil && !code; c = c.NextSibling() {
		code = hasCode(c)
	}
	return code
}

// nodeStart is the offset where a block's text starts, or -1 if unknown:
// a table is made from a paragraph after parsing and may carry the
// paragraph's start, which is before lines that stay a paragraph.
func nodeStart(n ast.Node) int {
	if _, ok := n.(*extast.Table); ok {
		return -1
	}
	return n.Pos()
}

// boundary is where the settled text may end before nodes[j]: the start
// of its line, or -1 if unknown or if nodes[j-1] is a reference
// definition, which was cut out of the paragraph that nodes[j] continues.
func boundary(b []byte, nodes []ast.Node, j int) int {
	if _, def := nodes[j-1].(*ast.LinkReferenceDefinition); def {
		return -1
	}
	return lineStart(b, nodes[j])
}

// lineStart is the start of the line where n starts, or -1 if unknown.
func lineStart(b []byte, n ast.Node) int {
	p := nodeStart(n)
	if p < 0 || p > len(b) {
		return -1
	}
	for p > 0 && b[p-1] != '\n' {
		p--
	}
	return p
}
