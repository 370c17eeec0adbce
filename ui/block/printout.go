package block

import "io"

// printOut is where a Printer's lines go.
//
// Invariants:
//   - gap is true once something was written, so the next block gets a
//     blank line before it.
//   - err is the first write error; nothing is written after it.
type printOut struct {
	w   io.Writer
	gap bool
	err error
}

// write writes one block and its newline, after a blank line if something
// came before.
func (o *printOut) write(s string) {
	if o.err != nil {
		return
	}
	if o.gap {
		s = "\n" + s
	}
	o.gap = true
	_, o.err = io.WriteString(o.w, s+"\n")
}

// printWaits holds the lines a Printer prints before the next thing it
// prints: the Thinking line, once, when no reasoning it counts runs any
// more, and the one line of the hosted searches done since the last thing
// printed (Grouped).
//
// Invariants:
//   - thinking counts the reasoning with nothing to show; thought is true
//     once its line was printed, which it never is again.
//   - hosted is nil, or holds the searches not printed yet.
type printWaits struct {
	thinking *Thinking
	thought  bool
	hosted   *Hosted
}

// group adds a hosted search to the line that waits.
func (w *printWaits) group(b ItemBlock) {
	if w.hosted == nil {
		w.hosted = NewHosted()
	}
	w.hosted.Add(b)
}

// flush writes to out the lines that are due: the Thinking line (once, when
// no reasoning it counts runs) and the line of the hosted searches since
// the last thing printed. ctx is asked only for a line that is drawn.
func (w *printWaits) flush(ctx func() Context, out *printOut) {
	if !w.thought && !w.thinking.Live() {
		if line := w.thinking.Render(ctx()); line != "" {
			w.thought = true
			out.write(line)
		}
	}
	if h := w.hosted; h != nil {
		w.hosted = nil
		out.write(h.Render(ctx()))
	}
}
