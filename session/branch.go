package session

// This file is the conversation's branches. Editing an earlier prompt (or
// sending after /undo) starts a turn beside the one it replaces: both stay,
// so the turns make a tree, each turn following its Parent. Conversation.Turns
// is the path shown and continued, from the root to the tip; the other
// branches' turns wait in off. The chain and the local history are always
// the path's: Cut and Show recompute the chain from it, so a request after
// an edit carries previous_response_id of the turn before the edited one
// (or, without stored state, the history up to it).

import (
	"slices"

	"runnel/session/store"
)

// Cut makes Turns[at-1] the tip: the turns from at on leave the path and
// stay in the tree (another branch). The next Begin follows the new tip;
// the chain is the new path's.
func (c *Conversation) Cut(at int) {
	at = max(0, min(at, len(c.Turns)))
	c.off = append(c.off, c.Turns[at:]...)
	c.Turns = c.Turns[:at:at]
	c.repath()
}

// Show makes the path the one from the root to tip (a turn of the tree;
// nil: the empty path before any turn). The turns it leaves stay in the
// tree.
func (c *Conversation) Show(tip *Turn) {
	var path []*Turn
	for t := tip; t != nil; t = t.Parent {
		path = append(path, t)
	}
	slices.Reverse(path)
	all := c.All()
	c.off = c.off[:0]
	for _, t := range all {
		if !slices.Contains(path, t) {
			c.off = append(c.off, t)
		}
	}
	c.Turns = path
	c.repath()
}

// repath sets what follows from the path: the chain at its last response
// that completed or ended incomplete (a failed retry leaves it on the answer
// it retried), no compacted window, off in the order the turns began. A
// server-side conversation holds every turn of the old path, so the new
// one leaves it and chains by response id, as a fork does.
func (c *Conversation) repath() {
	c.chainID, c.window, c.windowAt = "", nil, 0
	c.Settings.Conversation = ""
	c.movedAt = min(c.movedAt, len(c.Turns))
	c.chainID = chainOf(c.Turns)
	slices.SortStableFunc(c.off, func(a, b *Turn) int { return a.order - b.order })
}

// All is every turn of the tree, in the order they began.
func (c *Conversation) All() []*Turn {
	all := append(append([]*Turn(nil), c.Turns...), c.off...)
	slices.SortStableFunc(all, func(a, b *Turn) int { return a.order - b.order })
	return all
}

// Branched reports whether the conversation has more than one branch.
func (c *Conversation) Branched() bool { return len(c.off) > 0 }

// Children are the turns that follow t (nil: the first turns), in the
// order they began.
func (c *Conversation) Children(t *Turn) []*Turn {
	var out []*Turn
	for _, x := range c.All() {
		if x.Parent == t {
			out = append(out, x)
		}
	}
	return out
}

// Siblings returns where path turn i stands among the turns that follow
// the same turn (1-based) and how many there are; n is 1 where nothing
// branched.
func (c *Conversation) Siblings(i int) (pos, n int) {
	if len(c.off) == 0 || i < 0 || i >= len(c.Turns) {
		return 1, 1
	}
	sib := c.Children(c.Turns[i].Parent)
	return slices.Index(sib, c.Turns[i]) + 1, len(sib)
}

// Newest is the tip of the branch through t that was last added to: the
// newest turn that t leads to (t itself when nothing follows it).
func (c *Conversation) Newest(t *Turn) *Turn {
	best := t
	for _, x := range c.All() {
		if x.order > best.order && leadsTo(t, x) {
			best = x
		}
	}
	return best
}

// leadsTo reports whether a is x or one of the turns before it.
func leadsTo(a, x *Turn) bool {
	for ; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// Branch is one branch of the tree, as /tree lists it: the path from the
// root to Tip.
type Branch struct {
	Tip     *Turn  // its last turn (nil: the empty path)
	At      int    // the user turn where it leaves the first branch (1-based); 0 for the first branch
	Prompt  string // the prompt of that turn (the first branch: its first prompt)
	Turns   int    // its user turns
	Current bool   // it is the path shown
}

// Branches lists the tree's branches: one for each turn nothing follows,
// and the path shown when its tip has turns after it (after /undo), in the
// order their tips began.
func (c *Conversation) Branches() []Branch {
	all := c.All()
	var tip *Turn
	if len(c.Turns) > 0 {
		tip = c.Turns[len(c.Turns)-1]
	}
	var out []Branch
	add := func(t *Turn) {
		b := Branch{Tip: t, Current: t == tip}
		var path []*Turn
		for x := t; x != nil; x = x.Parent {
			path = append(path, x)
		}
		slices.Reverse(path)
		for _, x := range path {
			if !store.UserTurn(x.Prompt, x.Input) {
				continue
			}
			b.Turns++
			if b.Prompt == "" {
				b.Prompt = x.Prompt
			}
			if b.At == 0 && c.Children(x.Parent)[0] != x {
				b.At, b.Prompt = b.Turns, x.Prompt
			}
		}
		out = append(out, b)
	}
	if tip == nil || len(c.Children(tip)) > 0 {
		add(tip)
	}
	for _, t := range all {
		if len(c.Children(t)) == 0 {
			add(t)
		}
	}
	slices.SortStableFunc(out, func(a, b Branch) int { return orderOf(a.Tip) - orderOf(b.Tip) })
	return out
}

func orderOf(t *Turn) int {
	if t == nil {
		return 0
	}
	return t.order
}

// Stored is the turn loaded from the store as seq (FromStore), nil when
// there is none.
func (c *Conversation) Stored(seq int) *Turn {
	for _, t := range c.All() {
		if t.Row != 0 && t.order == seq {
			return t
		}
	}
	return nil
}

// Reveal shows the branch that holds t, to its newest turn, when t is not
// on the path shown; it returns t's path index, -1 for a nil t.
func (c *Conversation) Reveal(t *Turn) int {
	if t == nil {
		return -1
	}
	if !slices.Contains(c.Turns, t) {
		c.Show(c.Newest(t))
	}
	return slices.Index(c.Turns, t)
}

// LastUserTurn is the path index of the newest user turn, -1 when there is
// none: /undo cuts there.
func (c *Conversation) LastUserTurn() int {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if store.UserTurn(c.Turns[i].Prompt, c.Turns[i].Input) {
			return i
		}
	}
	return -1
}

// chainOf is the id of the last response of turns that completed or ended
// incomplete: what a request after them chains to ("" for none).
func chainOf(turns []*Turn) string {
	id := ""
	for _, t := range turns {
		for _, s := range t.Responses {
			if s.Terminal && s.ID != "" && (s.Status == "completed" || s.Status == "incomplete") {
				id = s.ID
			}
		}
	}
	return id
}
