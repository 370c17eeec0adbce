package markdown

import (
	"errors"
	"strings"
	"sync"
)

// codeTail renders a tail that is a fenced code block opened at column 0
// line by line: completed lines are highlighted once, in batches, and their
// rows kept; only the partial last line is rendered again on every frame,
// in the same glamour call as the batch (a stand-in code line separates
// their rows). Each batch is rendered inside the block's own fence, so
// indentation, wrapping and colours match the whole-block render; only
// tokens that span lines (block comments, multi-line strings) may be
// coloured differently. When the closing fence arrives the block keeps
// these rows (same text, no jump) and becomes a settled block; the
// whole-message render at Finish re-colours such tokens.
//
// Invariants:
//   - active only while src[start:] begins with the opener line and the
//     scanner's fence opened there (scanner.fenceAt == start); closed once
//     the scanner has passed its closing fence, and then frag is final.
//   - body holds the rows of the code lines before done, each ending in
//     "\n"; done is a line start.
//   - lead and trail are the fragment's bytes before the first and after
//     the last code row, learnt from a one-line render of the same fence.
type codeTail struct {
	active bool
	start  int    // offset of the opener line
	opener string // the opener line
	closer string // fence run that closes it in batch renders
	done   int    // offset after the last line rendered into body
	body   strings.Builder
	closed bool   // the closing fence has arrived; frag is final
	end    int    // offset after the closing fence line
	frag   string // the whole block's fragment, once closed
	lead   string
	trail  string
}

// errFraming means a batch render did not have the fence's usual frame.
var errFraming = errors.New("render code: unexpected code block framing")

// render returns the tail's fragment if the fast path applies.
func (c *codeTail) render(s *Stream, src string) (string, bool) {
	sc := &s.sc
	if sc.fence.ch == 0 && c.active && c.start == s.segStart && sc.fenceAt == c.start {
		return c.closeFence(s, src)
	}
	if sc.fence.ch == 0 || sc.fenceAt != s.segStart {
		c.active = false
		return "", false
	}
	if !c.active || c.start != s.segStart {
		if !c.begin(s.r, src, s.segStart, sc.fence) {
			return "", false
		}
	}
	batch := src[c.done:sc.pos] // lines the scanner has passed are complete
	partial := src[sc.pos:]
	if isCloser(partial, sc.fence) {
		partial = "" // a closing fence shows nothing
	}
	if batch == "" && partial == "" && c.body.Len() == 0 {
		return "", false // only the opener so far: render it whole
	}
	last, err := c.update(s.r, batch, partial)
	if err != nil {
		s.noteErr(err)
		c.reset()
		return "", false
	}
	c.done = sc.pos
	var b strings.Builder
	b.Grow(len(c.lead) + c.body.Len() + len(last) + len(c.trail))
	b.WriteString(c.lead)
	b.WriteString(c.body.String())
	b.WriteString(last)
	b.WriteString(c.trail)
	return b.String(), true
}

// update renders the newly completed lines batch into body and the partial
// line, in one glamour call with a stand-in code line between them, and
// returns the partial line's rows.
func (c *codeTail) update(r *Renderer, batch, partial string) (string, error) {
	if batch == "" && partial == "" {
		return "", nil
	}
	var b strings.Builder
	b.WriteString(c.opener + "\n" + batch)
	if partial != "" {
		b.WriteString(itemMark + "\n" + partial + "\n")
	}
	b.WriteString(c.closer + "\n")
	frag, err := r.block("", b.String())
	if err != nil {
		return "", err
	}
	if len(frag) < len(c.lead)+len(c.trail) ||
		!strings.HasPrefix(frag, c.lead) || !strings.HasSuffix(frag, c.trail) {
		return "", errFraming
	}
	frag = frag[len(c.lead) : len(frag)-len(c.trail)]
	if partial == "" {
		c.body.WriteString(frag)
		return "", nil
	}
	lo, hi := rowStart(frag, 0), rowAfter(frag, 0)
	if lo < 0 || hi < 0 || strings.Count(frag, itemMark) != 1 {
		return "", errFraming
	}
	c.body.WriteString(frag[:lo])
	return frag[hi:], nil
}

// closeFence renders the tail once the block's closing fence has arrived:
// the block keeps its line-by-line rendering (same text; multi-line tokens
// are re-coloured by the whole-message render at Finish), and whatever
// follows the closing fence is rendered on its own.
func (c *codeTail) closeFence(s *Stream, src string) (string, bool) {
	if !c.finish(s, src) {
		return "", false
	}
	rest := src[c.end:]
	if s.partialDef(src) {
		rest = rest[:len(rest)-(len(src)-s.sc.pos)]
	}
	if trimBlankLines(rest) == "" {
		return c.frag, true
	}
	out, err := s.r.block(s.defs.prefix(labelsIn(rest)), rest)
	if err != nil {
		s.noteErr(err)
		out = plainFragment(rest)
	}
	return c.frag + out, true
}

// finish renders the lines left before the closing fence, once it has
// arrived, and fixes the block's fragment. It reports whether frag is set.
func (c *codeTail) finish(s *Stream, src string) bool {
	sc := &s.sc
	if c.closed {
		return true
	}
	if !c.active || sc.fence.ch != 0 || sc.fenceAt != c.start || sc.closedAt < c.done {
		return false
	}
	if _, err := c.update(s.r, src[c.done:sc.closedAt], ""); err != nil {
		s.noteErr(err)
		c.reset()
		return false
	}
	c.done, c.closed, c.end = sc.closedAt, true, sc.closedEnd
	c.frag = c.lead + c.body.String() + c.trail
	return true
}

// compose returns the fragment of a settled block src[start:end] that is
// the closed fence and blank lines.
func (c *codeTail) compose(s *Stream, src string, start, end int) (string, bool) {
	if c.start != start || !c.finish(s, src) || c.end > end || trimBlankLines(src[c.end:end]) != "" {
		return "", false
	}
	return c.frag, true
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
	fr, ok := r.fences.frame(r, opener, closer)
	if !ok {
		return false
	}
	c.reset()
	c.active, c.start, c.opener, c.closer = true, start, opener, closer
	c.done = start + nl + 1
	c.lead, c.trail = fr.lead, fr.trail
	return true
}

// fenceFrame is the fragment bytes around the code rows of a fence.
type fenceFrame struct{ lead, trail string }

// maxFenceFrames bounds fenceFrames: distinct openers in a session are few,
// but they come from model output.
const maxFenceFrames = 64

// fenceFrames remembers the frame of each fence opener a Renderer has seen,
// learnt from a one-line render, so a code block costs no probe render
// when its language came before (the probe needs the highlighter set up,
// the dearest render of a small block). Safe for concurrent use.
//
// Invariant: byKey[opener+"\n"+closer] is the frame of a render of that
// fence with this Renderer.
type fenceFrames struct {
	mu    sync.Mutex
	byKey map[string]fenceFrame
}

// frame returns the frame of the fence opener ... closer, rendering a probe
// the first time.
func (ff *fenceFrames) frame(r *Renderer, opener, closer string) (fenceFrame, bool) {
	key := opener + "\n" + closer
	ff.mu.Lock()
	fr, ok := ff.byKey[key]
	ff.mu.Unlock()
	if ok {
		return fr, true
	}
	frag, err := r.block("", opener+"\n"+probe+"\n"+closer+"\n")
	if err != nil {
		return fenceFrame{}, false
	}
	i := strings.Index(frag, probe)
	if i < 0 {
		return fenceFrame{}, false
	}
	rowStart := strings.LastIndexByte(frag[:i], '\n') + 1
	rowEnd := strings.IndexByte(frag[i:], '\n')
	if rowEnd < 0 {
		return fenceFrame{}, false
	}
	fr = fenceFrame{lead: frag[:rowStart], trail: frag[i+rowEnd+1:]}
	ff.mu.Lock()
	if ff.byKey == nil || len(ff.byKey) >= maxFenceFrames {
		ff.byKey = map[string]fenceFrame{}
	}
	ff.byKey[key] = fr
	ff.mu.Unlock()
	return fr, true
}

// reset drops everything rendered.
func (c *codeTail) reset() {
	c.active, c.closed, c.frag = false, false, ""
	c.body.Reset()
	c.lead, c.trail, c.opener, c.closer = "", "", "", ""
}
