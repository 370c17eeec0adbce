package block

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/ui/itemlook"
)

// previewLines is how many lines a collapsed panel section shows.
const previewLines = 10

// minFramed is the narrowest width that still gets a border; below it a
// panel is drawn as plain rows.
const minFramed = 16

// panelSpec is how one item type's panel is drawn: an entry of panelSpecs.
// The icon comes from the type's look (ui/itemlook).
type panelSpec struct {
	title func(p *panel) string      // one line, cleaned
	body  func(p *panel, d *drawer)  // the sections, from the item
	phase bool                       // show the item's progress phase (searching, generating…) while running
	state func(p *panel) panelStatus // overrides the header's status (approval requests); nil: from the item
}

// panelStatus is the header's right side when a spec overrides it.
type panelStatus struct {
	text  string
	state state // picks the style
	live  bool
}

// panel is the block of a tool call, an MCP item or an unknown item: a
// rounded border with the icon, title and status in the top edge, and the
// sections of its body inside.
//
// Invariants:
//   - rev changes whenever anything the body shows may have changed: Update,
//     End, SetExpanded, SetDecision, ImageSaved, SetRun; cache holds renders
//     keyed by it (panelCache).
type panel struct {
	it       *stream.Item
	kind     stream.ItemKind // the item type's entry in the kind table
	look     itemlook.Look   // the item type's title and icon
	spec     *panelSpec
	run      *toolrun.Run // runnel's run of the call (SetRun); nil for an item it does not run
	clock    timing
	ended    bool // the response is over
	expanded bool
	rev      int

	cache panelCache // its renders, by rev

	code   mdDoc       // code interpreter: highlighted code
	answer approval    // approval requests: the user's answer
	images imageState  // image generation: files handed out and saved
	tokens tokenCounts // compaction: the context's size before and after
}

// panelCache is what a panel keeps of its renders.
//
// Invariants:
//   - body holds the framed body rows (everything but the top edge) for
//     body.key; the top edge is redrawn on every Render while the panel is
//     live, because the spinner and elapsed time move with ctx.Now.
//   - settled holds the whole output of a panel that is not live.
//   - renders counts body renders, for tests: a cache hit renders nothing.
type panelCache struct {
	body    cache
	settled cache
	renders int
}

var (
	_ ItemBlock  = (*panel)(nil)
	_ Expander   = (*panel)(nil)
	_ Approver   = (*panel)(nil)
	_ ImageSaver = (*panel)(nil)
	_ RunHolder  = (*panel)(nil)
)

func (p *panel) Item() *stream.Item { return p.it }

func (p *panel) Update(now time.Time) {
	p.clock.observe(now, p.state() == stateRunning)
	p.rev++
}

func (p *panel) End(now time.Time) {
	p.ended = true
	p.clock.observe(now, false)
	p.rev++
}

func (p *panel) SetRun(r toolrun.Run) {
	p.run = &r
	p.rev++
}

func (p *panel) state() state { return stateOf(p.it, p.ended) }

// running reports whether the panel's work goes on: its item streams, or
// runnel runs its call.
func (p *panel) running() bool {
	if r := p.run; r != nil {
		return r.Phase == toolrun.RunRunning
	}
	return p.state() == stateRunning
}

func (p *panel) status() panelStatus {
	if p.spec.state != nil {
		return p.spec.state(p)
	}
	if r := p.run; r != nil {
		return runStatus(*r)
	}
	s := p.state()
	text := s.String()
	if s == stateRunning && p.spec.phase {
		switch ph := p.it.Progress; ph {
		case "searching", "interpreting", "generating", "calling":
			text = ph
		}
	}
	return panelStatus{text: text, state: s, live: s == stateRunning}
}

func (p *panel) Live() bool { return p.status().live }

func (p *panel) SetExpanded(on bool) {
	if on != p.expanded {
		p.expanded = on
		p.rev++
	}
}

func (p *panel) Expanded() bool { return p.expanded }

func (p *panel) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, p.rev}
	st := p.status()
	if !st.live {
		if out, ok := p.cache.settled.get(key); ok {
			return out
		}
	}
	lk := ctx.look()
	body, ok := p.cache.body.get(key)
	if !ok {
		body = p.cache.body.put(key, p.renderBody(ctx, lk))
	}
	top := p.renderTop(ctx, lk, st)
	out := top
	if body != "" {
		out += "\n" + body
	}
	if !st.live {
		p.cache.settled.put(key, out)
	}
	return out
}

// elapsed is the one duration a panel shows: its call's local run when
// runnel runs it (none while it waits), else how long its item streamed.
func (p *panel) elapsed(now time.Time) time.Duration {
	if r := p.run; r != nil {
		return r.Elapsed(now)
	}
	return p.clock.elapsed(now)
}

// runStatus is the header of a call runnel runs: its run's state, in the
// style of how it went.
func runStatus(r toolrun.Run) panelStatus {
	st := stateInterrupted // stopped, denied, refused, skipped, unrecorded: nobody's error
	switch {
	case r.Phase != toolrun.RunEnded:
		st = stateRunning
	case r.Failed():
		st = stateFailed
	case r.Outcome == toolrun.StatusOK:
		st = stateDone
	}
	return panelStatus{text: r.State(), state: st, live: r.Phase == toolrun.RunRunning}
}

// renderTop draws the top edge: ╭─ icon title ───── status ─╮.
func (p *panel) renderTop(ctx Context, lk *look, st panelStatus) string {
	w := ctx.Width
	status := st.text
	if st.live {
		status = spinner(p.clock.start, ctx.Now) + " " + status
	}
	if d := p.elapsed(ctx.Now); d > 0 && p.spec.state == nil {
		status += " " + duration(d)
	}
	statusStyled := lk.state(st.state).Render(status)
	icon := lk.icon.Render(p.look.Icon)
	title := p.spec.title(p)
	if w < minFramed {
		return fit(icon+" "+lk.title.Render(title)+" "+statusStyled, max(w, 1))
	}
	fixed := 3 + ansi.StringWidth(p.look.Icon) + 1 + 1 + 1 + ansi.StringWidth(status) + 3
	room := w - fixed - 1 // at least one ─ of fill
	if room < 4 {
		statusStyled, fixed = "", fixed-ansi.StringWidth(status)-1
		room = w - fixed - 1
	}
	if strings.ContainsAny(title, `/\`) {
		title = fitPath(title, max(room, 1)) // an apply_patch path keeps its file name
	} else {
		title = ansi.Truncate(title, max(room, 1), "…")
	}
	fill := w - fixed - ansi.StringWidth(title)
	var b strings.Builder
	b.WriteString(lk.border.Render("╭─ "))
	b.WriteString(icon + " " + lk.title.Render(title) + " ")
	b.WriteString(lk.border.Render(strings.Repeat("─", max(fill, 1))))
	if statusStyled != "" {
		b.WriteString(" " + statusStyled)
	}
	b.WriteString(lk.border.Render(" ─╮"))
	return b.String()
}

// renderBody draws the sections inside the border and the bottom edge.
func (p *panel) renderBody(ctx Context, lk *look) string {
	p.cache.renders++
	framed := ctx.Width >= minFramed
	inner := ctx.Width
	if framed {
		inner = ctx.Width - 4
	}
	d := &drawer{p: p, ctx: ctx, lk: lk, width: max(inner, 1)}
	p.spec.body(p, d)
	rows := d.rows(p.expanded, p.running())
	if !framed {
		for i, r := range rows {
			rows[i] = fit(r, max(ctx.Width, 1))
		}
		return strings.Join(rows, "\n")
	}
	side := lk.border.Render("│")
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(side + " " + pad(fit(r, inner), inner) + " " + side + "\n")
	}
	b.WriteString(lk.border.Render("╰" + strings.Repeat("─", ctx.Width-2) + "╯"))
	return b.String()
}

// section is one part of a panel body: arguments, code, output, a list.
type section struct {
	label string   // a muted heading line, or ""
	lines []string // styled rows, each within the inner width
	tail  bool     // while the item runs, a capped section shows its last rows
	whole bool     // never capped (one-line facts, approval keys)
	note  string   // a muted row shown first, never capped: how much is not drawn
}

// drawer collects a panel's sections while its spec's body function runs.
type drawer struct {
	p     *panel
	ctx   Context
	lk    *look
	width int // inner width
	secs  []section
}

// add appends a section of styled rows.
func (d *drawer) add(s section) {
	if len(s.lines) > 0 {
		d.secs = append(d.secs, s)
	}
}

// text adds untrusted text, cleaned and wrapped, in the output style.
func (d *drawer) text(label, s string, tail bool) {
	s, skipped := tailOf(s)
	d.add(section{label: label, lines: paint(d.lk.output.Render, d.wrap(clean(s))), tail: tail || skipped > 0, note: d.skipped(skipped)})
}

// maxPanelText is the most of one panel text (arguments, input, code,
// output, a diff) that is drawn. A longer one, streaming perhaps without end,
// is drawn from its end (tailOf), so a frame's work and memory do not grow
// with it; the item keeps it whole.
const maxPanelText = 64 << 10

// tailOf returns the end of s that is drawn, and how many bytes before it
// are not. The start moves in steps of maxPanelText/2, to a line start, so a
// growing text keeps the same start (and its incremental render) for a while.
func tailOf(s string) (string, int) { return tailWithin(s, maxPanelText) }

// tailWithin is tailOf for a window of max bytes.
func tailWithin(s string, max int) (string, int) {
	if len(s) <= max {
		return s, 0
	}
	step := max / 2
	start := (len(s) - step) / step * step
	if i := strings.IndexByte(s[start:start+step/2], '\n'); i >= 0 {
		start += i + 1
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:], start
}

// skipped is the row saying that n bytes are not drawn, "" for none.
func (d *drawer) skipped(n int) string {
	if n == 0 {
		return ""
	}
	return d.lk.muted.Render(fit("⋯ "+stream.FormatBytes(n)+" above not drawn", d.width))
}

// line adds one styled fact row (cleaned by the caller), never capped.
func (d *drawer) line(s string) {
	d.add(section{lines: d.wrap(s), whole: true})
}

// lineWhole adds one styled fact row that must be read whole (a saved
// file's path): a path too long for a row is broken, never shortened.
func (d *drawer) lineWhole(s string) {
	d.add(section{lines: wrapPanel(s, d.width, false), whole: true})
}

// wrap breaks panel text into rows (wrapPanel): paths too long for a row
// are shortened while the panel is collapsed, whole once it is expanded.
func (d *drawer) wrap(s string) []string { return wrapPanel(s, d.width, !d.p.expanded) }

// args adds arguments: pretty-printed once they are complete JSON, raw while
// they stream.
func (d *drawer) args(label, s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	s, skipped := tailOf(s)
	pretty, ok := s, false
	if skipped == 0 {
		pretty, ok = prettyJSON(s)
	}
	d.add(section{label: label, lines: paint(d.lk.output.Render, d.wrap(clean(pretty))), tail: !ok, note: d.skipped(skipped)})
}

// rows lays the sections out, capping each at previewLines unless expanded.
func (d *drawer) rows(expanded, running bool) []string {
	var out []string
	for _, s := range d.secs {
		if s.label != "" {
			out = append(out, d.lk.label.Render(fit(s.label, d.width)))
		}
		if s.note != "" {
			out = append(out, s.note)
		}
		lines := s.lines
		if !expanded && !s.whole && len(lines) > previewLines {
			hidden := len(lines) - previewLines
			more := d.lk.muted.Render(fit("… "+plural(hidden, "more line", "more lines"), d.width))
			if s.tail && running {
				lines = append([]string{more}, lines[hidden:]...)
			} else {
				lines = append(lines[:previewLines:previewLines], more)
			}
		}
		out = append(out, lines...)
	}
	return out
}
