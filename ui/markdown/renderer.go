package markdown

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"runnel/ui/mdnest"
)

// MinWidth is the narrowest wrap width; smaller widths are raised to it.
const MinWidth = 20

// Renderer renders markdown with one glamour style at one wrap width. It
// is safe for concurrent use: everything but the caches (SGR, code lines,
// tables) and the note is read-only after NewRenderer. Making one costs a few
// microseconds, so make a new one when the width or style changes.
//
// Output contract (Render and Stream.View alike): rows without right
// padding, top-level blocks separated by one blank row, no blank rows at
// either end and no final newline, so a message sits flush in the
// transcript. Every row opens and closes its own styles.
type Renderer struct {
	style   ansi.StyleConfig
	width   int
	md      goldmark.Markdown
	code    *chroma.Style // nil: code blocks in the CodeBlock style, unhighlighted
	base    attrs         // the document's style, under every element
	margin  int           // the document's left margin
	sgr     sgrCache
	lines   lineCache    // highlighted code lines, and the last block highlighted whole (code.go)
	tables  tableCache   // the last tables drawn (tablecache.go)
	lexers  sync.Map     // lang → chroma.Lexer, at most maxLexerNames (code.go)
	nlexers atomic.Int64 // names looked up
	note    atomic.Pointer[string]
	docs    atomic.Int64 // documents rendered (document), which tests count
}

// NewRenderer makes a Renderer for style at the given wrap width.
func NewRenderer(style ansi.StyleConfig, width int) (*Renderer, error) {
	width = max(width, MinWidth)
	code, err := chromaStyle(style.CodeBlock)
	if err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	return &Renderer{style: style, width: width, code: code,
		md:     goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)),
		base:   attrs{}.with(style.Document.StylePrimitive),
		margin: int(min(val(style.Document.Margin, 0), uint(width/2)))}, nil
}

// Render renders a whole document: what a Stream's View must match.
func (r *Renderer) Render(src string) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("render markdown: %v", p)
			r.noteOnce(panicNote(p))
		}
	}()
	doc, b, _ := r.parse(src, nil)
	return r.document(doc, b), nil
}

// document renders a parsed document's blocks, joined.
func (r *Renderer) document(doc ast.Node, b []byte) string {
	r.docs.Add(1)
	var outs []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		outs = append(outs, r.top(n, b, n.NextSibling() == nil && openFence(n, b)))
	}
	return join(outs)
}

// parse parses src with the reference definitions refs known in front of
// it, and returns its own definitions.
func (r *Renderer) parse(src string, refs []parser.Reference) (ast.Node, []byte, []parser.Reference) {
	b := []byte(src)
	note := mdnest.Guard(b)
	ctx := &recordRefs{Context: parser.NewContext()}
	for _, ref := range refs {
		ctx.Context.AddReference(ref)
	}
	doc := r.md.Parser().Parse(text.NewReader(b), parser.WithContext(ctx))
	if note != "" {
		copy(b, src) // the text as it came, parsed as plain
		r.noteOnce(note)
	}
	return doc, b, ctx.own
}

// noteOnce keeps n as the renderer's note unless it has one.
func (r *Renderer) noteOnce(n string) { r.note.CompareAndSwap(nil, &n) }

// panicNote is the note on a render that failed and fell back to plain
// text: one line, whatever the panic said.
func panicNote(p any) string {
	return "markdown could not be drawn (" + noteCause(fmt.Sprint(p), maxNoteCause) + "): that answer is shown as plain text"
}

// maxNoteCause bounds the cause a note quotes, in bytes.
const maxNoteCause = 200

// noteCause is s's words on one line, cut to at most limit bytes (and
// " …") at a word, or inside a first word longer than that at a rune.
func noteCause(s string, limit int) string {
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		sep := min(b.Len(), 1)
		if b.Len()+sep+len(w) > limit {
			if b.Len() == 0 {
				n := limit
				for n > 0 && !utf8.RuneStart(w[n]) {
					n--
				}
				b.WriteString(w[:n])
			}
			b.WriteString(" …")
			break
		}
		if sep > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// Note returns the first note on markdown this renderer showed as plain
// text: because it nests too deep to parse in time (ui/mdnest), or because
// rendering it failed; "" when there is none.
func (r *Renderer) Note() string {
	if n := r.note.Load(); n != nil {
		return *n
	}
	return ""
}

// recordRefs is a parser context that notes the definitions a parse finds.
type recordRefs struct {
	parser.Context
	own []parser.Reference
}

func (c *recordRefs) AddReference(ref parser.Reference) {
	c.own = append(c.own, ref)
	c.Context.AddReference(ref)
}

// top renders a top-level block: its rows at the document's margin,
// joined. open tells a fenced code block still waiting for its closing
// fence, which is highlighted line by line as a stream shows it.
func (r *Renderer) top(n ast.Node, src []byte, open bool) string {
	return r.topIn(&blockCtx{r: r, src: src}, n, open)
}

// topIn is top in the block context c.
func (r *Renderer) topIn(c *blockCtx, n ast.Node, open bool) string {
	src := c.src
	var rows []string
	if fc, ok := n.(*ast.FencedCodeBlock); ok && open {
		lines := c.lines(fc)
		if k := len(lines) - 1; k >= 0 && len(src) > 0 && src[len(src)-1] != '\n' {
			lines[k] = strings.TrimSuffix(lines[k], "\n") // goldmark ends the text's last line with one: it is still coming
		}
		rows = r.codeRows(string(fc.Language(src)), lines, true)
	} else {
		rows = c.block(n, r.width-r.margin)
	}
	for i, row := range rows {
		rows[i] = r.margined(row)
	}
	return strings.Join(rows, "\n")
}

// margined puts a row at the document's left margin.
func (r *Renderer) margined(row string) string {
	if r.margin == 0 || row == "" {
		return row
	}
	return strings.Repeat(" ", r.margin) + row
}

// join joins the renders of top-level blocks with a blank row between
// them, skipping blocks that render to nothing (an HTML comment).
func join(outs []string) string {
	var b strings.Builder
	for _, o := range outs {
		if o = strings.Trim(o, "\n"); o == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(o)
	}
	return b.String()
}
