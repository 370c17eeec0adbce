package markdown

import (
	"slices"
	"sync"
)

// tableCache keeps the last few tables lipgloss drew, keyed by everything
// the drawing reads: the cells as they go to lipgloss (styled and wrapped),
// the columns' fixed widths and alignments, the width and the padding (the
// border is the Renderer's). A streaming table is drawn again on every
// frame: while the next block's first line comes (the table waits with it,
// Stream.settleable), and when a delta adds only what no cell shows (a
// pipe, a space, the row's newline), the drawing is the one before, and
// lipgloss's, which is most of a table's cost, is skipped. Same inputs,
// same function: the rows are byte for byte what lipgloss would draw.
//
// Invariants: keys and outs pair up; at most maxCachedTables entries, the
// newest last; an out is never handed out itself (callers change rows).
type tableCache struct {
	mu    sync.Mutex
	keys  []string
	outs  [][]string
	hits  int // tables not drawn again (for tests)
	draws int // tables drawn (for tests)
}

// maxCachedTables bounds tableCache: a stream's tail holds one or two.
const maxCachedTables = 4

// tableKey encodes a table's drawing inputs, each cell length-prefixed so
// no two inputs share a key.
func tableKey(width, pad int, fixed []int, aligns []int, header []string, rows [][]string) string {
	var k cacheKey
	cells := func(row []string) {
		k.num(len(row))
		for _, c := range row {
			k.str(c)
		}
	}
	k.num(width)
	k.num(pad)
	k.num(len(fixed))
	for _, f := range fixed {
		k.num(f)
	}
	k.num(len(aligns))
	for _, a := range aligns {
		k.num(a)
	}
	cells(header)
	k.num(len(rows))
	for _, r := range rows {
		cells(r)
	}
	return k.String()
}

// get returns a copy of the rows drawn for key, drawing them with draw
// when they aren't kept.
func (c *tableCache) get(key string, draw func() []string) []string {
	c.mu.Lock()
	if i := slices.Index(c.keys, key); i >= 0 {
		out := slices.Clone(c.outs[i])
		c.hits++
		c.mu.Unlock()
		return out
	}
	c.mu.Unlock()
	out := draw()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.draws++
	if len(c.keys) == maxCachedTables {
		c.keys, c.outs = c.keys[1:], c.outs[1:]
	}
	c.keys, c.outs = append(c.keys, key), append(c.outs, slices.Clone(out))
	return out
}
