package block

// This file draws what compaction leaves in the transcript: the panel of a
// compaction item ("context compacted", with the context's size before and
// after when the usage gives them) and the divider that marks where the
// model's context now starts.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tokenCounts is the context's size around a compaction; 0 is unknown.
type tokenCounts struct{ before, after int64 }

// Compaction is a compaction item's panel: the caller sets the token counts
// once the usage that gives them is known (the response's input tokens are
// the context before; /responses/compact's output tokens the window after).
type Compaction interface {
	SetTokens(before, after int64)
}

var _ Compaction = (*panel)(nil)

// SetTokens records the token counts a compaction panel shows; negative
// counts read as unknown. Other panels ignore it.
func (p *panel) SetTokens(before, after int64) {
	if p.it.Type != "compaction" {
		return
	}
	t := tokenCounts{max(before, 0), max(after, 0)}
	if t != p.tokens {
		p.tokens = t
		p.rev++
	}
}

// compactionBody is one line: the sizes when known, else what it means.
func compactionBody(p *panel, d *drawer) {
	b, a := p.tokens.before, p.tokens.after
	var line string
	switch {
	case b > 0 && a > 0:
		line = tokens(b) + " → " + tokens(a) + " tokens"
	case b > 0:
		line = tokens(b) + " tokens before"
	case a > 0:
		line = tokens(a) + " tokens after"
	default:
		line = "the model's context now starts here"
	}
	d.line(d.lk.muted.Render(line))
}

// tokens writes n with thousands separators: 51,097.
func tokens(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// divider is a rule across the transcript with a label in it.
type divider struct {
	label string
	out   cache
}

// NewDivider returns a rule across the width with label in it: "──
// label ──────". The label is cleaned to one line.
func NewDivider(label string) Block { return &divider{label: cleanLine(label)} }

func (d *divider) Live() bool { return false }

func (d *divider) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, 0}
	if out, ok := d.out.get(key); ok {
		return out
	}
	w := max(ctx.Width, 1)
	text := "── " + d.label + " "
	if ansi.StringWidth(text) >= w {
		text = ansi.Truncate(text, w, "…")
	} else {
		text += strings.Repeat("─", w-ansi.StringWidth(text))
	}
	return d.out.put(key, ctx.look().muted.Render(text))
}
