package markdown

import (
	"errors"
	"strings"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// paraFrame is how a top-level paragraph's fragment is built, learnt by
// calibrateParagraphs. Glamour renders a paragraph as its styled inline text
// (its "line") wrapped with lipgloss.Wrap at the block width, between lead
// and trail. A renderer without wrapping gives the line itself, so a
// paragraph can be rendered in pieces and wrapped here (paratail.go).
//
// Invariant: ok only if, for this style, a paragraph's fragment shows the
// same text as lead + lipgloss.Wrap(line, width) + trail, checked on a
// sample long enough to wrap, with markup.
type paraFrame struct {
	ok          bool
	lead, trail string // fragment bytes around a paragraph's rows

	// The frame of unwrapped renders, which are not trimmed.
	docPrefix, docSuffix string // before the first and after the last fragment
	mark                 string // fragment of the mark paragraph
	lineLead, lineTrail  string // fragment bytes around a paragraph's line
}

// errParaFrame means an unwrapped render did not have the paragraph frame.
var errParaFrame = errors.New("render markdown: unexpected paragraph framing")

// splitMark is the word paraLines puts between two pieces to render them
// as one paragraph: a plain word at a safe split parses as nothing but
// itself, and one paragraph costs glamour half what two with a mark
// paragraph between them cost.
const splitMark = "runnelsplitmark"

// paraLines renders pieces, each a paragraph on one line, without wrapping
// in one glamour call, and returns their styled lines. Two pieces must be
// consecutive parts of one line, split at a single space where a split is
// safe (lastSafeSplit); they are rendered as one paragraph with splitMark
// at the split and cut apart at it.
func (r *Renderer) paraLines(defs string, pieces ...string) ([]string, error) {
	parts, joined := joinPieces(pieces)
	frags, err := r.parts(&r.unwrapped, 0, defs, parts)
	if err != nil {
		return nil, err
	}
	lines, err := r.fragLines(frags, joined)
	if err != nil && joined {
		return r.paraLinesApart(defs, pieces)
	}
	return lines, err
}

// paraLinesApart is paraLines with each piece its own paragraph.
func (r *Renderer) paraLinesApart(defs string, pieces []string) ([]string, error) {
	frags, err := r.parts(&r.unwrapped, 0, defs, pieces)
	if err != nil {
		return nil, err
	}
	return r.fragLines(frags, false)
}

// fragLines returns the styled lines of unwrapped paragraph fragments; if
// joined, the last fragment holds two pieces cut apart at splitMark.
func (r *Renderer) fragLines(frags []string, joined bool) ([]string, error) {
	lines := make([]string, len(frags), len(frags)+1)
	var err error
	for i, frag := range frags {
		if lines[i], err = r.paraLine(frag); err != nil {
			return nil, err
		}
	}
	if !joined {
		return lines, nil
	}
	last := lines[len(lines)-1]
	i := strings.Index(last, " "+splitMark+" ")
	if i < 0 || strings.Count(last, splitMark) != 1 {
		return nil, errParaFrame
	}
	return append(lines[:len(lines)-1], last[:i], last[i+len(splitMark)+2:]), nil
}

// joinPieces returns the paragraphs to render for pieces: two pieces joined
// at splitMark when they do not hold the mark themselves.
func joinPieces(pieces []string) ([]string, bool) {
	if len(pieces) != 2 || strings.Contains(pieces[0], splitMark) || strings.Contains(pieces[1], splitMark) {
		return pieces, false
	}
	return []string{pieces[0] + " " + splitMark + " " + pieces[1]}, true
}

// paraLine returns the styled line of an unwrapped paragraph's fragment.
func (r *Renderer) paraLine(frag string) (string, error) {
	lead, trail := r.para.lineLead, r.para.lineTrail
	if len(frag) < len(lead)+len(trail) || !strings.HasPrefix(frag, lead) || !strings.HasSuffix(frag, trail) {
		return "", errParaFrame
	}
	line := frag[len(lead) : len(frag)-len(trail)]
	if strings.Contains(line, "\n") {
		return "", errParaFrame
	}
	return line, nil
}

// paraFragment wraps a paragraph's styled line as glamour does and returns
// the paragraph's fragment.
func (r *Renderer) paraFragment(line string) string {
	rows := trimPadding(lipgloss.Wrap(line, r.width, ""))
	return r.para.lead + rows + r.para.trail
}

// calibrateParagraphs learns the paragraph frame and checks that wrapping
// an unwrapped render here shows what glamour shows. Styles with a document
// margin or a paragraph indent fail the check and go without the paragraph
// fast path.
func (r *Renderer) calibrateParagraphs() paraFrame {
	const word = "runnelpara"
	frag, err := r.block("", word)
	if err != nil {
		return paraFrame{}
	}
	i := strings.Index(frag, word)
	if i < 0 {
		return paraFrame{}
	}
	r.para = paraFrame{lead: frag[:i], trail: frag[i+len(word):]}

	// The unwrapped frame: one paragraph, then two with the mark between.
	one, err := r.glamourWith(&r.unwrapped, 0, notFirst+word)
	if err != nil {
		return paraFrame{}
	}
	two, err := r.glamourWith(&r.unwrapped, 0, notFirst+word+r.sep+word)
	if err != nil {
		return paraFrame{}
	}
	i, j := strings.Index(one, word), strings.LastIndex(two, word)
	if i < 0 || j < 0 || !strings.HasPrefix(two, one[:i+len(word)]) || !strings.HasSuffix(two, one[i:]) {
		return paraFrame{}
	}
	// Split the frame around the word as the wrapped one is split.
	pre, post := one[:i], one[i+len(word):]
	if !strings.HasSuffix(pre, r.para.lead) || !strings.HasPrefix(post, r.para.trail) {
		return paraFrame{}
	}
	r.para.lineLead, r.para.lineTrail = r.para.lead, r.para.trail
	r.para.docPrefix = pre[:len(pre)-len(r.para.lead)]
	r.para.docSuffix = post[len(r.para.trail):]
	r.para.mark = two[i+len(word)+len(r.para.trail) : j-len(r.para.lead)]
	if !strings.Contains(r.para.mark, markPara) {
		return paraFrame{}
	}

	sample := strings.Repeat("Some **bold** text, `code`, a [link](https://example.com/x) and *more* words. ", 6)
	sample = strings.TrimSpace(sample)
	want, err := r.block("", sample)
	if err != nil {
		return paraFrame{}
	}
	half := strings.Index(sample, " and *more*")
	lines, err := r.paraLines("", sample[:half], sample[half+1:])
	if err != nil {
		return paraFrame{}
	}
	got := r.paraFragment(joinLine(lines[0], lines[1]))
	if xansi.Strip(got) != xansi.Strip(want) || strings.Count(want, "\n") < 3 {
		return paraFrame{}
	}
	r.para.ok = true
	return r.para
}
