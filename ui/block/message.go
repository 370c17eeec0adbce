package block

import (
	"runnel/stream/cite"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
	"runnel/ui/markdown"
)

// message is the block of an assistant message: its text as markdown,
// rendered incrementally while it streams, then swapped for one whole render
// (Finisher); refusals styled apart; citations as numbered markers with a
// Sources list; commentary (phase "commentary") dimmed.
//
// Invariants:
//   - src is the cleaned markdown of the non-refusal parts with the citation
//     markers inserted, as of the last Update; doc holds the same source.
//   - final is used only while final.src == src and it was made for the
//     width and styles being rendered; asked is what SetFinal's result is
//     checked against.
//   - rev changes on Update and End; settled holds the whole output of a
//     block that is not live.
//   - wait.colour, when set, is the work FinalRender started for asked;
//     only SetFinal takes it, once it is done.
type message struct {
	it    *stream.Item
	ended bool
	rev   int

	src     string
	grow    growing // cleans src's text as it grows
	pages   pager   // a message too long to draw whole (paging.go); src is then the raw text
	refs    cite.Refs
	refusal string // cleaned refusal text
	doc     mdDoc
	asked   final     // what the last FinalRender rendered
	wait    finalWait // what asked waits for
	final   final     // the render in use, when it matches

	fits    fitters
	settled cache
	renders int // settled renders, for tests
}

// fitters fit a message's rows to the width: a whole render's, and
// RenderParts' settled and live rows apart, each growing on its own.
type fitters struct {
	whole, settled, live fitter
}

var (
	_ ItemBlock = (*message)(nil)
	_ Finisher  = (*message)(nil)
	_ Releaser  = (*message)(nil)
	_ Sourced   = (*message)(nil)

	_ PartsRenderer = (*message)(nil)
)

// Release drops the renders and the markdown stream of a finished message;
// its source stays, and Render builds them again (a whole render of the
// source, which a streamed view equals).
func (m *message) Release() {
	if m.Live() {
		return
	}
	m.settled = cache{}
	m.final, m.asked, m.wait = final{}, final{}, finalWait{}
	m.doc.st = nil
	m.fits = fitters{}
	m.pages.prev.st, m.pages.cur.st = nil, nil
	m.rev++
}

// finalWait is what the render FinalRender was last asked for waits for.
type finalWait struct {
	coming bool       // that render is being made from the source (SetFinal has not run)
	colour *colouring // a draft's code being coloured off the UI goroutine for it, nil when none
}

// final is a whole-document render of a message: asked for by FinalRender
// (out empty), then given by SetFinal.
type final struct {
	width  int
	styles *theme.Styles
	src    string
	out    string
}

func newMessage(it *stream.Item) ItemBlock { return &message{it: it} }

func (m *message) Item() *stream.Item { return m.it }

// Update re-reads the message's parts: text, refusals and annotations.
func (m *message) Update(time.Time) {
	text, refusal, parts := splitParts(m.it.Content)
	m.refs = citations(parts)
	if m.pages.update(text, &m.doc) {
		m.src = text // drawn from its last pages, without citation markers
	} else if len(m.refs.Marks) == 0 {
		m.src = m.grow.clean(text)
	} else {
		m.src = clean(m.refs.Marked(text, markerText))
	}
	m.refusal = clean(refusal)
	m.doc.set(m.src)
	m.rev++
}

func (m *message) End(time.Time) {
	m.ended = true
	m.rev++
}

// splitParts separates a message's markdown parts from its refusal parts
// (cite.Split).
var splitParts = cite.Split

func (m *message) Live() bool { return !m.it.Done && !m.ended }

// Source is the markdown the message's rows are drawn from.
func (m *message) Source() string {
	if m.pages.on {
		return ""
	}
	return m.src
}

func (m *message) commentary() bool { return m.it.Phase == "commentary" }

func (m *message) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, m.rev}
	live := m.Live()
	if !live {
		if out, ok := m.settled.get(key); ok {
			return out
		}
	}
	width := max(ctx.Width, 1)
	lk := ctx.look()
	var md string
	var quick *markdown.Renderer // drawing a draft (markdown.Stream.Draft)
	if (live && ctx.Draft) || m.finalComing(ctx) {
		quick = ctx.renderer(width, true)
	}
	if f := m.final; f.src == m.src && f.width == ctx.Width && f.styles == ctx.Styles && f.out != "" {
		md = f.out
	} else if m.pages.on {
		md = m.fits.whole.fit(m.pages.view(ctx, width, lk, quick), width)
	} else if m.src != "" {
		md = m.fits.whole.fit(m.doc.view(ctx.markdown(width), quick, width), width)
	}
	out := m.decorate(md, width, lk)
	if !live && !m.drafted() {
		m.renders++
		m.settled.put(key, out)
	}
	return out
}

// RenderParts is Render in two parts (PartsRenderer): while a message
// streams as markdown and nothing surrounds it (no refusal, no sources, not
// commentary, not paged), its settled blocks' rows come apart from the
// tail's, each fitted on its own, so a frame copies only the tail.
func (m *message) RenderParts(ctx Context) (settled, live string) {
	f := m.final
	whole := f.src == m.src && f.width == ctx.Width && f.styles == ctx.Styles && f.out != ""
	if !m.Live() || whole || m.pages.on || m.src == "" || m.commentary() || strings.TrimSpace(m.refusal) != "" || len(m.refs.Sources) > 0 {
		return "", m.Render(ctx)
	}
	width := max(ctx.Width, 1)
	var quick *markdown.Renderer
	if ctx.Draft || m.finalComing(ctx) {
		quick = ctx.renderer(width, true)
	}
	settled, live = m.doc.viewParts(ctx.markdown(width), quick, width)
	return m.fits.settled.fit(settled, width), m.fits.live.fit(live, width)
}

// decorate adds what surrounds the markdown: commentary dimming, the refusal
// and the sources.
func (m *message) decorate(md string, width int, lk *look) string {
	var blocks []string
	if md != "" {
		if m.commentary() {
			rows := splitLines(ansi.Strip(md))
			md = strings.Join(paint(lk.commentary.Render, rows), "\n")
		}
		blocks = append(blocks, md)
	}
	if strings.TrimSpace(m.refusal) != "" {
		rows := wrap(m.refusal, max(width-2, 1))
		for i, r := range rows {
			prefix := "  "
			if i == 0 {
				prefix = "⊘ "
			}
			rows[i] = lk.refusal.Render(prefix + r)
		}
		blocks = append(blocks, strings.Join(rows, "\n"))
	}
	if src := sourceRows(m.refs.Sources, width, lk); len(src) > 0 {
		blocks = append(blocks, strings.Join(src, "\n"))
	}
	return strings.Join(blocks, "\n\n")
}

// FinalRender returns the whole-document render of the message as it is now,
// to run off the UI goroutine. The renderer is picked here, on the UI
// goroutine; the function only reads. A message streamed with that renderer
// already has it: the stream's view equals a whole render (ui/markdown's
// property), so only its fitting is left to do. A drafted one's code is
// coloured by the function (markdown.Colouring), not by the View after
// SetFinal: the end of a fast answer is not held up by its colours.
func (m *message) FinalRender(ctx Context) func() string {
	width := max(ctx.Width, 1)
	r := ctx.markdown(width)
	asked := final{width: ctx.Width, styles: ctx.Styles, src: m.src}
	again := m.wait.colour != nil && m.asked == asked // its colours are on their way
	m.asked = asked
	if m.pages.on || m.drafted() {
		// drawn from its pages: a whole render would cost what paging saves
		// (but of a page drawn roughly); a draft is drawn until SetFinal, and
		// then the stream's View shows it coloured
		m.wait.coming = m.drafted()
		if m.pages.on && m.pages.rough() {
			return m.pages.final(ctx, width, ctx.look())
		}
		if !again {
			m.wait.colour = m.colouring(r)
		}
		if c := m.wait.colour; c != nil {
			return func() string { c.run(); return "" } // asked again: runs once, both answers wait for it
		}
		return func() string { return "" }
	}
	if f := m.final; f.out != "" && f.width == asked.width && f.styles == asked.styles && f.src == asked.src {
		out := f.out // made already (the turn's end asks again for every item): the same answer, at no cost
		return func() string { return out }
	}
	src := m.src
	if r != nil && m.doc.st != nil && m.doc.st.Renderer() == r && m.doc.src == src && !m.doc.st.Rough() {
		view := m.doc.view(r, nil, width)
		if m.doc.st.Err() == nil {
			return func() string {
				var f fitter
				return f.fit(view, width)
			}
		}
	}
	return func() string { return renderWhole(r, src, width) }
}

// colouring is the work of colouring a drafted message's code off the UI
// goroutine: one markdown.Colouring for each of its documents (the
// message, or its two pages) that waits for colour.
type colouring struct {
	sts []*markdown.Stream
	cs  []*markdown.Colouring
}

// colouring returns the work that colours the message's drafted
// documents rendered with r; nil when none waits for colour.
func (m *message) colouring(r *markdown.Renderer) *colouring {
	docs := []*mdDoc{&m.doc}
	if m.pages.on {
		docs = []*mdDoc{&m.pages.prev, &m.pages.cur}
	}
	var k colouring
	for _, d := range docs {
		if d.st == nil || d.st.Renderer() != r {
			continue
		}
		if c := d.st.Colour(); c != nil {
			k.sts, k.cs = append(k.sts, d.st), append(k.cs, c)
		}
	}
	if len(k.cs) == 0 {
		return nil
	}
	return &k
}

// run colours, on any goroutine.
func (k *colouring) run() {
	for _, c := range k.cs {
		c.Run()
	}
}

// done reports whether run has finished.
func (k *colouring) done() bool {
	for _, c := range k.cs {
		if !c.Done() {
			return false
		}
	}
	return true
}

// apply hands the colours to the streams they were made for (a stream the
// message no longer draws from ignores them).
func (k *colouring) apply() {
	for i, c := range k.cs {
		k.sts[i].SetColoured(c)
	}
}

// drafted reports whether the markdown drawn last was a draft (its code
// may be uncoloured).
func (m *message) drafted() bool {
	if m.pages.on {
		return m.pages.prev.drafted || m.pages.cur.drafted
	}
	return m.doc.drafted
}

// finalComing reports whether the message was drafted and FinalRender's
// answer has not come: until it does, a draft is drawn, so that the end of
// a fast stream is drawn before its code is coloured.
func (m *message) finalComing(ctx Context) bool {
	a := m.asked
	return m.wait.coming && a.src == m.src && a.width == ctx.Width && a.styles == ctx.Styles
}

// SetFinal swaps the final render in, unless it was made for another width
// or the message changed since FinalRender.
func (m *message) SetFinal(width int, rendered string) {
	if c := m.wait.colour; c != nil {
		if !c.done() {
			return // an answer asked before the colours: theirs comes after, the draft stays till then
		}
		m.wait.colour = nil
		if width == m.asked.width && m.asked.src == m.src {
			c.apply()
		}
	}
	m.wait.coming = false
	if width != m.asked.width || m.asked.src != m.src {
		return
	}
	f := m.asked
	f.out = rendered
	if f == m.final {
		return // the render in use: nothing to draw again
	}
	m.final = f
	m.rev++
}

// renderWhole renders a whole markdown document, fitted to width; plain
// wrapped text if there is no renderer or rendering fails.
func renderWhole(r *markdown.Renderer, src string, width int) string {
	if r != nil {
		if out, err := r.Render(src); err == nil {
			var f fitter
			return f.fit(out, width)
		}
	}
	return strings.Join(wrap(src, width), "\n")
}

// sourceRows lists the sources: "[n] title" as an OSC 8 hyperlink that
// runnel writes itself (the URL was validated: http or https, no controls),
// and under it the URL, for terminals without hyperlinks (each row of it
// hyperlinked too: a URL wider than the row breaks after a separator, never
// inside a word, and every piece opens it).
func sourceRows(sources []cite.Source, width int, lk *look) []string {
	if len(sources) == 0 {
		return nil
	}
	rows := []string{lk.sourcesHeading.Render(fit("Sources", width))}
	for _, s := range sources {
		num := "[" + strconv.Itoa(s.N) + "] "
		indent := strings.Repeat(" ", len(num))
		label := s.Label()
		for i, l := range wrap(label, max(width-len(num), 1)) {
			prefix := indent
			if i == 0 {
				prefix = lk.muted.Render(num)
			}
			styled := lk.link.Render(l)
			if s.URL != "" {
				styled = ansi.SetHyperlink(s.URL) + styled + ansi.ResetHyperlink()
			}
			rows = append(rows, prefix+styled)
		}
		if s.URL != "" {
			for _, l := range urlRows(s.URL, max(width-len(num), 1)) {
				// each piece of a URL wider than the row keeps the link
				rows = append(rows, indent+ansi.SetHyperlink(s.URL)+lk.muted.Render(l)+ansi.ResetHyperlink())
			}
		}
	}
	return fitAll(rows, width) // only narrower than the numbers needs it
}

// urlRows breaks a URL (plain, one cell a byte: safeURL's output is ASCII
// or percent-encoded) into rows of at most width: each row ends after the
// last separator ("/", "-", "?", "&", "=", ".", "_", "#", "+", ",", ";",
// ":") that fits, so no word is cut; only a run with no separator wider
// than the row is broken where the row ends.
func urlRows(u string, width int) []string {
	width = max(width, 1)
	var rows []string
	for ansi.StringWidth(u) > width {
		cut := ansi.Truncate(u, width, "")
		if i := strings.LastIndexAny(cut, "/-?&=._#+,;:"); i > 0 {
			cut = cut[:i+1]
		}
		rows = append(rows, cut)
		u = u[len(cut):]
	}
	return append(rows, u)
}
