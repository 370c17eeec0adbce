package markdown

import (
	"slices"

	"github.com/yuin/goldmark/ast"
)

// itemRows keeps the rows of the complete items of a list that streams as
// the tail's last block: each frame drew every item again, though only the
// last one grows.
//
// An item is complete once the next one has begun. Its rows are a function
// of its place in the source (which only grows, so the same place is the
// same bytes, and so is all the text before it) from the start of its line
// to the start of the next item's, its marker, whether the list is loose,
// the width, the reference definitions the parse knew and the renderer;
// the key holds them all. Text after the next item's start can't change
// an item but through the definitions (keyed) or the list's looseness
// (keyed).
//
// Invariants: when r is not nil, rows holds the rows (hung behind their
// marker) of items of the list whose line starts at list, rendered by r
// with the definitions refs; they are never handed out themselves.
type itemRows struct {
	r    *Renderer
	refs string
	list int
	rows map[itemKey][]string
	hits int // items not rendered again (for tests)
}

type itemKey struct {
	start, end, width int
	marker            string
	loose             bool
}

// top renders n, a list that is the last block of a tail b starting at
// base in the message, parsed with the definitions refs, as Renderer.top
// does: its complete items' rows kept.
func (m *itemRows) top(r *Renderer, n *ast.List, b []byte, base int, refs string) string {
	start := lineStart(b, n)
	if start < 0 {
		return r.top(n, b, false)
	}
	if m.r != r || m.refs != refs || m.list != base+start {
		*m = itemRows{r: r, refs: refs, list: base + start, rows: map[itemKey][]string{}, hits: m.hits}
	}
	return r.topIn(&blockCtx{r: r, src: b, items: m, itemsOf: n, base: base}, n, false)
}

// item is blockCtx.item, kept for an item followed by another.
func (m *itemRows) item(c *blockCtx, it ast.Node, width int, marker string, loose bool) []string {
	next := it.NextSibling()
	if next == nil {
		return c.item(it, width, marker, loose)
	}
	start, end := lineStart(c.src, it), lineStart(c.src, next)
	if start < 0 || end <= start {
		return c.item(it, width, marker, loose)
	}
	k := itemKey{start: c.base + start, end: c.base + end, width: width, marker: marker, loose: loose}
	if rows, ok := m.rows[k]; ok {
		m.hits++
		return slices.Clone(rows)
	}
	rows := c.item(it, width, marker, loose)
	m.rows[k] = slices.Clone(rows)
	return rows
}
