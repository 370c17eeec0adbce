package block

import "strings"

// user is the block of a prompt the user sent.
//
// Invariants: text is cleaned; out caches the render per width and styles.
type user struct {
	text    string
	out     cache
	renders int // renders, for tests
}

var _ Block = (*user)(nil)

// NewUser returns the block of a user prompt. The text is cleaned like any
// other: it may have been pasted from anywhere.
func NewUser(text string) Block {
	return &user{text: clean(strings.TrimRight(text, "\n"))}
}

func (u *user) Live() bool { return false }

// Source is the prompt's text, cleaned.
func (u *user) Source() string { return u.text }

func (u *user) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, 0}
	if out, ok := u.out.get(key); ok {
		return out
	}
	u.renders++
	lk := ctx.look()
	width := max(ctx.Width, 1)
	frame := lk.user.GetHorizontalFrameSize()
	rows := wrap(u.text, max(width-frame, 1))
	for i, r := range rows {
		rows[i] = fit(lk.user.Render(r), width)
	}
	return u.out.put(key, strings.Join(rows, "\n"))
}
