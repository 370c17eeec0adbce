package markdown

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// chromaStyle builds the code style from CodeBlock.Chroma as glamour maps
// it (or chroma's theme CodeBlock.Theme; nil: no highlighting). Unlike
// glamour it never registers it in chroma's global registry: each Renderer
// keeps its own, so a light style made after a dark one keeps its colours.
func chromaStyle(cb ansi.StyleCodeBlock) (*chroma.Style, error) {
	if c := cb.Chroma; c != nil {
		entries := chroma.StyleEntries{}
		for t, p := range map[chroma.TokenType]ansi.StylePrimitive{
			chroma.Text: c.Text, chroma.Error: c.Error, chroma.Comment: c.Comment, chroma.CommentPreproc: c.CommentPreproc,
			chroma.Keyword: c.Keyword, chroma.KeywordReserved: c.KeywordReserved, chroma.KeywordType: c.KeywordType,
			chroma.KeywordNamespace: c.KeywordNamespace, chroma.Operator: c.Operator, chroma.Punctuation: c.Punctuation,
			chroma.Name: c.Name, chroma.NameBuiltin: c.NameBuiltin, chroma.NameTag: c.NameTag, chroma.NameClass: c.NameClass,
			chroma.NameAttribute: c.NameAttribute, chroma.NameConstant: c.NameConstant, chroma.NameOther: c.NameOther,
			chroma.NameDecorator: c.NameDecorator, chroma.NameException: c.NameException, chroma.NameFunction: c.NameFunction,
			chroma.Literal: c.Literal, chroma.LiteralNumber: c.LiteralNumber, chroma.LiteralDate: c.LiteralDate,
			chroma.LiteralString: c.LiteralString, chroma.LiteralStringEscape: c.LiteralStringEscape,
			chroma.GenericDeleted: c.GenericDeleted, chroma.GenericEmph: c.GenericEmph, chroma.GenericInserted: c.GenericInserted,
			chroma.GenericStrong: c.GenericStrong, chroma.GenericSubheading: c.GenericSubheading,
			// no Background: the terminal's, as chroma's terminal formatters leave it
		} {
			entries[t] = chromaEntry(p)
		}
		s, err := chroma.NewStyle("runnel", entries)
		if err != nil {
			return nil, fmt.Errorf("build chroma style: %w", err)
		}
		return s, nil
	}
	if cb.Theme != "" {
		return chromastyles.Get(cb.Theme), nil // a read: chroma's own themes
	}
	return nil, nil
}

// chromaEntry maps a glamour style primitive to a chroma style entry, as
// glamour's code block renderer does.
func chromaEntry(p ansi.StylePrimitive) string {
	var parts []string
	if p.Color != nil {
		parts = append(parts, *p.Color)
	}
	if p.BackgroundColor != nil {
		parts = append(parts, "bg:"+*p.BackgroundColor)
	}
	for _, f := range [...]struct {
		on   *bool
		name string
	}{{p.Italic, "italic"}, {p.Bold, "bold"}, {p.Underline, "underline"}} {
		if f.on != nil && *f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}

// codeRows renders code lines (each with its newline, but perhaps the
// last) as rows behind the code block's margin and indent. A closed block
// is highlighted whole; an open one (a fence still streaming) line by
// line, so a stream can keep the rows of complete lines: a token spanning
// lines (a block comment) may then show in other colours until the fence
// closes.
func (r *Renderer) codeRows(lang string, lines []string, open bool) []string {
	cb := r.style.CodeBlock
	pad := strings.Repeat(" ", int(val(cb.Margin, 0)+val(cb.Indent, 0)))
	var rows []string
	if open {
		for _, l := range lines {
			rows = append(rows, r.lines.get(lang, l, r.highlight)...)
		}
	} else {
		rows = r.lines.get(lang, strings.Join(lines, ""), r.highlight)
	}
	out := make([]string, len(rows))
	for i, row := range rows {
		if row != "" {
			out[i] = pad + row
		}
	}
	return out
}

// val is *p, or def for nil.
func val[T any](p *T, def T) T {
	if p != nil {
		return *p
	}
	return def
}

// maxHighlight is the most code highlighted at once: longer code (a
// megabyte of minified JSON in one block) is drawn in the plain code
// style, which costs a pass over it; chroma would take seconds.
const maxHighlight = 256 << 10

// highlight returns the rows of code, coloured by the Renderer's chroma
// style with the lexer named lang (plain text for none: guessing a lexer
// from the text would change colours as a block streams).
func (r *Renderer) highlight(lang, code string) []string {
	code = strings.TrimSuffix(code, "\n")
	if r.code == nil || len(code) > maxHighlight {
		rows := strings.Split(code, "\n")
		for i, row := range rows {
			rows[i] = r.paint(row, r.base.with(r.style.CodeBlock.StylePrimitive))
		}
		return rows
	}
	lexer := lexers.Fallback
	if lang != "" {
		if l := lexers.Get(lang); l != nil {
			lexer = l
		}
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return strings.Split(code, "\n")
	}
	var rows []string
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		sgr := r.tokenSGR(tok.Type)
		for v := tok.Value; v != ""; {
			line, rest, nl := strings.Cut(v, "\n")
			if line != "" {
				b.WriteString(sgr)
				b.WriteString(line)
				if sgr != "" {
					b.WriteString(reset)
				}
			}
			if nl {
				rows = append(rows, strings.TrimRight(b.String(), " "))
				b.Reset()
			}
			v = rest
		}
	}
	return append(rows, strings.TrimRight(b.String(), " "))
}

// tokenSGR is the SGR sequence for a chroma token type.
func (r *Renderer) tokenSGR(t chroma.TokenType) string {
	e := r.code.Get(t)
	var a attrs
	if e.Colour.IsSet() {
		a.fg = e.Colour.String()
	}
	if e.Background.IsSet() && e.Background != r.code.Get(chroma.Background).Background {
		a.bg = e.Background.String()
	}
	a.bold = e.Bold == chroma.Yes
	a.italic = e.Italic == chroma.Yes
	a.underline = e.Underline == chroma.Yes
	return r.sgr.sgr(a)
}

// lineCache keeps highlighted rows: of single code lines (an open code
// block is highlighted line by line on every frame while it streams, and
// all its lines but the last are the same as on the frame before), and of
// the last longer block (a block closed at the end of the text is
// rendered again when the next block settles it). It is bounded (cleared
// when full) and safe for concurrent use (a whole render may run off the
// UI goroutine with the same Renderer). Callers must not change the rows.
type lineCache struct {
	mu       sync.Mutex
	m        map[lineKey][]string
	last     lineKey
	lastRows []string
}

type lineKey struct{ lang, line string }

// maxCachedLines bounds lineCache: a few screens of code.
const maxCachedLines = 1024

func (c *lineCache) get(lang, code string, highlight func(lang, code string) []string) []string {
	k := lineKey{lang, code}
	c.mu.Lock()
	rows, ok := c.m[k]
	if c.lastRows != nil && k == c.last {
		rows, ok = c.lastRows, true
	}
	c.mu.Unlock()
	if ok {
		return rows
	}
	rows = highlight(lang, code)
	c.mu.Lock()
	switch {
	case strings.Contains(strings.TrimSuffix(code, "\n"), "\n"):
		c.last, c.lastRows = k, rows
	case c.m == nil || len(c.m) >= maxCachedLines:
		c.m = map[lineKey][]string{k: rows}
	default:
		c.m[k] = rows
	}
	c.mu.Unlock()
	return rows
}
