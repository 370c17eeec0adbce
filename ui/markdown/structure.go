package markdown

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// blockParser parses markdown with the extensions glamour uses, so the block
// structure it reports is the one glamour renders. It only parses; parsing is
// several times cheaper than rendering.
type blockParser struct {
	p parser.Parser
}

func newBlockParser() blockParser {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
	return blockParser{p: md.Parser()}
}

// cuts returns those of cands (absolute offsets, increasing) where src[base:]
// can be cut into documents that render like the whole, in increasing
// order: a top-level block starts exactly there and none straddles it. The
// last one returned has a block after it.
//
// The parse includes any partial last line; callers only propose a cut at a
// partial line once its first characters settle whether it continues the
// block before it (see scanner.holdAfterBlank).
func (bp blockParser) cuts(src string, base int, cands []int) []int {
	doc := bp.p.Parse(text.NewReader([]byte(src[base:])))
	type span struct {
		lo, hi int  // byte range of the node's text, relative to base; lo < 0 if unknown
		fence  bool // a fenced code block whose opening line comes before lo
	}
	var spans []span
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		lo, hi := nodeSpan(c)
		if lo >= 0 {
			f, fence := c.(*ast.FencedCodeBlock)
			fence = fence && f.Info == nil // with an info string, lo is on the opening line
			spans = append(spans, span{lo, hi, fence})
		}
	}
	rel := src[base:]
	var out []int
	k := 0 // spans before k end at or before the candidate
	for _, c := range cands {
		q := c - base
		for k < len(spans) && spans[k].hi <= q {
			k++
		}
		if k == len(spans) {
			break // no block after q
		}
		if spans[k].lo >= q && blankUpTo(rel[q:], spans[k].lo-q, spans[k].fence) {
			out = append(out, c)
		}
	}
	return out
}

// blankUpTo reports whether the lines of s before the one holding offset
// lo are blank (all of them but the last when fence is set: a fenced code
// block's opening line). A span misses lines that hold no text, such as an
// empty list item ("0)" on its own), so a block may reach past its span's
// end; a cut is safe only where nothing but blank lines lies between it and
// the next block's first line.
func blankUpTo(s string, lo int, fence bool) bool {
	gap := s[:strings.LastIndexByte(s[:lo], '\n')+1]
	if fence && gap != "" {
		gap = gap[:strings.LastIndexByte(gap[:len(gap)-1], '\n')+1]
	}
	return strings.TrimLeft(gap, " \t\r\n") == ""
}

// nodeSpan returns the byte range covered by n's lines and text segments,
// or (-1, -1) if it has none (a thematic break, an empty heading).
func nodeSpan(n ast.Node) (lo, hi int) {
	lo, hi = -1, -1
	add := func(start, stop int) {
		if lo < 0 || start < lo {
			lo = start
		}
		if stop > hi {
			hi = stop
		}
	}
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if n.Type() == ast.TypeBlock {
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				s := lines.At(i)
				add(s.Start, s.Stop)
			}
			if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
				add(f.Info.Segment.Start, f.Info.Segment.Stop)
			}
			if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
				add(h.ClosureLine.Start, h.ClosureLine.Stop)
			}
		}
		if t, ok := n.(*ast.Text); ok {
			add(t.Segment.Start, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	return lo, hi
}
