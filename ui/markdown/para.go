package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// paraMin is the length from which a one-line paragraph tail keeps a prefix.
const paraMin = 2 << 10

// paraTail is the long-paragraph fast path: a tail that is one paragraph
// on one line (a model writing a long paragraph) keeps the rows of a
// stable prefix, and each View parses and wraps only what follows it, so
// a frame costs the same however long the paragraph grew.
//
// A prefix tail[:q] is stable when it ends in spaces, a plain word follows,
// and its parse left no literal delimiter, bracket or link trigger
// (stableSplit): CommonMark matches closers with openers to their left
// only, and every opener in it is matched, so the line renders as the
// prefix, its spaces, then the rest parsed on its own.
//
// Invariants: src[start:start+q] is the stable prefix; done holds its
// complete rows, at the margin, joined; row, pending (as runs), used, pw
// and first are the wrapper's state after it.
type paraTail struct {
	start, q     int
	done         strings.Builder // appended to only: a copy per frame is the caller's
	row, pending []run
	used, pw     int
	first        bool
}

// newParaTail starts the fast path for the long one-line paragraph n of b.
func (s *Stream) newParaTail(n ast.Node, b []byte, base int) *paraTail {
	st := s.r.style.Paragraph
	if len(b)-nodeStart(n) < s.paraMin || strings.IndexByte(string(b), '\n') >= 0 ||
		st.BlockPrefix != "" || st.Prefix != "" || st.Suffix != "" || st.BlockSuffix != "" {
		return nil
	}
	q := stableSplit(n, b)
	if q <= 0 {
		return nil
	}
	p := &paraTail{start: base, first: true}
	w := p.resume(s.r, nil)
	if !p.advance(s, w, string(b[:q])) {
		return nil
	}
	return p
}

// view renders the paragraph: the kept rows, then the rest wrapped after
// them. false if the tail is no longer a one-line paragraph.
func (p *paraTail) view(s *Stream, src string) ([]string, bool) {
	rest := src[p.start+p.q:]
	if strings.IndexByte(rest, '\n') >= 0 {
		return nil, false
	}
	n, b := s.r.onePara(rest, s.settledRefs())
	if n == nil {
		return nil, false
	}
	w := p.resume(s.r, s.r.paraRuns(n, b))
	rows := w.finish()
	out := make([]string, 0, 2*len(rows)+1)
	if p.done.Len() > 0 {
		out = append(out, p.done.String())
	}
	for _, row := range rows {
		if len(out) > 0 {
			out = append(out, "\n")
		}
		out = append(out, s.r.margined(row))
	}
	if len(rest) > 2*s.paraMin { // keep more: the rest stays short
		if q := stableSplit(n, b); q > 0 {
			p.advance(s, p.resume(s.r, nil), rest[:q])
		}
	}
	return out, true
}

// resume returns a wrapper in the kept state, with runs to lay out after
// it.
func (p *paraTail) resume(r *Renderer, runs []run) *wrapper {
	all := make([]run, 0, len(p.row)+len(p.pending)+len(runs))
	all = append(append(append(all, p.row...), p.pending...), runs...)
	w := &wrapper{sc: &r.sgr, runs: all, width: max(r.width-r.margin, 1),
		used: p.used, pw: p.pw, first: p.first}
	for i := range p.row {
		w.row = append(w.row, piece{i, all[i].text})
	}
	for i := range p.pending {
		k := len(p.row) + i
		w.pending = append(w.pending, piece{k, all[k].text})
	}
	w.feed(len(p.row) + len(p.pending))
	return w
}

// advance lays out more (stable text that ends in spaces) after the kept
// state w, and keeps the result.
func (p *paraTail) advance(s *Stream, w *wrapper, more string) bool {
	n, b := s.r.onePara(more, s.settledRefs())
	if n == nil {
		return false
	}
	runs := s.r.paraRuns(n, b)
	trimmed := strings.TrimRight(more, " ")
	runs = append(runs, run{text: more[len(trimmed):], a: s.r.paraAttrs().with(s.r.style.Text)})
	k := len(w.runs)
	w.runs = append(w.runs, runs...)
	w.feed(k)
	for _, row := range w.out {
		if p.done.Len() > 0 {
			p.done.WriteByte('\n')
		}
		p.done.WriteString(s.r.margined(row))
	}
	toRuns := func(ps []piece) (out []run) {
		for _, pc := range ps {
			out = append(out, run{text: pc.text, a: w.runs[pc.run].a, link: w.runs[pc.run].link})
		}
		return out
	}
	p.q += len(more)
	p.row, p.pending = toRuns(w.row), toRuns(w.pending)
	p.used, p.pw, p.first = w.used, w.pw, w.first
	return true
}

// onePara parses src, which must be one paragraph starting at its first
// byte; nil otherwise.
func (r *Renderer) onePara(src string, refs []parser.Reference) (ast.Node, []byte) {
	doc, b, _ := r.parse(src, refs)
	n := doc.FirstChild()
	if _, ok := n.(*ast.Paragraph); !ok || n.NextSibling() != nil || n.Pos() != 0 {
		return nil, nil
	}
	return n, b
}

func (r *Renderer) paraAttrs() attrs { return r.base.with(r.style.Paragraph.StylePrimitive) }

// paraRuns are the runs of a paragraph's text, as inlineRows makes them.
func (r *Renderer) paraRuns(n ast.Node, b []byte) []run {
	in := &inline{st: &r.style, src: b}
	in.children(n, r.paraAttrs(), "")
	return in.runs
}

// stableSplit returns the offset in b of the last stable split of the
// paragraph n (see paraTail), or -1: the start of a word of ASCII letters
// after a space and before one, with no delimiter, bracket, escape, entity
// or link trigger in the text before it, inside constructs too (a code
// span or a link can still open inside an emphasis that closed); code
// spans' text is literal.
func stableSplit(n ast.Node, b []byte) int {
	best := -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			if !plainInside(c, b) {
				return best
			}
			continue // a construct that closed
		}
		seg := b[t.Segment.Start:t.Segment.Stop]
		for i := 0; i < len(seg); i++ {
			if unstable(seg[i:]) {
				return best
			}
			if i > 0 && seg[i-1] == ' ' && isLetter(seg[i]) {
				j := i
				for j < len(seg) && isLetter(seg[j]) {
					j++
				}
				if j < len(seg) && seg[j] == ' ' {
					best = t.Segment.Start + i
				}
			}
		}
		if t.SoftLineBreak() || t.HardLineBreak() {
			return best
		}
	}
	return best
}

// unstable reports whether text starting at s[0] could still become part
// of a construct: a delimiter, bracket, escape, entity or link trigger.
func unstable(s []byte) bool {
	return strings.IndexByte("*_~`\\[]<>!&:@|", s[0]) >= 0 || strings.HasPrefix(string(s), "www.")
}

// plainInside reports whether the text within a closed construct holds
// nothing unstable (code spans aside: their text is literal).
func plainInside(n ast.Node, b []byte) bool {
	ok := true
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if _, code := c.(*ast.CodeSpan); code {
			return ast.WalkSkipChildren, nil
		}
		if t, isText := c.(*ast.Text); isText {
			seg := b[t.Segment.Start:t.Segment.Stop]
			for i := range seg {
				if unstable(seg[i:]) {
					ok = false
					return ast.WalkStop, nil
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return ok
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
