package block

import (
	"fmt"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
	"runnel/ui/markdown"
)

// newRenderer makes a markdown renderer (a variable: tests make it fail).
var newRenderer = markdown.NewRenderer

// maxRenderers bounds how many renderers a Renderers keeps: a resize makes
// one per width passed through, a theme switch one per width again.
const maxRenderers = 16

// Renderers makes and keeps markdown renderers, one per styles and width.
// Making a renderer is cheap (tens of microseconds), but a stream re-renders
// every block when its renderer changes, so blocks share one renderer per
// styles and width through Context.Markdown; the UI keeps one Renderers in
// its frame state, the Printer its own. It is safe for concurrent use.
//
// Invariants: byKey holds at most maxRenderers entries (it is emptied when
// full, after note keeps the note of any of them); a nil entry records a
// renderer that could not be made, and err keeps the first such failure
// (the blocks then show plain text); said is set once NewNote returned a
// note, and never cleared.
type Renderers struct {
	mu    sync.Mutex
	byKey map[rendererKey]*markdown.Renderer
	err   error
	note  string                  // the first renderer's note found, cleaned (Note)
	said  bool                    // NewNote has handed the note out
	looks map[*theme.Styles]*look // the blocks' styles per Styles (look.go)
}

type rendererKey struct {
	styles *theme.Styles
	width  int
	quick  bool // code not highlighted (for drafts)
}

// NewRenderers returns an empty set of renderers.
func NewRenderers() *Renderers {
	return &Renderers{byKey: map[rendererKey]*markdown.Renderer{}, looks: map[*theme.Styles]*look{}}
}

// Err returns the first error met making a renderer, if any; blocks then show
// markdown as plain wrapped text.
func (rs *Renderers) Err() error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.err
}

// Note returns the one line to say when markdown was drawn as plain text,
// or "" when none was: the first note of a renderer (markdown.Renderer.Note:
// nesting too deep to parse in time, a render that failed), else the error
// making a renderer (Err). It is cleaned (stream.SanitizeLine).
func (rs *Renderers) Note() string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.keepNoteLocked()
	switch {
	case rs.note != "":
		return rs.note
	case rs.err != nil:
		return cleanLine("markdown cannot be drawn (" + rs.err.Error() + "): answers are shown as plain text")
	}
	return ""
}

// keepNoteLocked keeps the first renderer note found, so that emptying
// byKey loses none. rs.mu is held.
func (rs *Renderers) keepNoteLocked() {
	for _, r := range rs.byKey {
		if rs.note != "" {
			return
		}
		if r != nil {
			rs.note = cleanLine(r.Note())
		}
	}
}

// NewNote returns Note once, the first time there is one, for the chat to
// say; "" before, and ever after. Every frame asks: once said, it looks at
// nothing.
func (rs *Renderers) NewNote() string {
	rs.mu.Lock()
	said := rs.said
	rs.mu.Unlock()
	if said {
		return ""
	}
	n := rs.Note()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.said || n == "" {
		return ""
	}
	rs.said = true
	return n
}

// get returns the renderer for st at width, or nil if it cannot be made;
// quick: one that leaves code unhighlighted (markdown.Stream.Draft), the
// same renderer for a style that highlights none.
func (rs *Renderers) get(st *theme.Styles, width int, quick bool) *markdown.Renderer {
	if st == nil {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.getLocked(rendererKey{st, max(width, markdown.MinWidth), quick})
}

// getLocked is get, with rs.mu held.
func (rs *Renderers) getLocked(k rendererKey) *markdown.Renderer {
	if r, ok := rs.byKey[k]; ok {
		return r
	}
	if len(rs.byKey) >= maxRenderers {
		rs.keepNoteLocked()
		clear(rs.byKey)
	}
	style := k.styles.Glamour()
	cb := &style.CodeBlock
	var r *markdown.Renderer
	if k.quick && cb.Chroma == nil && cb.Theme == "" {
		full := k
		full.quick = false
		r = rs.getLocked(full) // no highlighting to leave out
	} else {
		if k.quick {
			cb.Chroma, cb.Theme = nil, ""
		}
		var err error
		if r, err = newRenderer(style, k.width); err != nil && rs.err == nil {
			rs.err = fmt.Errorf("markdown at width %d: %w", k.width, err)
		}
	}
	rs.byKey[k] = r
	return r
}

// markdown returns the renderer for the context's styles for rows of at most
// width columns.
func (ctx Context) markdown(width int) *markdown.Renderer {
	return ctx.renderer(width, false)
}

// renderer is markdown, or its quick twin.
func (ctx Context) renderer(width int, quick bool) *markdown.Renderer {
	if ctx.Markdown == nil {
		return NewRenderers().get(ctx.Styles, width, quick)
	}
	return ctx.Markdown.get(ctx.Styles, width, quick)
}

// mdDoc is a markdown document that grows (a message, a reasoning summary,
// streamed code) rendered incrementally by a markdown.Stream.
//
// Invariants: src is the cleaned source given last to set; when st is not
// nil, st.Source() == src; drafted tells that st drew a draft since its
// last View (code may be uncoloured).
type mdDoc struct {
	src     string
	st      *markdown.Stream
	drafted bool
}

// set makes src the document. A source that extends the old one is appended;
// anything else (a .done value that rewrote text, a citation marker inserted
// earlier in the text) starts the stream over.
func (d *mdDoc) set(src string) {
	if src == d.src {
		return
	}
	if d.st != nil {
		if strings.HasPrefix(src, d.src) {
			d.st.Append(src[len(d.src):])
		} else {
			r := d.st.Renderer()
			d.st = markdown.NewStream(r)
			d.st.Append(src)
		}
	}
	d.src = src
}

// view returns the rendered document with r, or the source wrapped as plain
// text when r is nil; a draft (markdown.Stream.Draft) with quick, when
// not nil.
func (d *mdDoc) view(r, quick *markdown.Renderer, width int) string {
	if r == nil {
		return strings.Join(wrap(d.src, width), "\n")
	}
	d.stream(r, quick)
	if quick != nil {
		return d.st.Draft(quick)
	}
	return d.st.View()
}

// stream makes the stream that renders with r, or switches it to r, and
// notes whether the view will be drafted with quick.
func (d *mdDoc) stream(r, quick *markdown.Renderer) {
	switch {
	case d.st == nil:
		d.st = markdown.NewStream(r)
		d.st.Append(d.src)
	case d.st.Renderer() != r:
		d.st.SetRenderer(r)
	}
	d.drafted = quick != nil
}

// viewParts is view in two parts (markdown.Stream.Parts): the rows of
// settled, then those of live; settled is "" when r is nil.
func (d *mdDoc) viewParts(r, quick *markdown.Renderer, width int) (settled, live string) {
	if r == nil {
		return "", d.view(r, quick, width)
	}
	d.stream(r, quick)
	if quick != nil {
		return d.st.DraftParts(quick)
	}
	return d.st.Parts()
}

// fitter fits the rows of a growing render to a width, measuring only the
// rows from the first one that changed since the last call. ui/markdown wraps
// prose to its width, but a long code line, a URL or a row with symbols it
// measures differently (≈ in a list item) can still overflow; such a row is
// broken in two rather than cut, so no text is lost.
//
// Invariants: out is raw with every row fitted to width; over holds the
// start offsets in raw, ascending, of the rows wider than width (the only
// rows out changes); out == raw when over is empty.
type fitter struct {
	width int
	raw   string
	out   string
	over  []int
}

func (f *fitter) fit(raw string, width int) string {
	if width == f.width && raw == f.raw {
		return f.out
	}
	from := 0
	if width == f.width {
		n := commonPrefix(f.raw, raw)
		from = strings.LastIndexByte(raw[:n], '\n') + 1
		k := 0 // rows before from are as they were: keep what was found of them
		for k < len(f.over) && f.over[k] < from {
			k++
		}
		f.over = f.over[:k]
	} else {
		f.over = f.over[:0]
	}
	for i := from; i < len(raw); {
		end := rowEnd(raw, i)
		if row := raw[i:end]; len(row) > width && ansi.StringWidth(row) > width { // bytes ≥ cells
			f.over = append(f.over, i)
		}
		i = end + 1
	}
	f.width, f.raw, f.out = width, raw, raw
	if len(f.over) == 0 {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw) + len(raw)/8)
	last := 0
	for _, at := range f.over {
		end := rowEnd(raw, at)
		b.WriteString(raw[last:at])
		b.WriteString(ansi.Hardwrap(raw[at:end], width, true))
		last = end
	}
	b.WriteString(raw[last:])
	f.out = b.String()
	return f.out
}

// rowEnd is the end of the row of s starting at i: its newline's index, or
// len(s).
func rowEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
