package block

import "strings"

// attachments is the line under a user prompt listing the files it sent, as
// chips: "[notes.txt · 1.2 KiB] [image png · 84 KiB]".
//
// Invariants: every chip is cleaned to one line; out caches the render per
// width and styles.
type attachments struct {
	chips []string
	out   cache
}

var _ Block = (*attachments)(nil)

// NewAttachments returns the block listing a prompt's attachments, one chip
// label ("name · size") each. File names come from the user's disk and may
// hold anything: they are cleaned.
func NewAttachments(labels []string) Block {
	a := &attachments{}
	for _, l := range labels {
		a.chips = append(a.chips, "["+cleanLine(l)+"]")
	}
	return a
}

func (a *attachments) Live() bool { return false }

func (a *attachments) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, 0}
	if out, ok := a.out.get(key); ok {
		return out
	}
	lk := ctx.look()
	width := max(ctx.Width, 1)
	rows := wrap("  attached: "+strings.Join(a.chips, " "), width)
	for i, r := range rows {
		rows[i] = lk.muted.Render(r)
	}
	return a.out.put(key, strings.Join(rows, "\n"))
}
