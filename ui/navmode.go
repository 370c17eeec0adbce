package ui

// This file is the transcript's navigation mode (the items child): a
// cursor on one block of the transcript, moved with vi's keys (j/k, gg/G,
// ctrl+d/ctrl+u, ]]/[[ by turn, / to search with n/N), that copies the
// block (y, through the frame's clipboard after stream.Sanitize, as every copy) or opens
// and closes its panel (o). The navigate key enters it (ctrl+k in the vi
// preset); i or esc returns to the composer. The status line says
// NAVIGATE, and the search being typed.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/block"
)

// navigator is the navigation mode's state.
//
// Invariants:
//   - when on, 0 ≤ cur < the transcript's length (or the transcript is
//     empty and cur is 0), and the transcript marks cur.
//   - seq is "" or the first key of gg, ]] or [[.
//   - typing is true while "/" reads a query into draft; query is the
//     last search run.
type navigator struct {
	on     bool
	cur    int
	seq    string
	typing bool
	draft  string
	query  string
}

// label is the mode as the status line shows it: "" when off.
func (n navigator) label() string {
	switch {
	case !n.on:
		return ""
	case n.typing:
		return "NAVIGATE /" + n.draft
	case n.query != "":
		return "NAVIGATE · /" + n.query
	}
	return "NAVIGATE"
}

// startNav enters navigation mode on the last block.
func (c *items) startNav() {
	c.nav = navigator{on: true, query: c.nav.query}
	c.nav.moveTo(&c.transcript, c.transcript.Len()-1)
}

// stopNav leaves navigation mode; the view stays where it is.
func (c *items) stopNav() {
	c.nav.on, c.nav.typing, c.nav.seq = false, false, ""
	c.transcript.Mark(-1)
}

// moveTo moves the cursor to block i of t (clamped; past blocks that draw
// nothing, forward, or back at the end) and shows it.
func (n *navigator) moveTo(t *Transcript, i int) {
	i = min(max(i, 0), max(t.Len()-1, 0))
	if j := t.drawn(i, 1); j >= 0 {
		i = j
	} else if j := t.drawn(i, -1); j >= 0 {
		i = j
	}
	n.cur = i
	t.Mark(n.cur)
	t.Reveal(n.cur)
}

// step moves the cursor to the next block of t that draws lines in
// direction dir; at the end it stays.
func (n *navigator) step(t *Transcript, dir int) {
	if j := t.drawn(n.cur+dir, dir); j >= 0 {
		n.moveTo(t, j)
	}
}

// navKey handles a key in navigation mode.
func (c *items) navKey(k tea.KeyPressMsg, keys NavKeys) tea.Cmd {
	if c.nav.typing {
		if c.nav.typeKey(k) {
			c.findNext(c.nav.cur, 1)
		}
		return nil
	}
	s := k.String()
	if seq := c.nav.seq; seq != "" {
		c.nav.seq = ""
		switch seq + s {
		case "gg":
			c.nav.moveTo(&c.transcript, 0)
		case "]]":
			c.nav.moveTo(&c.transcript, c.turnEntry.after(c.nav.cur, c.transcript.Len()-1))
		case "[[":
			c.nav.moveTo(&c.transcript, c.turnEntry.before(c.nav.cur))
		}
		return nil
	}
	switch {
	case key.Matches(k, keys.Exit):
		c.stopNav()
	case key.Matches(k, keys.Down):
		c.nav.step(&c.transcript, 1)
	case key.Matches(k, keys.Up):
		c.nav.step(&c.transcript, -1)
	case key.Matches(k, keys.Bottom):
		c.nav.moveTo(&c.transcript, c.transcript.Len()-1)
		c.transcript.Follow()
	case key.Matches(k, keys.HalfDown), key.Matches(k, keys.HalfUp):
		half := max(c.transcript.Height()/2, 1)
		if key.Matches(k, keys.HalfDown) {
			c.transcript.scrollDown(half)
		} else {
			c.transcript.scrollUp(half)
		}
		top, _ := c.transcript.top()
		c.nav.cur = top
		c.transcript.Mark(top)
	case key.Matches(k, keys.Search):
		c.nav.typing, c.nav.draft = true, ""
	case key.Matches(k, keys.Next):
		c.findNext(c.nav.cur+1, 1)
	case key.Matches(k, keys.Prev):
		c.findNext(c.nav.cur-1, -1)
	case key.Matches(k, keys.Copy):
		return c.copyBlock(c.nav.cur)
	case key.Matches(k, keys.Toggle):
		c.toggleBlock(c.nav.cur)
	case key.Matches(k, keys.Edit):
		j := c.turnEntry.of(c.nav.cur)
		if j < 0 {
			return nil
		}
		c.stopNav()
		return func() tea.Msg { return editTurnMsg{turn: j} }
	case s == "g" || s == "]" || s == "[":
		c.nav.seq = s
	}
	return nil
}

// typeKey edits the query after "/": enter ends it and reports that a
// search from the cursor is due, esc gives up, backspace deletes a
// character.
func (n *navigator) typeKey(k tea.KeyPressMsg) (search bool) {
	switch k.String() {
	case "enter":
		n.typing = false
		if q := strings.TrimSpace(n.draft); q != "" {
			n.query = q
		}
		return n.query != ""
	case "esc":
		n.typing = false
	case "backspace":
		r := []rune(n.draft)
		n.draft = string(r[:max(len(r)-1, 0)])
	default:
		if k.Text != "" {
			n.draft += stream.SanitizeLine(k.Text)
		}
	}
	return false
}

// find moves to the first block of t from i on (dir 1) or back (dir -1)
// whose text holds the query, case-insensitively, wrapping around once; it
// is false when none does.
func (n *navigator) find(t *Transcript, i, dir int) bool {
	q := strings.ToLower(n.query)
	size := t.Len()
	if q == "" || size == 0 {
		return true
	}
	for step := range size {
		j := ((i+dir*step)%size + size) % size
		if strings.Contains(strings.ToLower(t.blockText(j)), q) {
			n.moveTo(t, j)
			return true
		}
	}
	return false
}

// findNext searches from block i in direction dir, and says so when no
// block holds the query.
func (c *items) findNext(i, dir int) {
	if !c.nav.find(&c.transcript, i, dir) {
		c.notice(block.Info, "no block holds “"+c.nav.query+"”")
	}
}

// editTurnMsg asks to edit the prompt of the conversation's turn (its
// index in the path shown): e in navigation mode.
type editTurnMsg struct{ turn int }

// copyBlock copies entry i's text, cleaned like every copy.
func (c *items) copyBlock(i int) tea.Cmd {
	text := stream.Sanitize(c.transcript.blockText(i))
	if strings.TrimSpace(text) == "" {
		c.notice(block.Info, "nothing to copy in this block")
		return nil
	}
	return c.fs.copy(text)
}

// toggleBlock opens or closes entry i when it is a panel or reasoning.
func (c *items) toggleBlock(i int) {
	if i < 0 || i >= c.transcript.Len() {
		return
	}
	if ie, ok := c.transcript.slots[i].e.(*itemEntry); ok {
		if _, ok := ie.b.(block.Expander); ok {
			c.toggle(ie)
			c.transcript.Reveal(i)
			return
		}
	}
	c.notice(block.Info, "this block has no panel to open")
}

// turnStarts is the transcript index of each conversation turn's first
// entry, ascending (items.turnEntry).
type turnStarts []int

// of is the conversation turn entry i belongs to, -1 for none (the
// welcome above the first turn).
func (ts turnStarts) of(i int) int {
	j := -1
	for k, t := range ts {
		if t <= i {
			j = k
		}
	}
	return j
}

// after is the first entry of the turn after the one i is in, or last
// when there is none.
func (ts turnStarts) after(i, last int) int {
	for _, t := range ts {
		if t > i {
			return t
		}
	}
	return last
}

// before is the first entry of the turn before the one i is in (of i's
// own turn when i is not its first entry), or 0.
func (ts turnStarts) before(i int) int {
	for j := len(ts) - 1; j >= 0; j-- {
		if ts[j] < i {
			return ts[j]
		}
	}
	return 0
}
