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
// last) as rows behind the code block's margin and indent. Lines are
// highlighted one by one (each once: a stream's open fence and the whole
// render of the closed block share the rows, lineCache), and a closed
// block is highlighted whole instead only when a line may end inside a
// token that goes on (a string, a comment: closedRows). An open block (a
// fence still streaming) is always drawn line by line: such a token may
// then show in other colours until the fence closes; and its last line,
// until its newline comes, in the code style without highlighting: a line
// arrives over several frames, and highlighting it on each cost more than
// all its block's whole lines (chroma allocates per match).
func (r *Renderer) codeRows(lang string, lines []string, open bool) []string {
	cb := r.style.CodeBlock
	pad := strings.Repeat(" ", int(val(cb.Margin, 0)+val(cb.Indent, 0)))
	var rows []string
	if open {
		for _, l := range lines {
			if !strings.HasSuffix(l, "\n") { // the line still coming: coloured when it is whole
				rows = append(rows, r.plainRows(l)...)
				continue
			}
			rows = append(rows, r.lines.get(lang, l, r.highlightLine).rows...)
		}
	} else {
		rows = r.closedRows(lang, lines)
	}
	out := make([]string, len(rows))
	for i, row := range rows {
		if row != "" {
			out[i] = pad + row
		}
	}
	return out
}

// closedRows highlights a closed block's lines: from its lines' rows when
// each ends clean, else whole (the last such block is kept, lineCache).
func (r *Renderer) closedRows(lang string, lines []string) []string {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	if r.code == nil || n > maxHighlight {
		return r.highlight(lang, strings.Join(lines, "")) // plain: a pass
	}
	if !lineLexers[r.lexer(lang).Config().Name] {
		return r.lines.get(lang, strings.Join(lines, ""), r.highlightWhole).rows
	}
	rows := make([]string, 0, len(lines))
	for _, l := range lines {
		h := r.lines.get(lang, l, r.highlightLine)
		if !h.clean || mayGoOn(l) {
			return r.lines.get(lang, strings.Join(lines, ""), r.highlightWhole).rows
		}
		rows = append(rows, h.rows...)
	}
	return rows
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
func (r *Renderer) highlight(lang, code string) []string { return r.highlightWhole(lang, code).rows }

// highlightWhole is highlight, with the rows in a lit.
func (r *Renderer) highlightWhole(lang, code string) lit {
	return r.tokenRows(lang, strings.TrimSuffix(code, "\n"))
}

// highlightLine highlights one line (or a piece of one) with its newline,
// which the lexer sees: whether the newline is plain text tells whether
// the line ended clean (lit.clean).
func (r *Renderer) highlightLine(lang, line string) lit {
	h := r.tokenRows(lang, line)
	if strings.HasSuffix(line, "\n") && len(h.rows) > 1 {
		h.rows = h.rows[:len(h.rows)-1] // the empty row after the newline
	}
	return h
}

// lit is highlighted code: its rows, and clean when the code ends with a
// newline that the lexer read as plain text and it held no error token:
// the lexer is then back where a line starts (no string, comment or other
// token goes on), so the rows are those the line has inside its whole
// block (TestLinesHighlightAsTheirBlock checks it on real answers).
type lit struct {
	rows  []string
	clean bool
}

// plainRows is code's rows in the code block's style, unhighlighted.
func (r *Renderer) plainRows(code string) []string {
	rows := strings.Split(code, "\n")
	for i, row := range rows {
		rows[i] = r.paint(row, r.base.with(r.style.CodeBlock.StylePrimitive))
	}
	return rows
}

// tokenRows colours code (see highlight).
func (r *Renderer) tokenRows(lang, code string) lit {
	if r.code == nil || len(code) > maxHighlight {
		return lit{rows: r.plainRows(code), clean: true}
	}
	it, err := chroma.Coalesce(r.lexer(lang)).Tokenise(nil, code)
	if err != nil {
		return lit{rows: strings.Split(code, "\n")}
	}
	var rows []string
	var b strings.Builder
	clean := true
	var last chroma.TokenType
	for tok := it(); tok != chroma.EOF; tok = it() {
		last = tok.Type
		clean = clean && tok.Type != chroma.Error
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
	clean = clean && strings.HasSuffix(code, "\n") && last.InCategory(chroma.Text)
	return lit{rows: append(rows, strings.TrimRight(b.String(), " ")), clean: clean}
}

// lineLexers are the lexers (by chroma's name) whose lines are drawn
// from their own rows in a closed block: those whose state at a line's
// end shows in its tokens (TestLinesHighlightAsTheirBlock). Others (YAML,
// whose block scalars go on from an indent; JSON, whose lines alone are
// errors) are highlighted whole, as before.
var lineLexers = map[string]bool{
	"plaintext": true, "Go": true, "Python": true, "JavaScript": true, "TypeScript": true,
	"Rust": true, "Bash": true, "C": true, "C++": true, "Java": true, "SQL": true,
}

// mayGoOn reports whether a line may open a token that a lexer matches
// across lines in one piece (a block comment, a raw or multi-line string,
// a heredoc), which a line's own tokens cannot show: an odd number of
// quotes of a kind, an opener without its closer after it, or a
// continuation backslash at the end. It may say yes to a line that opens
// nothing (an apostrophe in a comment): its block is then highlighted
// whole, as before.
func mayGoOn(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	if strings.HasSuffix(line, "\\") {
		return true
	}
	for _, q := range [...]byte{'"', '\'', '`'} {
		n := 0
		for i := 0; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			if line[i] == q {
				n++
			}
		}
		if n%2 == 1 {
			return true
		}
	}
	for _, p := range [...][2]string{{"/*", "*/"}, {"<!--", "-->"}, {"{-", "-}"}, {"(*", "*)"}, {"[[", "]]"}, {"<<", "\x00"}, {"=begin", "\x00"}} {
		if i := strings.LastIndex(line, p[0]); i >= 0 && !strings.Contains(line[i+len(p[0]):], p[1]) {
			return true
		}
	}
	return false
}

// lexer returns the lexer named lang, or the plain one; found once per
// name (a name chroma does not know is matched against every lexer's file
// patterns).
func (r *Renderer) lexer(lang string) chroma.Lexer {
	if lang == "" {
		return lexers.Fallback
	}
	if l, ok := r.lexers.Load(lang); ok {
		return l.(chroma.Lexer)
	}
	l := lexers.Get(lang)
	if l == nil {
		l = lexers.Fallback
	}
	if n := r.nlexers.Add(1); n <= maxLexerNames {
		r.lexers.Store(lang, l)
	}
	return l
}

// maxLexerNames bounds the lexer names a Renderer keeps (a model may name
// a fence anything).
const maxLexerNames = 64

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
	m        map[lineKey]lit
	last     lineKey
	lastRows lit
	misses   int // highlights done (for tests)
}

type lineKey struct{ lang, line string }

// maxCachedLines bounds lineCache: a few screens of code.
const maxCachedLines = 1024

func (c *lineCache) get(lang, code string, highlight func(lang, code string) lit) lit {
	k := lineKey{lang, code}
	multi := strings.Contains(strings.TrimSuffix(code, "\n"), "\n")
	c.mu.Lock()
	rows, ok := c.m[k]
	if multi {
		rows, ok = c.lastRows, c.lastRows.rows != nil && k == c.last
	}
	c.mu.Unlock()
	if ok {
		return rows
	}
	rows = highlight(lang, code)
	c.mu.Lock()
	c.misses++
	switch {
	case multi:
		c.last, c.lastRows = k, rows
	case c.m == nil || len(c.m) >= maxCachedLines:
		c.m = map[lineKey]lit{k: rows}
	default:
		c.m[k] = rows
	}
	c.mu.Unlock()
	return rows
}
