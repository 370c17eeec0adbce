package output

// This file holds the one-shot and replay output formats. Every format reads
// the same things: events as they arrive (with the item they changed) and each
// response when it ends. None of them lets a control sequence from the stream
// reach the terminal.

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"unicode/utf8"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/stream/cite"
	"runnel/ui/itemlook"
)

// Formats, as given to --format.
const (
	formatANSI     = "ansi"
	formatMarkdown = "markdown"
	formatText     = "text"
	formatJSON     = "json"
	formatEvents   = "events"
)

var formats = []string{formatANSI, formatMarkdown, formatText, formatJSON, formatEvents}

// printer writes one output format.
type printer interface {
	// event is called after ev was applied; it is the item ev changed (or nil)
	// and s the response it belongs to.
	event(ev *stream.Event, s *stream.Snapshot, it *stream.Item)
	// response is called once per response, when it ends (terminal or cut off).
	response(s *stream.Snapshot)
	// ran is called when runnel ran the call it; r says how the run ended.
	ran(it *stream.Item, r toolrun.Run)
	// close flushes anything pending.
	close()
}

// textPrinter streams answer text as it arrives. In markdown mode side
// information (reasoning, tools, MCP) goes to stderr as one-line summaries; in
// text mode it goes inline to stdout, so the output is a plain transcript.
//
// It writes message deltas from the events themselves, so it works with an
// accumulator that keeps no delta text (DropText): what it remembers of a
// message is how many bytes it wrote and their checksum, never the text.
// Whole values (a .done text, the item, the terminal response) print only
// what follows the text already written, when they start with it.
type textPrinter struct {
	out, side io.Writer
	inline    bool
	// per response: which items already printed their summary, what was
	// written of each message, the start of each reasoning item
	written  map[*stream.Item]*writtenText
	summed   map[*stream.Item]bool
	lead     map[*stream.Item]string
	lastItem *stream.Item
	endsNL   bool
	// held are the function calls whose summary waits for runnel to run
	// them (ran), so that it says how the call ended rather than that the
	// model finished writing it; the next response or close prints the
	// ones that were not run.
	held []*stream.Item
	runs map[*stream.Item]*toolrun.Run // how runnel's runs of the calls ended (ran)
	resp *stream.Snapshot              // the response of the last event
	// searches are the finished hosted searches since the last thing
	// written: they are written as one line (cite.go) before the next.
	searches []*stream.Item
}

// writtenText is what a textPrinter took of one message: n bytes of its raw
// text, with checksum sum, all written but the short tail held. stuck is set when a whole value rewrote text
// already printed: it cannot be unprinted, so nothing more is written for
// the item (the json format has the authoritative text).
type writtenText struct {
	n     int
	runes int  // code points of the raw text written (n less what is held), where the next chunk's citations count from
	cited bool // the Sources list was written
	sum   uint32
	stuck bool
	held  string // received but not yet written: it may clean differently once more arrives (stream.SettledLen)
}

// maxLead is how much of a reasoning item's streamed text a textPrinter keeps
// for its summary line, when no whole value names it.
const maxLead = 512

func newTextPrinter(out, errw io.Writer, inline bool) *textPrinter {
	p := &textPrinter{out: out, side: errw, inline: inline, written: map[*stream.Item]*writtenText{}, summed: map[*stream.Item]bool{}, lead: map[*stream.Item]string{}, runs: map[*stream.Item]*toolrun.Run{}, endsNL: true}
	if inline {
		p.side = out
	}
	return p
}

func (p *textPrinter) event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) {
	if s != p.resp {
		p.resp = s
		p.flushHeld()
	}
	if it == nil {
		return
	}
	switch {
	case it.Type == "message" && (ev.Kind == stream.KindTextDelta || ev.Kind == stream.KindRefusalDelta):
		p.writeText(it, ev.Delta, false)
		return
	case it.Type == "message":
		p.flushText(it, it.Done)
		return
	case ev.Kind == stream.KindSummaryDelta || ev.Kind == stream.KindReasoningDelta:
		if l := p.lead[it]; len(l) < maxLead {
			p.lead[it] = l + ev.Delta[:min(len(ev.Delta), maxLead-len(l))]
		}
	}
	if it.Done && !p.summed[it] {
		if cite.Grouped(it) {
			p.search(it)
			return
		}
		p.sum(it)
	}
}

// sum prints the summary of it, or holds it when runnel may run the call.
func (p *textPrinter) sum(it *stream.Item) {
	p.summed[it] = true
	if it.Type == "function_call" && it.CallID != "" && p.runs[it] == nil {
		p.held = append(p.held, it)
		return
	}
	p.line(summaryLine(it, p.runs[it], p.lead[it]))
}

func (p *textPrinter) ran(it *stream.Item, r toolrun.Run) {
	p.runs[it] = &r
	for i, h := range p.held {
		if h == it {
			p.held = append(p.held[:i], p.held[i+1:]...)
			p.line(summaryLine(it, &r, p.lead[it]))
			return
		}
	}
}

// flushHeld prints the held summaries of calls that were not run.
func (p *textPrinter) flushHeld() {
	for _, it := range p.held {
		p.line(summaryLine(it, p.runs[it], p.lead[it]))
	}
	p.held = nil
}

// writeText writes the next piece of a message's raw text. Until the item
// is final, a tail that text still to come may change the cleaning of (half
// a flag, a word with a joiner) is held back.
func (p *textPrinter) writeText(it *stream.Item, raw string, final bool) {
	w := p.written[it]
	if w == nil {
		w = &writtenText{}
		p.written[it] = w
	}
	if w.stuck {
		return
	}
	w.n += len(raw)
	w.sum = crc32.Update(w.sum, crc32.IEEETable, []byte(raw))
	pending := w.held + raw
	n := len(pending)
	if !final {
		n = holdLinks(pending[:stream.SettledLen(pending)])
	}
	w.held = pending[n:]
	if n == 0 {
		return
	}
	p.endSearches()
	if p.lastItem != it && !p.endsNL {
		io.WriteString(p.out, "\n")
	}
	chunk := refsOf(it, pending[:n], w.runes).Marked(pending[:n], cite.Plain(!p.inline))
	w.runes += utf8.RuneCountInString(pending[:n])
	chunk = stream.Sanitize(cite.DropTrackingIn(chunk))
	io.WriteString(p.out, chunk)
	p.lastItem = it
	if chunk != "" {
		p.endsNL = strings.HasSuffix(chunk, "\n")
	}
}

// flushText writes the part of a message's whole text not yet written, when
// it starts with what was written.
// final writes what was held back too.
func (p *textPrinter) flushText(it *stream.Item, final bool) {
	text := it.Text()
	w := p.written[it]
	switch {
	case w == nil:
		p.writeText(it, text, final)
	case w.stuck:
	case len(text) <= w.n:
		p.writeText(it, "", final)
	case crc32.ChecksumIEEE([]byte(text[:w.n])) != w.sum:
		w.stuck = true
	default:
		p.writeText(it, text[w.n:], final)
	}
	if w = p.written[it]; final && w != nil && !w.stuck && !w.cited {
		w.cited = true
		p.writeSources(it)
	}
}

func (p *textPrinter) line(s string) {
	if s == "" {
		return
	}
	p.endSearches()
	if p.side == p.out && !p.endsNL {
		io.WriteString(p.out, "\n")
	}
	fmt.Fprintln(p.side, s)
	if p.side == p.out {
		p.endsNL, p.lastItem = true, nil
	}
}

func (p *textPrinter) response(s *stream.Snapshot) {
	for _, it := range s.Items {
		if it.Type == "message" {
			p.flushText(it, true)
		} else if !p.summed[it] {
			p.sum(it)
		}
	}
	p.endSearches()
	if !p.endsNL {
		io.WriteString(p.out, "\n")
		p.endsNL = true
	}
}

func (p *textPrinter) close() {
	p.endSearches()
	p.flushHeld()
}

// summaryLine is the item's one-line summary from its type's look
// (ui/itemlook), or "" for an item its look leaves quiet when it has no
// text (encrypted reasoning). run is how runnel's run of the call ended,
// nil for an item it did not run; lead is the start of its streamed text,
// for reasoning whose text the accumulator did not keep (DropText).
func summaryLine(it *stream.Item, run *toolrun.Run, lead string) string {
	look := itemlook.For(it.Type)
	empty := stream.KindFor(it.Type).Text(it).Empty()
	if empty && lead != "" && it.Type == "reasoning" {
		line := stream.SanitizeLine(lead)
		if r := []rune(line); len(r) > 120 {
			line = string(r[:119]) + "…"
		}
		return "• reasoning: " + line
	}
	if look.Quiet && empty {
		return ""
	}
	return look.Summary(it, run)
}

// jsonPrinter writes one OpenAI-shaped JSON object per response.
type jsonPrinter struct{ enc *json.Encoder }

func (p *jsonPrinter) event(*stream.Event, *stream.Snapshot, *stream.Item) {}
func (p *jsonPrinter) ran(*stream.Item, toolrun.Run)                       {}
func (p *jsonPrinter) close()                                              {}

func (p *jsonPrinter) response(s *stream.Snapshot) {
	output := make([]json.RawMessage, 0, len(s.Items))
	for _, it := range s.Items {
		output = append(output, it.JSON())
	}
	obj := struct {
		ID                string            `json:"id"`
		Object            string            `json:"object"`
		Status            string            `json:"status"`
		Model             string            `json:"model"`
		Output            []json.RawMessage `json:"output"`
		Usage             *stream.Usage     `json:"usage"`
		Error             *stream.ErrorInfo `json:"error"`
		IncompleteDetails json.RawMessage   `json:"incomplete_details"`
		CutOff            bool              `json:"cut_off,omitempty"`
	}{s.ID, "response", s.Status, s.Model, output, s.Usage, s.Error, s.IncompleteDetails, s.CutOff}
	if obj.IncompleteDetails == nil {
		obj.IncompleteDetails = json.RawMessage("null")
	}
	p.enc.Encode(obj)
}

// eventsPrinter writes every normalized event as a JSON line.
type eventsPrinter struct{ enc *json.Encoder }

func (p *eventsPrinter) response(*stream.Snapshot)     {}
func (p *eventsPrinter) ran(*stream.Item, toolrun.Run) {}
func (p *eventsPrinter) close()                        {}

func (p *eventsPrinter) event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) {
	p.enc.Encode(normalize(ev))
}

// normalize is an event as a flat JSON object with only the fields it uses.
func normalize(ev *stream.Event) map[string]any {
	m := map[string]any{"n": ev.Num, "offset": ev.Offset, "type": ev.Type, "kind": ev.Kind.String()}
	if ev.HasSeq {
		m["sequence_number"] = ev.Seq
	}
	if ev.HasIndex {
		m["output_index"] = ev.OutputIndex
	}
	if ev.ItemID != "" {
		m["item_id"] = ev.ItemID
	}
	switch ev.Kind {
	case stream.KindSummaryDelta, stream.KindSummaryDone, stream.KindSummaryPartAdded, stream.KindSummaryPartDone:
		m["summary_index"] = ev.SummaryIndex
	case stream.KindTextDelta, stream.KindTextDone, stream.KindRefusalDelta, stream.KindRefusalDone,
		stream.KindReasoningDelta, stream.KindReasoningDone, stream.KindPartAdded, stream.KindPartDone, stream.KindAnnotationAdded:
		m["content_index"] = ev.ContentIndex
	}
	if ev.Kind.IsDelta() {
		m["delta"] = ev.Delta
	}
	if ev.DeltaRaw != nil {
		m["delta"] = ev.DeltaRaw
	}
	if ev.HasText {
		m["text"] = ev.Text
	}
	if ev.Status != "" {
		m["status"] = ev.Status
	}
	if ev.Item != nil {
		m["item"] = ev.Item.JSON()
	}
	if ev.Part != nil && ev.Part.Raw != nil {
		m["part"] = ev.Part.Raw
	}
	if ev.Annotation != nil {
		m["annotation"] = ev.Annotation
	}
	if ev.Response != nil {
		m["response"] = map[string]any{"id": ev.Response.ID, "status": ev.Response.Status, "model": ev.Response.Model, "usage": ev.Response.Usage, "error": ev.Response.Error, "output_items": len(ev.Response.Output)}
	}
	if ev.Error != nil {
		m["error"] = ev.Error
	}
	if ev.Kind == stream.KindUnknown && json.Valid(ev.Raw) {
		m["raw"] = ev.Raw
	}
	if ev.Err != nil {
		m["problem"] = ev.Err.Error()
	}
	return m
}

// imagePrinter writes the final image of every image generation call when
// --save-images asks, for the formats that draw no image panel, and says on
// stderr where it went.
type imagePrinter struct {
	printer
	sink   images.Sink
	stderr io.Writer
	saved  map[*stream.Item]bool
}

func (p *imagePrinter) response(s *stream.Snapshot) {
	p.printer.response(s)
	for _, it := range s.Items {
		name, data, ok := images.Final(it)
		if !ok || p.saved[it] {
			continue
		}
		p.saved[it] = true
		if path, err := images.Write(p.sink, name, data); err != nil {
			fmt.Fprintf(p.stderr, "runnel: image not saved: %s\n", stream.SanitizeLine(err.Error()))
		} else {
			fmt.Fprintf(p.stderr, "runnel: image saved: %s\n", stream.SanitizeLine(path))
		}
	}
}

// StreamsText reports whether a replay format prints message text as it
// passes and needs no snapshot of it: text, markdown and events. Their
// accumulator drops delta text (stream.Accumulator.DropText), so a replay of
// any length runs in bounded memory; ansi and json keep the text, bounded by
// the limit.
func StreamsText(format string) bool {
	switch format {
	case "", formatText, formatMarkdown, formatEvents: // "" off a terminal is markdown
		return true
	}
	return false
}
