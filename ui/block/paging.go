package block

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/ui/markdown"
)

// A message longer than pageBytes is drawn from its last two pages only, so
// that neither the memory nor the work of a frame grows with the length of
// the answer (an endless stream would otherwise make every frame slower and
// bigger until the response limit). The text before them is counted in one
// line; the whole answer stays in the item (copy and export have it).
//
// A page ends at a paragraph break outside a code fence, where the text is
// when the page has grown past pageBytes; a page with no such break is cut
// where it is once it passes maxPageBytes. A new page starts a new markdown
// document, so no page is ever rendered again after it was sealed, and the
// live page renders incrementally like any message.
//
// Text that comes at once longer than skipBytes (more than one update of a
// streaming page adds before it is sealed) is skipped to its last page
// (skip).
const (
	pageBytes    = 256 << 10
	maxPageBytes = 4 * pageBytes
	skipBytes    = 2 * maxPageBytes
)

// pager draws a long message from its last pages.
//
// Invariants: raw[:start] is the text already paged out; prev is the sealed
// page before start and cur the live page from start on, each holding its
// cleaned source; hidden is the raw length of the text before prev.
type pager struct {
	on        bool
	start     int // raw offset where cur begins
	prevStart int // raw offset where prev begins
	prev, cur mdDoc
	grow      growing // cleans cur's text as it grows
	fence     fenceScan
}

// update takes the message's raw text. It reports false, and does nothing,
// while the text is short enough to draw whole or no longer extends what it
// has paged (a .done value that rewrote it: the caller draws it whole).
// When paging starts, the first page takes over whole, the document the
// message was drawn from (whole), which its stream has parsed already: a
// new one would parse and render all of it again in one frame (a long
// table: half a second).
func (p *pager) update(raw string, whole *mdDoc) bool {
	if !p.on {
		if len(raw) <= pageBytes {
			return false
		}
		p.on = true
		p.cur, *whole = *whole, mdDoc{}
	}
	if len(raw) < p.start {
		*p = pager{}
		return false
	}
	p.skip(raw)
	page := raw[p.start:]
	p.cur.set(p.grow.clean(page))
	p.fence.scan(page)
	if len(page) > pageBytes && ((!p.fence.open && endsParagraph(page)) || len(page) > maxPageBytes) {
		p.prev, p.prevStart = p.cur, p.start
		p.cur, p.grow, p.fence = mdDoc{}, growing{}, fenceScan{}
		p.start = len(raw)
	}
	return true
}

// skip moves the pages past all but about the last pageBytes of text that
// came at once longer than skipBytes (a resumed answer as long as the
// response limit, a burst of deltas): to the last paragraph break outside
// a code fence before its last pageBytes or, with none, to where its last
// maxPageBytes begin. That text is counted above the pages as any paged
// out text is, and only scanned for fences and breaks: parsing it as one
// page would cost hundreds of MiB and a minute for a 32 MiB answer.
func (p *pager) skip(raw string) {
	page := raw[p.start:]
	if len(page) <= skipBytes {
		return
	}
	limit, at := len(page)-pageBytes, 0
	var f fenceScan
	for f.done < limit {
		nl := strings.IndexByte(page[f.done:], '\n')
		if nl < 0 {
			break
		}
		line := page[f.done : f.done+nl]
		f.scan(page[:f.done+nl+1])
		if !f.open && strings.TrimSpace(line) == "" && f.done <= limit {
			at = f.done
		}
	}
	if at == 0 {
		at = len(page) - maxPageBytes
		for at < len(page) && !utf8.RuneStart(page[at]) {
			at++
		}
	}
	p.start += at
	p.prev, p.prevStart = mdDoc{}, p.start
	p.cur, p.grow, p.fence = mdDoc{}, growing{}, fenceScan{}
}

// hidden is the raw length of the text not drawn.
func (p *pager) hidden() int { return p.prevStart }

// view draws the pages: a line counting the text before them, the sealed
// page and the live one; drafts with quick, when not nil (mdDoc.view).
func (p *pager) view(ctx Context, width int, lk *look, quick *markdown.Renderer) string {
	r := ctx.markdown(width)
	parts := p.above(width, lk)
	if p.prev.src != "" {
		parts = append(parts, p.prev.view(r, quick, width))
	}
	if p.cur.src != "" {
		parts = append(parts, p.cur.view(r, quick, width))
	}
	return strings.Join(parts, "\n\n")
}

// above is the line counting the text before the pages, if any.
func (p *pager) above(width int, lk *look) []string {
	n := p.hidden()
	if n == 0 {
		return nil
	}
	line := "⋯ " + stream.FormatBytes(n) + " of this answer above are not drawn: it is too long to show whole (ctrl+y or /copy copies all of it)"
	return []string{lk.muted.Render(ansi.Wordwrap(line, width, " "))}
}

// rough reports whether a page is drawn roughly (markdown.Stream.Rough).
func (p *pager) rough() bool {
	return p.prev.st != nil && p.prev.st.Rough() || p.cur.st != nil && p.cur.st.Rough()
}

// final returns whole renders of the pages, to make off the UI goroutine
// (FinalRender): what view draws, each page properly.
func (p *pager) final(ctx Context, width int, lk *look) func() string {
	r, parts, prev, cur := ctx.markdown(width), p.above(width, lk), p.prev.src, p.cur.src
	return func() string {
		for _, src := range []string{prev, cur} {
			if src != "" {
				parts = append(parts, renderWhole(r, src, width))
			}
		}
		return strings.Join(parts, "\n\n")
	}
}

// endsParagraph reports whether text ends at a blank line.
func endsParagraph(text string) bool {
	t := strings.TrimRight(text, " \t")
	return strings.HasSuffix(t, "\n\n") || strings.HasSuffix(t, "\n\r\n")
}

// fenceScan tracks whether a page is inside a ``` or ~~~ code fence,
// reading each line once.
//
// Invariant: text[:done] was scanned; done is at a line start.
type fenceScan struct {
	done int
	open bool
	mark string // the fence's marker while open
}

func (f *fenceScan) scan(text string) {
	for {
		nl := strings.IndexByte(text[f.done:], '\n')
		if nl < 0 {
			return
		}
		line := strings.TrimLeft(text[f.done:f.done+nl], " ")
		f.done += nl + 1
		for _, mark := range []string{"```", "~~~"} {
			if !strings.HasPrefix(line, mark) {
				continue
			}
			switch {
			case !f.open:
				f.open, f.mark = true, mark
			case f.mark == mark && strings.TrimSpace(strings.TrimLeft(line, mark[:1])) == "":
				f.open = false
			}
		}
	}
}
