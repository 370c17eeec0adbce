package export

// This file is the HTML export: the markdown transcript's walk, with each
// piece of markdown rendered by goldmark's HTML renderer (raw HTML in it
// escaped, images as links, only http, https and mailto links, code
// highlighted by chroma's HTML formatter with inline styles) and every item
// but a message wrapped in a collapsible <details> panel. The page is
// self-contained: one <style> element, no script, nothing loaded (a
// Content-Security-Policy says so to the browser as well).

import (
	"bytes"
	"html"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"runnel/session/store"
	"runnel/stream"
)

// Style is an HTML page's look: CSS for its <style> element (theme.HTML
// builds it; colours live there) and the chroma style of its code blocks
// (nil: chroma's fallback).
type Style struct {
	CSS  string
	Code *chroma.Style
}

// HTML writes session s to w as a self-contained HTML page.
func HTML(w io.Writer, s *store.Session, st Style) error {
	d := newDoc(s)
	d.html = newPage(st)
	d.header(s)
	d.turns(s)
	d.flush()
	title := stream.SanitizeLine(s.Info.Title)
	if title == "" {
		title = "Untitled session"
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"generator\" content=\"runnel\">\n")
	b.WriteString("<title>" + html.EscapeString(title) + "</title>\n")
	b.WriteString("<style>\n" + strings.ReplaceAll(st.CSS, "</", "<\\/") + "</style>\n</head>\n<body>\n<main>\n")
	b.Write(d.html.out.Bytes())
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// page is the HTML being written by a doc in HTML mode.
//
// Invariants: out holds whole HTML elements only; the doc's markdown buffer
// holds what is not yet rendered, flushed into out before each item and at
// the end. summary is the header of the item being written, "" outside one.
type page struct {
	out     bytes.Buffer
	md      goldmark.Markdown
	summary string
	shift   int // levels an item's headings move down (itemHeadings while one is written, else 0)
}

func newPage(st Style) *page {
	code := st.Code
	if code == nil {
		code = chroma.MustNewStyle("runnel", chroma.StyleEntries{}) // no colours: the sheet's pre styles
	}
	p := &page{}
	p.md = goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithRendererOptions(gmrenderer.WithNodeRenderers(util.Prioritized(&safeNodes{code: code, shift: &p.shift}, 100))),
	)
	return p
}

// flush renders the markdown written so far into the page.
func (d *doc) flush() {
	if d.b.Len() == 0 {
		return
	}
	d.html.render(d.b.Bytes())
	d.b.Reset()
}

func (p *page) render(md []byte) {
	_ = p.md.Convert(md, &p.out) // a bytes.Buffer does not fail
}

// panel wraps what item of type typ wrote into the page: a message as it
// is, anything else in a collapsible panel headed by its summary (title
// when its renderer gave none).
func (d *doc) panel(typ, title string) {
	if d.b.Len() == 0 {
		return
	}
	if typ == "message" {
		d.flush()
		return
	}
	sum := d.html.summary
	if sum == "" {
		sum = title
	}
	class := "panel"
	if typ == "reasoning" {
		class += " reasoning"
	}
	d.html.out.WriteString("<details class=\"" + class + "\">\n<summary>" + html.EscapeString(stream.SanitizeLine(sum)) + "</summary>\n")
	d.flush()
	d.html.out.WriteString("</details>\n")
}

// safeNodes renders the nodes whose default rendering could let the model's
// text act: raw HTML (escaped, shown as text), images (a link, never a
// load), links (http, https and mailto only) and code blocks (chroma).
type safeNodes struct {
	code  *chroma.Style
	shift *int // levels added to a heading: the page's, set while an item is written
}

func (r *safeNodes) RegisterFuncs(reg gmrenderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindAutoLink, r.autoLink)
	reg.Register(ast.KindFencedCodeBlock, r.codeBlock)
	reg.Register(ast.KindCodeBlock, r.codeBlock)
	reg.Register(ast.KindHeading, r.heading)
}

// itemHeadings is how many levels an item's own headings are moved down, so
// that an answer's "#" (h1 → h4) sits below the page's "Turn N" (h2) and
// "Assistant" (h3); h6 is the floor.
const itemHeadings = 3

func (r *safeNodes) heading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	level := node.(*ast.Heading).Level
	if r.shift != nil {
		level = min(level+*r.shift, 6)
	}
	tag := "h" + strconv.Itoa(level)
	if entering {
		_, _ = w.WriteString("<" + tag + ">")
	} else {
		_, _ = w.WriteString("</" + tag + ">\n")
	}
	return ast.WalkContinue, nil
}

func (r *safeNodes) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := node.(*ast.RawHTML).Segments
		w.WriteString(`<span class="raw">`)
		for i := range segs.Len() {
			seg := segs.At(i)
			w.WriteString(html.EscapeString(string(seg.Value(src))))
		}
		w.WriteString(`</span>`)
	}
	return ast.WalkSkipChildren, nil
}

func (r *safeNodes) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.HTMLBlock)
	var b strings.Builder
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		b.Write(seg.Value(src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(src))
	}
	w.WriteString(`<pre class="raw">` + html.EscapeString(b.String()) + "</pre>\n")
	return ast.WalkSkipChildren, nil
}

// safeURL returns u when it is an absolute http, https or mailto URL, else
// "" (javascript:, data:, file:, relative paths: nothing to follow).
func safeURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return ""
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https", "mailto":
		return p.String()
	}
	return ""
}

// openLink writes an <a> to dest when it is safe, else a <span>, and
// returns the closing tag.
func openLink(w util.BufWriter, dest string) string {
	if u := safeURL(dest); u != "" {
		w.WriteString(`<a href="` + html.EscapeString(u) + `" rel="noreferrer noopener">`)
		return "</a>"
	}
	w.WriteString(`<span class="link">`)
	return "</span>"
}

func (r *safeNodes) link(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if entering {
		n.SetAttributeString("close", openLink(w, string(n.Destination)))
		return ast.WalkContinue, nil
	}
	closing, _ := n.AttributeString("close")
	w.WriteString(closing.(string))
	return ast.WalkContinue, nil
}

func (r *safeNodes) autoLink(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	dest := string(n.URL(src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	closing := openLink(w, dest)
	w.WriteString(html.EscapeString(string(n.Label(src))) + closing)
	return ast.WalkContinue, nil
}

// image writes an image as a link to it, its alt text as the label: the
// page loads nothing.
func (r *safeNodes) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.Image)
	alt := plainText(n, src)
	if alt == "" {
		alt = "image"
	}
	closing := openLink(w, string(n.Destination))
	w.WriteString("[image: " + html.EscapeString(alt) + "]" + closing)
	return ast.WalkSkipChildren, nil
}

// plainText is the text of n's inline children.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// codeBlock highlights a code block with chroma's HTML formatter (inline
// styles), by its info string's language or else by what it looks like.
func (r *safeNodes) codeBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var b strings.Builder
	for i := range node.Lines().Len() {
		seg := node.Lines().At(i)
		b.Write(seg.Value(src))
	}
	code := b.String()
	var lexer chroma.Lexer
	if fc, ok := node.(*ast.FencedCodeBlock); ok {
		if lang := string(fc.Language(src)); lang != "" {
			lexer = lexers.Get(lang)
		}
	}
	if lexer == nil {
		lexer = lexers.Analyse(code)
	}
	if lexer == nil {
		lexer = lexers.Fallback
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err == nil {
		var out bytes.Buffer
		if chromahtml.New(chromahtml.WithClasses(false)).Format(&out, r.code, it) == nil {
			w.Write(out.Bytes())
			w.WriteString("\n")
			return ast.WalkSkipChildren, nil
		}
	}
	w.WriteString("<pre><code>" + html.EscapeString(code) + "</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
