package output

import (
	"encoding/json"
	"io"
	"os"
	"slices"

	"golang.org/x/term"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// Formats lists the values --format accepts.
var Formats = slices.Clone(formats)

// Valid reports whether f names a format.
func Valid(f string) bool { return slices.Contains(formats, f) }

// Printer writes one output format.
type Printer struct{ p printer }

// Event is called after ev was applied; it is the item ev changed (or nil)
// and s the response it belongs to.
func (p Printer) Event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) { p.p.event(ev, s, it) }

// Response is called once per response, when it ends (terminal or cut off).
func (p Printer) Response(s *stream.Snapshot) { p.p.response(s) }

// Ran is called when runnel ran a function call of response s: the call's
// run (toolrun.Ended(r): how it ended, typed) goes to the format, and the
// text formats print the call's summary line then, with that outcome
// ("failed", "cancelled", "denied", "timed out"…) rather than the model's
// "completed"; ansi prints the call's panel with it.
func (p Printer) Ran(s *stream.Snapshot, r toolrun.Result) {
	if s == nil {
		return
	}
	for _, it := range s.Items {
		if it.Type == "function_call" && it.CallID == r.Call.CallID {
			p.p.ran(it, toolrun.Ended(r))
			return
		}
	}
}

// Close flushes anything pending.
func (p Printer) Close() { p.p.close() }

// New returns the printer for format: "" is ansi on a terminal, else
// markdown. width is ansi's wrap width (0: the terminal's, else 100).
// Generated images go to sink: ansi's panels hand theirs to it (and say
// where, or why not); with save, the formats that draw no image panel write
// each final image there and say where on stderr.
func New(format string, stdout, stderr io.Writer, width int, sink images.Sink, save bool) Printer {
	p := formatPrinter(format, stdout, stderr, width, sink)
	if _, ansi := p.p.(ansiPrinter); save && !ansi {
		return Printer{&imagePrinter{printer: p.p, sink: sink, stderr: stderr, saved: map[*stream.Item]bool{}}}
	}
	return p
}

// formatPrinter is the printer of the output format.
func formatPrinter(format string, stdout, stderr io.Writer, width int, sink images.Sink) Printer {
	if format == "" {
		format = formatMarkdown
		if isTerminal(stdout) {
			format = formatANSI
		}
	}
	switch format {
	case formatJSON:
		enc := json.NewEncoder(jsonSafeWriter{stdout})
		enc.SetEscapeHTML(false)
		return Printer{&jsonPrinter{enc: enc}}
	case formatEvents:
		enc := json.NewEncoder(jsonSafeWriter{stdout})
		enc.SetEscapeHTML(false)
		return Printer{&eventsPrinter{enc: enc}}
	case formatText:
		return Printer{newTextPrinter(stdout, stderr, true)}
	case formatANSI:
		return Printer{newANSIPrinter(stdout, stderr, width, sink)}
	}
	return Printer{newTextPrinter(stdout, stderr, false)}
}

// JSONSafe wraps w so that C1 control characters in the JSON written
// through it are escaped.
func JSONSafe(w io.Writer) io.Writer { return jsonSafeWriter{w} }

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
