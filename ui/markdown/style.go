package markdown

import (
	"strings"
	"sync"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// attrs is the part of a glamour StylePrimitive that becomes an SGR
// sequence, flattened so it can be compared and used as a map key.
type attrs struct {
	fg, bg                                          string
	bold, italic, underline, strike, inverse, blink bool
}

// with returns a with p's colours and attributes laid over it, as glamour
// cascades a child element's style over its block's.
func (a attrs) with(p ansi.StylePrimitive) attrs {
	if p.Color != nil {
		a.fg = *p.Color
	}
	if p.BackgroundColor != nil {
		a.bg = *p.BackgroundColor
	}
	for _, f := range [...]struct{ dst, v *bool }{{&a.bold, p.Bold}, {&a.italic, p.Italic},
		{&a.underline, p.Underline}, {&a.strike, p.CrossedOut}, {&a.inverse, p.Inverse}, {&a.blink, p.Blink}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	return a
}

// sgrCache maps attrs to their SGR sequence. It is safe for concurrent use.
type sgrCache struct{ m sync.Map }

// sgr returns the sequence that turns a on ("" for no style), built as
// glamour builds it (x/ansi Style, colours parsed by lipgloss).
func (c *sgrCache) sgr(a attrs) string {
	if a == (attrs{}) {
		return ""
	}
	if v, ok := c.m.Load(a); ok {
		return v.(string)
	}
	var st xansi.Style
	if a.fg != "" {
		st = st.ForegroundColor(lipgloss.Color(a.fg))
	}
	if a.bg != "" {
		st = st.BackgroundColor(lipgloss.Color(a.bg))
	}
	for _, f := range [...]struct {
		on  bool
		set func(xansi.Style, bool) xansi.Style
	}{{a.underline, xansi.Style.Underline}, {a.bold, func(s xansi.Style, _ bool) xansi.Style { return s.Bold() }},
		{a.italic, xansi.Style.Italic}, {a.strike, xansi.Style.Strikethrough}, {a.inverse, xansi.Style.Reverse}, {a.blink, xansi.Style.Blink}} {
		if f.on {
			st = f.set(st, true)
		}
	}
	s := st.String()
	if s == "\x1b[m" {
		s = "" // attrs that set nothing (a colour that did not parse)
	}
	c.m.Store(a, s)
	return s
}

const reset = "\x1b[m"

// format applies a Format ("Image: {{.text}} →"; glamour's styles use only
// {{.text}}, all this supports) and the case rules to a token.
func format(p ansi.StylePrimitive, s string) string {
	if p.Format != "" {
		s = strings.ReplaceAll(p.Format, "{{.text}}", s)
	}
	switch {
	case p.Upper != nil && *p.Upper:
		s = strings.ToUpper(s)
	case p.Lower != nil && *p.Lower:
		s = strings.ToLower(s)
	}
	return s
}

// oneLine drops the newlines of a block prefix or suffix: blocks are
// separated by one blank row here, not by the newlines glamour's styles
// put around them.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\n", "")
}

// cells is the width of s in terminal cells; plain ASCII is measured by
// its length.
func cells(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == 0x1b {
			return xansi.StringWidth(s)
		}
	}
	return len(s)
}
