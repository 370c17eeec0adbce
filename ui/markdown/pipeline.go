package markdown

import (
	"bytes"
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// termRenderer is glamour's TermRenderer built here from the same parts
// (goldmark with GFM and definition lists, glamour's ANSI node renderer),
// with two changes for the Renderer's own HTML comments. notFirst's renders
// as nothing without going through glamour's HTML sanitizer, which costs
// about a tenth of a small render; it stays in the document, so the block
// after it is still not the first. markComment's renders as the mark's
// text, a part separator far cheaper than a mark paragraph. A comment
// renders as nothing in glamour too; NewRenderer checks that the pipeline
// renders documents with notFirst byte for byte as glamour does, and
// otherwise renders with glamour's own TermRenderer and markSep. (A message
// holding markComment's exact two lines would show the mark's word.)
type termRenderer struct {
	md  goldmark.Markdown // nil: use tr
	tr  *glamour.TermRenderer
	buf bytes.Buffer // output, reused: a termRenderer renders one document at a time
}

// highPriority is the priority glamour gives its node renderer.
const highPriority = 1000

// commentLine is notFirst's comment as goldmark keeps it.
var commentLine = []byte(strings.TrimRight(notFirst, "\n"))

func newOwnTermRenderer(opts ansi.Options) *termRenderer {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := ansi.NewRenderer(opts)
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(quietComments{ar: ar, doc: newDocPass(ar, opts)}, highPriority),
	)))
	return &termRenderer{md: md}
}

// Render renders src as glamour's TermRenderer.Render does.
func (t *termRenderer) Render(src string) (string, error) {
	if t.md == nil {
		return t.tr.Render(src)
	}
	t.buf.Reset()
	err := t.md.Convert([]byte(src), &t.buf)
	return t.buf.String(), err
}

// quietComments is glamour's ANSI node renderer with notFirst's comment
// rendered as nothing, and glamour's padding passes skipped where they
// would change nothing (passes.go).
type quietComments struct {
	ar  *ansi.ANSIRenderer
	doc docPass
}

func (q quietComments) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	q.ar.RegisterFuncs(reg)
	html := capture(q.ar, ast.KindHTMLBlock)
	txt := capture(q.ar, ast.KindText)
	if q.doc.stack != nil {
		q.doc.finish = capture(q.ar, ast.KindDocument)
		reg.Register(ast.KindDocument, q.doc.render)
		reg.Register(ast.KindParagraph, paraPass{stack: q.doc.stack, wrap: q.doc.width, preserve: q.doc.preserve, finish: capture(q.ar, ast.KindParagraph)}.render)
		reg.Register(ast.KindList, listPass{stack: q.doc.stack, wrap: q.doc.width, finish: capture(q.ar, ast.KindList)}.render)
	}
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if isOwnComment(n, src) {
			return ast.WalkContinue, nil
		}
		if t := markText(n, src); t != nil {
			return txt(w, src, t, entering)
		}
		return html(w, src, n, entering)
	})
}

// capture returns the function ar registers for kind.
func capture(ar *ansi.ANSIRenderer, kind ast.NodeKind) renderer.NodeRendererFunc {
	c := captor{kind: kind}
	ar.RegisterFuncs(&c)
	return c.f
}

type captor struct {
	kind ast.NodeKind
	f    renderer.NodeRendererFunc
}

func (c *captor) Register(k ast.NodeKind, f renderer.NodeRendererFunc) {
	if k == c.kind {
		c.f = f
	}
}

// isOwnComment reports whether n is an HTML block holding just notFirst's
// comment.
func isOwnComment(n ast.Node, src []byte) bool {
	b, ok := n.(*ast.HTMLBlock)
	if !ok || b.HTMLBlockType != ast.HTMLBlockType2 || b.Lines().Len() != 1 || b.HasClosure() {
		return false
	}
	seg := b.Lines().At(0)
	return bytes.Equal(bytes.TrimRight(seg.Value(src), "\r\n"), commentLine)
}

// ownPipelineAgrees reports whether the own pipeline renders documents with
// notFirst's comment as glamour does: byte for byte unwrapped, and wrapped
// the same once the padding is trimmed (the output contract), since the
// skipped document pass pads the blank rows between blocks.
func (r *Renderer) ownPipelineAgrees() bool {
	docs := []string{
		notFirst + "runnelpara",
		"[d]: /d\n" + notFirst + "# Head\n\ntext [x][d]" + markSep + "- a\n- b",
		"<!--  runnel -->\n\n" + notFirst + "> q\n\n" + notFirst,
		notFirst + "para *one*\n\n- a\n  - nested **b**\n- c\n\n> quoted para\n\n1. x\n2. y\n\n---\n\nend",
	}
	for _, width := range []int{r.width, 0} {
		own := newOwnTermRenderer(ansi.Options{WordWrap: width, Styles: r.style, ChromaFormatter: chromaFormatter})
		theirs, err := glamour.NewTermRenderer(
			glamour.WithStyles(r.style),
			glamour.WithWordWrap(width),
			glamour.WithChromaFormatter(chromaFormatter),
		)
		if err != nil {
			return false
		}
		for _, d := range docs {
			a, errA := own.Render(d)
			b, errB := theirs.Render(d)
			if width > 0 {
				a, b = trimPadding(a), trimPadding(b)
			}
			if errA != nil || errB != nil || a != b {
				return false
			}
		}
	}
	return true
}

// commentOpen and commentClose are markComment's lines as goldmark keeps
// them.
var (
	commentOpen  = []byte("<!--\n")
	commentClose = []byte(markPara + " -->")
)

// markText returns, when n is markComment's HTML block, a text node for
// "\n" + markPara + "\n" in the source, which glamour renders as plain
// text in the document; otherwise nil.
func markText(n ast.Node, src []byte) *ast.Text {
	b, ok := n.(*ast.HTMLBlock)
	if !ok || b.HTMLBlockType != ast.HTMLBlockType2 || b.Lines().Len() != 1 || !b.HasClosure() {
		return nil
	}
	open, shut := b.Lines().At(0), b.ClosureLine
	if !bytes.Equal(open.Value(src), commentOpen) ||
		!bytes.Equal(bytes.TrimRight(shut.Value(src), "\r\n"), commentClose) {
		return nil
	}
	t := ast.NewTextSegment(text.NewSegment(open.Stop-1, shut.Start+len(markPara)))
	t.SetSoftLineBreak(true)
	return t
}
