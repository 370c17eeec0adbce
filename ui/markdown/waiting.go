package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// waiting keeps the render of the block that waits, unsettled, while the
// next block's first line comes (Stream.settleable): a table, a list or a
// paragraph there was drawn again on every frame of that line, which may
// be a whole paragraph long, though its own text was done.
//
// A block's render is a function of its source, the reference definitions
// the parse knew, and the renderer: the key is its place in the source
// (which only grows, so the same place is the same bytes) from the start
// of its line to the start of the next block's line, its kind, the
// definitions, and the renderer. A later line that changes the block (a
// setext underline, a table's delimiter row, a lazy continuation) moves
// where the next block starts, or makes one block of the two.
//
// Invariant: when r is not nil, out is r.top of the block of kind at
// src[start:end] parsed with the definitions refs.
type waiting struct {
	r          *Renderer
	start, end int
	kind       ast.NodeKind
	refs       string
	out        string
	hits       int // renders spared (for tests)
}

// top renders nodes[j], a block of the tail b (which starts at base in the
// source) that is not its last, parsed with the definitions refs
// (refsKey), with render (r's rendering of a block): the render kept, when
// it is of the same block. The block that settles is the one that waited,
// so its settling takes the render kept.
func (w *waiting) top(r *Renderer, nodes []ast.Node, j int, b []byte, base int, refs string, render func(ast.Node) string) string {
	n := nodes[j]
	start, end := lineStart(b, n), lineStart(b, nodes[j+1])
	if start < 0 || end < start {
		return render(n)
	}
	if w.r == r && w.start == base+start && w.end == base+end && w.kind == n.Kind() && w.refs == refs {
		w.hits++
		return w.out
	}
	out := render(n)
	*w = waiting{r: r, start: base + start, end: base + end, kind: n.Kind(), refs: refs, out: out, hits: w.hits}
	return out
}

// refsKey encodes reference definitions, each part length-prefixed.
func refsKey(lists ...[]parser.Reference) string {
	var k cacheKey
	for _, refs := range lists {
		k.num(len(refs))
		for _, ref := range refs {
			k.bytes(ref.Label())
			k.bytes(ref.Destination())
			k.bytes(ref.Title())
		}
	}
	return k.String()
}
