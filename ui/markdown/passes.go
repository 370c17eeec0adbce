package markdown

import (
	"bytes"
	"reflect"
	"strings"
	"unicode/utf8"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// This file holds the own pipeline's shortcuts through glamour's writer
// passes. Glamour finishes each paragraph, list and the document by writing
// its rows through a margin writer that indents and pads every row to the
// width, and wraps the document's rows once more at the end; each pass
// parses every byte of the (padded) output again. Where the style gives the
// element no indent, margin or visible padding, the pass only adds padding
// that trimPadding takes off again, so the pipeline skips it: a whole render
// costs about a third of glamour's. TestDocPassMatchesGlamour checks the
// output against glamour's TermRenderer on every test document, palette and
// several widths, and ownPipelineAgrees does so on a few documents each
// time a Renderer is made.

// docPass skips glamour's closing pass over the whole document when it
// would change nothing the output contract keeps.
//
// Glamour renders every top-level block into the document's buffer, each row
// already wrapped and padded to the width, and then, as the document
// finishes, wraps the whole buffer again and writes it through a margin
// writer that pads and indents every row once more. With the document's
// margin and indent at 0 (the theme's styles) that pass is the identity on
// rows that fit the width, apart from two things: it pads the blank rows
// between blocks, which trimPadding removes anyway, and where a style or
// link is still open at a row's end (a horizontal rule's colour spans its
// rows) it closes it there and opens it again on the next row. Yet it
// parses every byte of the padded output three times and costs about half
// of a whole render. So rows go to the output as they are, and only rows
// wider than the width (a long code line) and runs of rows that an open
// style joins are wrapped as glamour would.
//
// Glamour keeps the block stack in an unexported field; docPass finds it by
// reflection once per renderer and, if the field is not there, is off (the
// pipeline then renders exactly as glamour does). ownPipelineAgrees checks
// the result against glamour's TermRenderer when a Renderer is made.
type docPass struct {
	stack    *ansi.BlockStack          // glamour's block stack; nil: pass not skipped
	width    int                       // the document's wrap width
	suffix   string                    // what the document writes after its rows
	preserve bool                      // ansi.Options.PreserveNewLines
	finish   renderer.NodeRendererFunc // glamour's own document renderer
}

// newDocPass prepares the skip for ar, or returns a docPass that is off when
// the style gives the document anything the skip would not reproduce.
func newDocPass(ar *ansi.ANSIRenderer, opts ansi.Options) docPass {
	d := opts.Styles.Document
	if opts.WordWrap <= 0 || nonZero(d.Margin) || nonZero(d.Indent) || d.Suffix != "" ||
		(d.BlockSuffix != "" && d.BlockSuffix != "\n") {
		return docPass{}
	}
	stack := blockStackOf(ar)
	if stack == nil {
		return docPass{}
	}
	return docPass{stack: stack, width: opts.WordWrap, suffix: d.BlockSuffix, preserve: opts.PreserveNewLines}
}

func nonZero(p *uint) bool { return p != nil && *p != 0 }

// blockStackOf returns ar's block stack, or nil if glamour no longer keeps
// it where this version does (ANSIRenderer.context.blockStack).
func blockStackOf(ar *ansi.ANSIRenderer) *ansi.BlockStack {
	ctx := reflect.ValueOf(ar).Elem().FieldByName("context")
	if !ctx.IsValid() || ctx.Kind() != reflect.Struct {
		return nil
	}
	f := ctx.FieldByName("blockStack")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*ansi.BlockStack]() || f.IsNil() {
		return nil
	}
	return (*ansi.BlockStack)(f.UnsafePointer())
}

// render is the document's node renderer: glamour's, except on leaving the
// document, where it writes the rows and the suffix itself and pops the
// document off the stack as glamour would.
func (p docPass) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering || p.stack.Len() != 1 {
		return p.finish(w, src, n, entering)
	}
	buf := p.stack.Current().Block
	writeRows(w, buf.Bytes(), p.width)
	_, _ = w.WriteString(p.suffix)
	buf.Reset()
	p.stack.Pop()
	return ast.WalkContinue, nil
}

// writeRows writes b to w as glamour's document pass would once padding is
// trimmed: rows as they are, except runs of rows that the pass changes,
// which go through lipgloss.Wrap as the pass does. A run is a row wider
// than width (wrapped there) or rows joined by a style or link open across
// their ends (closed and reopened at each end). The pass works row by row
// and its pen is clean where a run starts, so a run wrapped on its own
// comes out as it does within the whole.
func writeRows(w util.BufWriter, b []byte, width int) {
	var p pen
	run := 0      // start of the current run
	wrap := false // the run needs the pass
	for i := 0; i < len(b); {
		row, next := i, len(b)
		if k := bytes.IndexByte(b[i:], '\n'); k >= 0 {
			next = i + k + 1
		}
		p.scan(b[i:next])
		wrap = wrap || !rowFits(bytes.TrimSuffix(b[row:next], []byte{'\n'}), width)
		i = next
		if p.open() && i < len(b) {
			continue // the run goes on into the next row
		}
		if wrap || run < row || p.open() {
			_, _ = w.WriteString(wrapDoc(string(b[run:i]), width))
		} else {
			_, _ = w.Write(b[run:i])
		}
		run, wrap = i, false
	}
}

// wrapDoc wraps s as glamour's document pass does, without the padding.
func wrapDoc(s string, width int) string { return lipgloss.Wrap(s, width, " ,.;-+|") }

// pen follows whether an SGR style or an OSC 8 link is open, as far as
// writeRows needs: any SGR but a full reset opens a style.
type pen struct{ style, link bool }

func (p *pen) open() bool { return p.style || p.link }

// scan follows the sequences of row.
func (p *pen) scan(row []byte) {
	for i := 0; i < len(row); {
		if row[i] != 0x1b {
			k := bytes.IndexByte(row[i:], 0x1b)
			if k < 0 {
				break
			}
			i += k
			continue
		}
		n, sgr := escLen(row[i:])
		seq := row[i : i+n]
		switch {
		case sgr:
			params := seq[2 : len(seq)-1]
			p.style = !(len(params) == 0 || string(params) == "0")
		case len(seq) > 4 && seq[1] == ']' && seq[2] == '8' && seq[3] == ';':
			body := bytes.TrimSuffix(bytes.TrimSuffix(seq[4:], []byte{0x07}), []byte{0x1b, '\\'})
			k := bytes.IndexByte(body, ';')
			p.link = k >= 0 && k+1 < len(body)
		}
		i += n
	}
}

// rowFits reports whether row is at most width cells wide. A cheap upper
// bound (escape sequences skipped, two cells for any non-ASCII character)
// clears almost every row; the rest are measured.
func rowFits(row []byte, width int) bool {
	return len(row) <= width || cellsAtMost(row) <= width || xansi.StringWidth(string(row)) <= width
}

// cellsAtMost is an upper bound of the cells row takes: escape sequences
// take none, an ASCII byte one, any other character two.
func cellsAtMost(row []byte) int {
	n := 0
	for i := 0; i < len(row); {
		c := row[i]
		switch {
		case c == 0x1b:
			k, _ := escLen(row[i:])
			i += k
		case c < utf8.RuneSelf:
			n++
			i++
		default:
			_, size := utf8.DecodeRune(row[i:])
			n += 2
			i += size
		}
	}
	return n
}

// listPass skips the margin writer glamour runs a list's wrapped rows
// through when the list has no indent, margin or padding that shows: it
// only pads each row to the width, which trimPadding removes again.
// Glamour's wrap of the list (which is what wraps its items' text) stays.
type listPass struct {
	stack  *ansi.BlockStack
	wrap   int                       // the renderer's wrap width
	finish renderer.NodeRendererFunc // glamour's own renderer for the kind
}

func (p listPass) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering || p.stack.Len() < 2 {
		return p.finish(w, src, n, entering)
	}
	cur, width, ok := padOnly(p.stack, p.wrap)
	if !ok {
		return p.finish(w, src, n, entering)
	}
	out := p.stack.Parent().Block
	out.WriteString(wrapDoc(cur.Block.String(), width))
	out.WriteByte('\n') // the list's Newline
	cur.Block.Reset()
	p.stack.Pop()
	return ast.WalkContinue, nil
}

// padOnly returns the element on top of stack and its wrap width (wrap
// less the stack's indents and margins, as glamour counts them), and
// whether glamour's margin writer would only pad its rows: no indent,
// margin, suffix or visible padding of its own.
func padOnly(stack *ansi.BlockStack, wrap int) (ansi.BlockElement, int, bool) {
	cur := stack.Current()
	st := cur.Style
	width := wrap - int(stack.Indent()) - 2*int(stack.Margin())
	ok := !nonZero(st.Indent) && !nonZero(st.Margin) && st.Suffix == "" && st.BlockSuffix == "" &&
		!paints(st.StylePrimitive) && width > 0
	return cur, width, ok
}

// paints reports whether padding in style s would show (trimPadding keeps
// such spaces).
func paints(s ansi.StylePrimitive) bool {
	on := func(b *bool) bool { return b != nil && *b }
	return s.BackgroundColor != nil || on(s.Inverse) || on(s.Underline) || on(s.CrossedOut)
}

// paraPass is glamour's paragraph finish without its margin writer, when
// the paragraph has no indent, margin or padding that shows: the writer
// only pads each row to the width, which trimPadding removes again.
type paraPass struct {
	stack    *ansi.BlockStack
	wrap     int  // the renderer's wrap width
	preserve bool // ansi.Options.PreserveNewLines
	finish   renderer.NodeRendererFunc
}

func (p paraPass) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering || p.stack.Len() < 2 || (n.Parent() != nil && n.Parent().Kind() == ast.KindListItem) {
		// (a list item's paragraph pushes nothing: glamour renders it as is)
		return p.finish(w, src, n, entering)
	}
	cur, width, ok := padOnly(p.stack, p.wrap)
	if !ok {
		return p.finish(w, src, n, entering)
	}
	if blk := cur.Block.String(); strings.TrimSpace(blk) != "" {
		if !p.preserve {
			blk = strings.ReplaceAll(blk, "\n", " ")
		}
		out := p.stack.Parent().Block
		out.WriteString(lipgloss.Wrap(blk, width, ""))
		out.WriteByte('\n')
	}
	cur.Block.Reset()
	p.stack.Pop()
	return ast.WalkContinue, nil
}
