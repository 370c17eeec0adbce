package markdown

import (
	"html"
	"net/url"
	"strings"

	"charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// maxLink is the longest link target written as a hyperlink: browsers
// stop near 2 KB, terminals at a few.
const maxLink = 4 << 10

// CiteTitle is the link title that marks a citation marker: a link with it
// shows its text alone ("[1]"), hyperlinked to its destination, never the
// URL after it. The caller lists where the markers point (ui/block's
// Sources list).
const CiteTitle = "runnel:cite"

// inline collects the runs of a block's inline content, styled as
// glamour styles each element.
type inline struct {
	st    *ansi.StyleConfig
	src   []byte
	runs  []run
	table bool // in a table cell: links show their text only
}

func (in *inline) add(text string, a attrs, link string) {
	if text != "" { // runs of one style are merged when painted, not here (no copying)
		in.runs = append(in.runs, run{text, a, link})
	}
}

// element adds a styled element's text with its block prefix and suffix
// (in the surrounding style) and its prefix and suffix (in its own).
func (in *inline) element(p ansi.StylePrimitive, outer attrs, link string, body func(a attrs)) {
	a := outer.with(p)
	in.add(p.BlockPrefix, outer, "")
	in.add(p.Prefix, a, link)
	body(a)
	in.add(p.Suffix, a, link)
	in.add(p.BlockSuffix, outer, "")
}

// children adds the inline children of n in style a.
func (in *inline) children(n ast.Node, a attrs, link string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		in.node(c, a, link)
	}
}

func (in *inline) node(n ast.Node, a attrs, link string) {
	st := in.st
	switch n := n.(type) {
	case *ast.Text:
		in.add(unescape(string(n.Segment.Value(in.src))), a.with(st.Text), link)
		if n.SoftLineBreak() || n.HardLineBreak() {
			in.add(" ", a.with(st.Text), link)
		}
	case *ast.String:
		in.add(unescape(string(n.Value)), a.with(st.Text), link)
	case *ast.Emphasis:
		p := st.Emph
		if n.Level > 1 {
			p = st.Strong
		}
		in.element(p, a, link, func(a attrs) { in.children(n, a, link) })
	case *extast.Strikethrough:
		in.element(st.Strikethrough, a, link, func(a attrs) { in.children(n, a, link) })
	case *ast.CodeSpan:
		in.element(st.Code.StylePrimitive, a, link, func(a attrs) {
			in.add(html.UnescapeString(plainText(n, in.src)), a, link)
		})
	case *ast.Link: // its text, then a space and the URL (in a table or a citation marker, the text only)
		dest := string(n.Destination)
		h := hyperlink(dest)
		in.children(n, a.with(in.st.LinkText), h)
		if h != "" && !in.table && string(n.Title) != CiteTitle {
			in.add(" ", a, "")
			in.add(dest, a.with(in.st.Link), h)
		}
	case *ast.AutoLink:
		u := string(n.URL(in.src))
		if n.AutoLinkType == ast.AutoLinkEmail {
			in.add(u, a.with(st.LinkText), "")
			return
		}
		in.add(u, a.with(st.Link), hyperlink(u))
	case *ast.Image:
		dest := string(n.Destination)
		text := format(st.ImageText, plainText(n, in.src))
		in.add(text, a.with(st.ImageText), hyperlink(dest))
		if dest != "" && !in.table {
			in.add(" ", a, "")
			in.add(dest, a.with(st.Image), hyperlink(dest))
		}
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(in.src))
		}
		in.add(stripTags(b.String()), a.with(st.HTMLSpan.StylePrimitive), link)
	case *extast.TaskCheckBox:
		// shown by the list item
	default:
		in.children(n, a, link)
	}
}

// hyperlink returns the OSC 8 target for a link destination, or "" for
// none: glamour skips destinations that are only an anchor or do not parse;
// this also those longer than maxLink (every row of a link repeats its target).
func hyperlink(dest string) string {
	if len(dest) > maxLink {
		return ""
	}
	u, err := url.Parse(dest)
	if dest == "" || err != nil || "#"+u.Fragment == dest {
		return ""
	}
	return dest
}

// plainText is the text of n's descendants, without styles.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// unescape resolves entities and backslash escapes, as glamour does.
func unescape(s string) string {
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	if strings.IndexByte(s, '\\') >= 0 {
		s = escapeReplacer.Replace(s)
	}
	return s
}

var escapeReplacer = strings.NewReplacer(
	`\\`, `\`, "\\`", "`", `\*`, `*`, `\_`, `_`, `\{`, `{`, `\}`, `}`, `\[`, `[`, `\]`, `]`,
	`\<`, `<`, `\>`, `>`, `\(`, `(`, `\)`, `)`, `\#`, `#`, `\+`, `+`, `\-`, `-`, `\.`, `.`,
	`\!`, `!`, `\|`, `|`,
)

// stripTags drops HTML tags and comments and keeps the text between them,
// with glamour's own strict sanitizer.
func stripTags(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	return htmlStripper.SanitizeHTML(s, false)
}

// htmlStripper is safe for concurrent use: bluemonday's policy is, once built.
var htmlStripper = ansi.NewRenderContext(ansi.Options{})
