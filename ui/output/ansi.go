package output

// This file is the styled format, --format ansi: the chat's own blocks
// (package ui/block), printed as the stream goes.

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// ansiPrinter adapts the chat's block printer to an output format.
type ansiPrinter struct {
	p      *block.Printer
	stderr io.Writer // where the markdown note goes (block.Printer.Note)
}

func (a ansiPrinter) event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) {
	a.p.Event(ev, s, it)
}
func (a ansiPrinter) response(s *stream.Snapshot) { a.p.Response(s) }
func (a ansiPrinter) close() {
	a.p.Close()
	if n := a.p.Note(); n != "" {
		fmt.Fprintf(a.stderr, "runnel: %s\n", n)
	}
}

func (a ansiPrinter) ran(it *stream.Item, r toolrun.Run) { a.p.Ran(it, r) }

// newANSIPrinter is the styled format, drawn by the same blocks as the chat.
func newANSIPrinter(stdout, stderr io.Writer, width int, sink images.Sink) printer {
	dark := true
	f, isFile := stdout.(*os.File)
	if isFile && isTerminal(f) {
		dark = theme.DetectDark(os.Stdin, f)
		if width == 0 {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil {
				width = w
			}
		}
	}
	if width <= 0 {
		width = 100
	}
	st := theme.New(theme.Pick(dark, os.Getenv("NO_COLOR") != "", ""))
	p := block.NewPrinter(stdout, width, &st)
	p.SetImages(sink)
	return ansiPrinter{p, stderr}
}
