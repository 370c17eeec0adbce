package block

import (
	"io"
	"strings"
	"time"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/theme"
)

// Printer writes a stream as styled text to a plain writer (--format ansi):
// one turn.
// no cursor movement, so the output scrolls and pipes. Each message is
// printed progressively, one settled markdown block at a time, one event
// after the text that settled it, so that its citations are in (a block is
// never re-rendered once printed); every other item prints its panel once,
// when it is done, but for the hosted searches (Grouped), which print as one
// line (Hosted) before the next thing printed, and reasoning with nothing to
// show, whose time the Thinking line gives once; a response that ends
// prints what is left and a notice if it failed, stopped early or was cut
// off.
//
// Invariants:
//   - msgs[it].done is the length of it's raw text already printed; text is
//     only ever printed once.
//   - shown[it] is true once an item's panel or message tail was printed.
type Printer struct {
	out    printOut // where the lines go (printout.go)
	width  int
	styles *theme.Styles
	now    func() time.Time // the clock for panel durations; a field so tests can fix it
	md     *Renderers
	images images.Sink // where image generation results go; nil writes none

	blocks map[*stream.Item]ItemBlock
	msgs   map[*stream.Item]*printing
	order  []*stream.Item // messages in the order they began
	shown  map[*stream.Item]bool

	calls heldCalls        // the calls whose panel waits for their run (printheld.go)
	resp  *stream.Snapshot // the response of the last event
	waits printWaits       // the lines that wait for the next thing printed (printout.go)
}

// printing is a message being printed block by block.
type printing struct {
	done int        // bytes of the raw text printed
	seen int        // bytes of the raw text at the previous event: what may be printed now
	cuts cutScanner // finds where the settled blocks after done end
}

// NewPrinter returns a Printer writing to out at width columns (80 if width
// is not positive) with styles st.
func NewPrinter(out io.Writer, width int, st *theme.Styles) *Printer {
	if width <= 0 {
		width = 80
	}
	return &Printer{
		out: printOut{w: out}, width: width, styles: st, now: time.Now, md: NewRenderers(),
		blocks: map[*stream.Item]ItemBlock{},
		msgs:   map[*stream.Item]*printing{},
		shown:  map[*stream.Item]bool{},
		calls:  heldCalls{ran: map[*stream.Item]bool{}},
		waits:  printWaits{thinking: NewThinking()},
	}
}

// SetImages sets where generated images are written (nil: nowhere; the
// panel says so).
func (p *Printer) SetImages(s images.Sink) { p.images = s }

// Note returns the note of markdown drawn as plain text, if any
// (Renderers.Note).
func (p *Printer) Note() string { return p.md.Note() }

func (p *Printer) ctx() Context {
	return Context{Width: p.width, Styles: p.styles, Now: p.now(), Markdown: p.md}
}

// Event takes one event after the accumulator applied it: it is the item ev
// changed (nil for response-level events) and s its response.
func (p *Printer) Event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) {
	if s != p.resp {
		p.resp = s
		p.flushHeld()
	}
	if it == nil || p.shown[it] {
		return
	}
	if it.Type == "message" {
		p.message(it, it.Done)
		return
	}
	b := p.block(it)
	b.Update(p.now())
	if it.Done && it.Type != "compaction" { // a compaction waits for the usage its panel shows
		p.panel(it, b)
	}
}

// Response takes a response that ended (terminal event or cut off): the
// rest of every item is printed, then a notice if it did not complete.
func (p *Printer) Response(s *stream.Snapshot) {
	for _, it := range s.Items {
		if p.shown[it] {
			continue
		}
		if it.Type == "message" {
			p.message(it, true)
			continue
		}
		b := p.block(it)
		b.Update(p.now())
		b.End(p.now())
		if c, ok := b.(Compaction); ok && s.Usage != nil {
			c.SetTokens(s.Usage.InputTokens, 0)
		}
		p.panel(it, b)
	}
	for _, n := range responseNotices(s) {
		p.print(n.Render(p.ctx()))
	}
	p.flush()
}

// Close prints whatever is still pending: messages of a response that never
// ended.
func (p *Printer) Close() {
	p.flushHeld()
	for _, it := range p.order {
		if !p.shown[it] {
			p.message(it, true)
		}
	}
	p.flush()
}

func (p *Printer) block(it *stream.Item) ItemBlock {
	b, ok := p.blocks[it]
	if !ok {
		b = ForItem(it, p.now())
		p.blocks[it] = b
		p.waits.thinking.Join(b)
	}
	return b
}

// Ran takes a function call that runnel ran, and how its run ended: its
// panel is printed now, its header saying so.
func (p *Printer) Ran(it *stream.Item, r toolrun.Run) {
	p.calls.ran[it] = true
	if h, ok := p.block(it).(RunHolder); ok {
		h.SetRun(r)
	}
	if p.calls.release(it) {
		p.print(p.block(it).Render(p.ctx()))
		delete(p.blocks, it)
	}
}

// flushHeld prints the held panels of calls that were not run.
func (p *Printer) flushHeld() {
	for _, it := range p.calls.releaseAll() {
		p.print(p.block(it).Render(p.ctx()))
		delete(p.blocks, it)
	}
}

// panel prints an item's block once, saving its image first if it has one.
// A function call runnel may run is held until it ran (Ran).
func (p *Printer) panel(it *stream.Item, b ItemBlock) {
	if p.calls.hold(it) {
		p.shown[it] = true
		return
	}
	if Grouped(it) {
		p.waits.group(b)
		p.shown[it] = true
		return
	}
	if s, ok := b.(ImageSaver); ok {
		if save := s.SaveImage(p.images); save != nil {
			s.ImageSaved(save())
		}
	}
	p.print(b.Render(p.ctx()))
	p.shown[it] = true
	delete(p.blocks, it)
}

// message prints the settled blocks of a message not printed yet, or, when
// final, all the rest with the refusal and the sources.
func (p *Printer) message(it *stream.Item, final bool) {
	pm := p.msgs[it]
	if pm == nil {
		pm = &printing{}
		p.msgs[it] = pm
		p.order = append(p.order, it)
	}
	text, refusal, parts := splitParts(it.Content)
	if pm.done > len(text) {
		pm.done = len(text) // a .done value rewrote printed text: print what follows it
	}
	// A block is printed one event after the text that ended it came: the
	// annotations of a delta (its citations) follow it.
	seen := min(pm.seen, len(text))
	pm.seen = len(text)
	end := len(text)
	if !final {
		end = pm.cuts.cut(text[:seen], pm.done)
	}
	if end > pm.done {
		r := citations(parts)
		chunk := r.Chunk(pm.done, end, final).Marked(text[pm.done:end], markerText)
		pm.done = end
		if src := strings.TrimSpace(clean(chunk)); src != "" {
			p.print(p.markdown(it, src))
		}
	}
	if !final {
		return
	}
	p.shown[it] = true
	m := &message{it: it, refusal: clean(refusal), refs: citations(parts)}
	if tail := m.decorate("", p.width, p.md.look(p.styles)); tail != "" {
		p.print(tail)
	}
}

// markdown renders one chunk of a message.
func (p *Printer) markdown(it *stream.Item, src string) string {
	out := renderWhole(p.md.get(p.styles, p.width, false), src, p.width)
	if it.Phase == "commentary" {
		m := &message{it: it}
		return m.decorate(out, p.width, p.md.look(p.styles))
	}
	return out
}

// print writes one block, with a blank line before it if something came
// before, and first, once, the line of the reasoning before it that had
// nothing to show (Thinking), when that reasoning is over.
func (p *Printer) print(s string) {
	if p.out.err != nil || s == "" {
		return
	}
	p.flush()
	p.out.write(s)
}

// flush prints what waits for the next thing printed (printWaits).
func (p *Printer) flush() { p.waits.flush(p.ctx, &p.out) }

// responseNotices are the notices a finished response calls for: failed,
// error events, incomplete, cut off.
func responseNotices(s *stream.Snapshot) []Block {
	var out []Block
	if s.Error != nil {
		msg := s.Error.Message
		if s.Error.Code != "" {
			msg = s.Error.Code + ": " + msg
		}
		out = append(out, NewNotice(Error, "response failed: "+msg))
	} else if s.Status == "failed" {
		out = append(out, NewNotice(Error, "response failed"))
	}
	if s.Status == "incomplete" {
		out = append(out, NewNotice(Warning, stream.IncompleteText(s.IncompleteDetails)))
	}
	switch {
	case s.Truncated:
		out = append(out, NewNotice(Warning, "cut off: the response passed the most text runnel keeps of one (max_response_bytes)"))
	case s.CutOff:
		out = append(out, NewNotice(Warning, stream.CutOffNote))
	}
	return out
}
