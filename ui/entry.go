package ui

import (
	"time"

	"runnel/stream"
	"runnel/ui/block"
)

// entry is a transcript Entry that knows its own index.
type entry interface {
	Entry
	setIndex(i int)
}

// plainEntry shows a block that no stream item backs (user messages,
// notices).
type plainEntry struct {
	b   block.Block
	fs  *frameState
	idx int
}

func (e *plainEntry) View(width int) string {
	return e.b.Render(block.Context{Width: width, Styles: e.fs.styles, Now: e.fs.now, Markdown: e.fs.md, Draft: e.fs.draft})
}
func (e *plainEntry) Live() bool     { return e.b.Live() }
func (e *plainEntry) setIndex(i int) { e.idx = i }

// itemEntry shows one stream item.
type itemEntry struct {
	b     block.Block
	it    *stream.Item
	fs    *frameState
	idx   int
	asked time.Time // when the user was first asked about it (approval requests)
}

func (e *itemEntry) View(width int) string {
	return e.b.Render(block.Context{Width: width, Styles: e.fs.styles, Now: e.fs.now, Markdown: e.fs.md, Draft: e.fs.draft})
}
func (e *itemEntry) Live() bool { return e.b.Live() }

// viewParts is View in two parts (partsEntry), when the block renders so.
func (e *itemEntry) viewParts(width int) (settled, live string) {
	if p, ok := e.b.(block.PartsRenderer); ok {
		return p.RenderParts(block.Context{Width: width, Styles: e.fs.styles, Now: e.fs.now, Markdown: e.fs.md, Draft: e.fs.draft})
	}
	return "", e.View(width)
}

// release drops the block's rebuildable renders (block.Releaser).
func (e *itemEntry) release() {
	if r, ok := e.b.(block.Releaser); ok {
		r.Release()
	}
}
func (e *itemEntry) setIndex(i int) { e.idx = i }

// Entry is one thing the transcript shows: a user prompt, an answer, a tool
// call. The root adapts ui/block blocks to it.
type Entry interface {
	// View returns the entry's rendered lines at width, joined by "\n" with
	// no trailing newline; "" means the entry takes no lines. The entry
	// caches per width itself: the transcript calls View again only after an
	// Invalidate or a width change.
	View(width int) string
	// Live reports that the entry is still changing (streaming).
	Live() bool
}
