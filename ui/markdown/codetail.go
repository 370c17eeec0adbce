package markdown

import (
	"errors"
	"strings"
)

// codeTail renders a tail that is an open fenced code block at column 0
// line by line: completed lines are highlighted once, in batches, and their
// rows kept; only the partial last line is rendered on every frame. Each
// batch is rendered by glamour inside the block's own fence, so indentation,
// wrapping and colours match the whole-block render; only tokens that span
// lines (block comments, multi-line strings) may be coloured differently
// until the fence closes and the block is rendered whole.
//
// Invariants:
//   - active only while src[start:] begins with the opener line and that
//     fence is still open (scanner.fence with scanner.fenceAt == start).
//   - body holds the rows of src[bodyAt:done], each ending in "\n"; done is
//     a line start.
//   - lead and trail are the fragment's bytes before the first and after
//     the last code row, learnt from a one-line render of the same fence.
type codeTail struct {
	active bool
	start  int    // offset of the opener line
	opener string // the opener line
	closer string // fence run that closes it in batch renders
	done   int    // offset after the last line rendered into body
	body   strings.Builder
	lead   string
	trail  string
}

// errFraming means a batch render did not have the fence's usual frame.
var errFraming = errors.New("render code: unexpected code block framing")

// render returns the tail's fragment if the fast path applies.
func (c *codeTail) render(s *Stream, src string) (string, bool) {
	sc := &s.sc
	if sc.fence.ch == 0 || sc.fenceAt != s.segStart {
		c.active = false
		return "", false
	}
	if !c.active || c.start != s.segStart {
		if !c.begin(s.r, src, s.segStart, sc.fence) {
			return "", false
		}
	}
	if sc.pos > c.done { // lines the scanner has passed are complete
		out, err := c.lines(s.r, src[c.done:sc.pos])
		if err != nil {
			s.noteErr(err)
			c.active = false
			return "", false
		}
		c.body.WriteString(out)
		c.done = sc.pos
	}
	var last string
	if partial := src[sc.pos:]; partial != "" && !isCloser(partial, sc.fence) {
		out, err := c.lines(s.r, partial+"\n")
		if err != nil {
			s.noteErr(err)
			c.active = false
			return "", false
		}
		last = out
	}
	if c.body.Len() == 0 && last == "" {
		return "", false // only the opener so far: render it whole
	}
	var b strings.Builder
	b.Grow(len(c.lead) + c.body.Len() + len(last) + len(c.trail))
	b.WriteString(c.lead)
	b.WriteString(c.body.String())
	b.WriteString(last)
	b.WriteString(c.trail)
	return b.String(), true
}

// begin starts the fast path for the fence opened at start, once its opener
// line is complete.
func (c *codeTail) begin(r *Renderer, src string, start int, f fence) bool {
	nl := strings.IndexByte(src[start:], '\n')
	if nl < 0 || src[start] != f.ch {
		return false // opener incomplete, or indented: render whole
	}
	opener := src[start : start+nl]
	closer := strings.Repeat(string(f.ch), f.n)
	frag, err := r.block("", opener+"\n"+probe+"\n"+closer+"\n")
	if err != nil {
		return false
	}
	i := strings.Index(frag, probe)
	if i < 0 {
		return false
	}
	rowStart := strings.LastIndexByte(frag[:i], '\n') + 1
	rowEnd := strings.IndexByte(frag[i:], '\n')
	if rowEnd < 0 {
		return false
	}
	c.reset()
	c.active, c.start, c.opener, c.closer = true, start, opener, closer
	c.done = start + nl + 1
	c.lead, c.trail = frag[:rowStart], frag[i+rowEnd+1:]
	return true
}

// lines renders complete code lines and returns their rows.
func (c *codeTail) lines(r *Renderer, lines string) (string, error) {
	frag, err := r.block("", c.opener+"\n"+lines+c.closer+"\n")
	if err != nil {
		return "", err
	}
	if len(frag) < len(c.lead)+len(c.trail) ||
		!strings.HasPrefix(frag, c.lead) || !strings.HasSuffix(frag, c.trail) {
		return "", errFraming
	}
	return frag[len(c.lead) : len(frag)-len(c.trail)], nil
}

// reset drops everything rendered.
func (c *codeTail) reset() {
	c.active = false
	c.body.Reset()
	c.lead, c.trail, c.opener, c.closer = "", "", "", ""
}
