package markdown

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// blockCtx renders the blocks of one parsed source.
type blockCtx struct {
	r   *Renderer
	src []byte
	// items keeps the rows of the complete items of itemsOf, a streaming
	// tail's last block, which starts at base in the message (items.go);
	// nil in a whole render.
	items   *itemRows
	itemsOf ast.Node
	base    int
}

// block renders a block node as rows of at most width cells (code rows
// are not wrapped; the caller fits them).
func (c *blockCtx) block(n ast.Node, width int) []string {
	st := &c.r.style
	width = max(width, 1)
	switch n := n.(type) {
	case *ast.Heading:
		return c.heading(n, width)
	case *ast.Paragraph, *ast.TextBlock:
		a := c.r.base.with(st.Paragraph.StylePrimitive)
		return c.inlineRows(n, st.Paragraph.StylePrimitive, a, width)
	case *ast.ThematicBreak:
		hr := oneLine(format(st.HorizontalRule, ""))
		return []string{c.r.paint(hr, c.r.base.with(st.HorizontalRule))}
	case *ast.FencedCodeBlock:
		return c.r.codeRows(string(n.Language(c.src)), c.lines(n), false)
	case *ast.CodeBlock:
		return c.r.codeRows("", c.lines(n), false)
	case *ast.Blockquote:
		return c.quote(n, width)
	case *ast.List:
		return c.list(n, width)
	case *ast.HTMLBlock:
		txt := strings.Join(c.lines(n), "")
		if n.HasClosure() {
			txt += string(n.ClosureLine.Value(c.src))
		}
		txt = strings.TrimSpace(stripTags(txt))
		if txt == "" {
			return nil
		}
		a := c.r.base.with(st.HTMLBlock.StylePrimitive)
		return wrap(&c.r.sgr, []run{{text: txt, a: a}}, width)
	case *extast.Table:
		return c.table(n, width)
	case *extast.DefinitionList:
		return c.definitions(n, width)
	default:
		return c.blocks(n, width, true)
	}
}

// blocks renders n's children, with a blank row between them if loose.
func (c *blockCtx) blocks(n ast.Node, width int, loose bool) []string {
	var rows []string
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		b := c.block(ch, width)
		if len(b) == 0 {
			continue
		}
		if len(rows) > 0 && loose {
			rows = append(rows, "")
		}
		rows = append(rows, b...)
	}
	return rows
}

func (c *blockCtx) lines(n ast.Node) []string {
	ls := n.Lines()
	out := make([]string, ls.Len())
	for i := range out {
		seg := ls.At(i)
		out[i] = string(seg.Value(c.src))
	}
	return out
}

// paint styles a one-row text.
func (r *Renderer) paint(s string, a attrs) string {
	if sgr := r.sgr.sgr(a); sgr != "" && s != "" {
		return sgr + s + reset
	}
	return s
}

// inlineRows wraps n's inline content in style p over a: the block
// prefix and suffix outside the style, the prefix and suffix in it.
func (c *blockCtx) inlineRows(n ast.Node, p ansi.StylePrimitive, a attrs, width int) []string {
	in := &inline{st: &c.r.style, src: c.src}
	in.add(oneLine(p.BlockPrefix), c.r.base, "")
	in.add(p.Prefix, a, "")
	in.children(n, a, "")
	in.add(p.Suffix, a, "")
	in.add(oneLine(p.BlockSuffix), c.r.base, "")
	for _, r := range in.runs {
		if strings.TrimSpace(r.text) != "" {
			return wrap(&c.r.sgr, in.runs, width)
		}
	}
	return nil
}

func (c *blockCtx) heading(n *ast.Heading, width int) []string {
	st := &c.r.style
	h := [...]ansi.StyleBlock{st.H1, st.H2, st.H3, st.H4, st.H5, st.H6}[min(max(n.Level, 1), 6)-1].StylePrimitive
	g := st.Heading.StylePrimitive
	p := ansi.StylePrimitive{BlockPrefix: cmp.Or(h.BlockPrefix, g.BlockPrefix), BlockSuffix: cmp.Or(h.BlockSuffix, g.BlockSuffix),
		Prefix: cmp.Or(h.Prefix, g.Prefix), Suffix: cmp.Or(h.Suffix, g.Suffix)}
	return c.inlineRows(n, p, c.r.base.with(g).with(h), width)
}

// quote renders a block quote: its blocks behind the indent token.
func (c *blockCtx) quote(n *ast.Blockquote, width int) []string {
	st := c.r.style.BlockQuote
	prefix := strings.Repeat(val(st.IndentToken, " "), int(val(st.Indent, 1)))
	pw := cells(prefix)
	rows := c.blocks(n, width-pw, true)
	a := c.r.base.with(st.StylePrimitive)
	full, bare := c.r.paint(prefix, a), c.r.paint(strings.TrimRight(prefix, " "), a)
	for i, row := range rows {
		if row == "" {
			rows[i] = bare
		} else {
			rows[i] = full + row
		}
	}
	return rows
}

// list renders a list: each item's marker, then its blocks with a hanging
// indent as wide as the marker.
func (c *blockCtx) list(n *ast.List, width int) []string {
	st := &c.r.style
	var rows []string
	num := n.Start
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		var marker string
		switch {
		case isTask(it):
			marker = st.Task.Unticked
			if it.FirstChild().FirstChild().(*extast.TaskCheckBox).IsChecked {
				marker = st.Task.Ticked
			}
		case n.IsOrdered():
			marker = strconv.Itoa(num) + st.Enumeration.BlockPrefix
			num++
		default:
			marker = st.Item.BlockPrefix
		}
		marker = oneLine(marker)
		if c.itemsOf == ast.Node(n) && c.items != nil {
			rows = append(rows, c.items.item(c, it, width, marker, !n.IsTight)...)
			continue
		}
		rows = append(rows, c.item(it, width, marker, !n.IsTight)...)
	}
	return rows
}

// item renders a list item behind its marker, its blocks loose or not.
func (c *blockCtx) item(it ast.Node, width int, marker string, loose bool) []string {
	body := c.blocks(it, width-cells(marker), loose)
	return hang(c.r.paint(marker, c.r.base), cells(marker), body)
}

// hang puts a marker mw cells wide before body's first row and indents
// the others as much (a hanging indent).
func hang(marker string, mw int, body []string) []string {
	if len(body) == 0 {
		body = []string{""}
	}
	body[0] = strings.TrimRight(marker+body[0], " ")
	for i := 1; i < len(body); i++ {
		if body[i] != "" {
			body[i] = strings.Repeat(" ", mw) + body[i]
		}
	}
	return body
}

func isTask(item ast.Node) bool {
	fc := item.FirstChild()
	if fc == nil || fc.FirstChild() == nil {
		return false
	}
	_, ok := fc.FirstChild().(*extast.TaskCheckBox)
	return ok
}

// definitions renders a definition list: each term, then each of its
// descriptions behind the description's block prefix.
func (c *blockCtx) definitions(n *extast.DefinitionList, width int) []string {
	st := &c.r.style
	var rows []string
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch.(type) {
		case *extast.DefinitionTerm:
			a := c.r.base.with(st.DefinitionTerm)
			rows = append(rows, c.inlineRows(ch, ansi.StylePrimitive{}, a, width)...)
		default:
			marker := oneLine(st.DefinitionDescription.BlockPrefix)
			rows = append(rows, hang(marker, cells(marker), c.blocks(ch, width-cells(marker), false))...)
		}
	}
	return rows
}
