package block

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// facts is a titled list of name/value rows, as /status shows it:
//
//	· status
//	  model      gpt-5 (server: gpt-5-2025-08-07)
//	  cost       $0.0045
//
// Invariants: the title, names and values are cleaned to one line each; a
// value too long for the width wraps under itself.
type facts struct {
	title string
	rows  [][2]string
	out   cache
}

var _ Block = (*facts)(nil)

// NewFacts returns a facts block. Values may hold untrusted text (a model
// name the server reported): everything is cleaned.
func NewFacts(title string, rows [][2]string) Block {
	f := &facts{title: cleanLine(title)}
	for _, r := range rows {
		f.rows = append(f.rows, [2]string{cleanLine(r[0]), cleanLine(r[1])})
	}
	return f
}

func (f *facts) Live() bool { return false }

func (f *facts) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, 0}
	if out, ok := f.out.get(key); ok {
		return out
	}
	width := max(ctx.Width, 1)
	nameW := 0
	for _, r := range f.rows {
		nameW = max(nameW, ansi.StringWidth(r[0]))
	}
	lines := wrap(noticeGlyphs[Info]+" "+f.title, width)
	indent := 2 + nameW + 2
	for _, r := range f.rows {
		head := "  " + r[0] + strings.Repeat(" ", nameW-ansi.StringWidth(r[0])+2)
		if indent+8 > width { // too narrow for columns: the value on its own lines
			lines = append(lines, wrap("  "+r[0], width)...)
			lines = append(lines, wrap("    "+r[1], width)...)
			continue
		}
		for i, l := range wrap(r[1], width-indent) {
			if i == 0 {
				lines = append(lines, head+l)
			} else {
				lines = append(lines, strings.Repeat(" ", indent)+l)
			}
		}
	}
	return f.out.put(key, strings.Join(paint(ctx.look().notice(Info).Render, lines), "\n"))
}
