package ui

// This file is the turns child's side of branches (session/branch.go):
// /edit N puts an earlier prompt in the composer, and sending it starts a
// branch beside that turn (takeEdit: the transcript below it goes, the new
// answer chains from the turn before); ctrl+left and ctrl+right on an empty
// composer switch the last branch point of the path shown; /undo drops the
// last exchange from the path (it stays a branch); /tree lists every
// branch (tree.go). Showing another branch is a branchMsg: the root redraws
// the transcript from the new path and the history records the tip.

import (
	"fmt"
	"slices"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/store"
	"runnel/ui/block"
)

// branchMsg asks the root to show the path that ends at tip (nil: the empty
// path before the first turn) and say note.
type branchMsg struct {
	tip  *session.Turn
	note string
}

// branchLine is the line above a prompt that has other branches: pos of n.
func branchLine(pos, n int) string {
	return fmt.Sprintf("◀ %d/%d ▶ branches of this prompt — ctrl+← / ctrl+→ switch, /tree lists them", pos, n)
}

// busyForBranch says why the path cannot move now; "" when it can.
func (ts *turns) busyForBranch(toolsBusy bool) string {
	switch {
	case ts.cur != nil && !ts.cur.ended:
		return "a reply is still streaming — esc stops it first"
	case toolsBusy:
		return "tools are still running — esc stops them first"
	case ts.compacting != nil:
		return "compacting the context — try again once it is done"
	}
	return ""
}

// userTurnsAt is the path index of each user turn (numbered as "N turns"
// counts them: tool rounds belong to the turn before them).
func userTurnsAt(c *session.Conversation) []int {
	var at []int
	for i, t := range c.Turns {
		if store.UserTurn(t.Prompt, t.Input) {
			at = append(at, i)
		}
	}
	return at
}

// edit starts editing user turn n (0: the last): it returns the prompt and
// files to put in the composer. Sending them (takeEdit) starts the branch.
func (ts *turns) edit(n int, toolsBusy bool) (string, []*attach.File, bool) {
	if why := ts.busyForBranch(toolsBusy); why != "" {
		ts.say(block.Info, why)
		return "", nil, false
	}
	at := userTurnsAt(ts.conv)
	if n == 0 {
		n = len(at)
	}
	if n < 1 || n > len(at) {
		if len(at) == 0 {
			ts.say(block.Info, "nothing to edit yet: send a message first")
		} else {
			ts.say(block.Warning, fmt.Sprintf("/edit N: N is a turn from 1 to %d", len(at)))
		}
		return "", nil, false
	}
	t := ts.conv.Turns[at[n-1]]
	ts.editing = t
	ts.say(block.Info, fmt.Sprintf("editing turn %d — enter sends it as a new branch from there (the original stays: ctrl+← / ctrl+→, /tree); esc cancels", n))
	return t.Prompt, attach.FilesFromInput(t.Input), true
}

// back moves a pending edit whose prompt is still as edit put it in the
// composer (value) to the user turn before it, so that esc walks back
// through the prompts; false when there is none before it, or the prompt
// was changed.
func (ts *turns) back(value string) (string, []*attach.File, bool) {
	t := ts.editing
	if t == nil || value != t.Prompt {
		return "", nil, false
	}
	n := slices.Index(userTurnsAt(ts.conv), slices.Index(ts.conv.Turns, t)) // the one before, counted from 1
	if n < 1 {
		return "", nil, false
	}
	return ts.edit(n, false)
}

// userTurnOf is the number (from 1) of the user turn the conversation's
// turn j belongs to: a tool round belongs to the prompt before it; 0 for
// none.
func userTurnOf(c *session.Conversation, j int) int {
	n := 0
	for _, i := range userTurnsAt(c) {
		if i <= j {
			n++
		}
	}
	return n
}

// takeEdit ends a pending edit as its message is sent: the path index the
// conversation is cut at, -1 when no edit is pending (or its turn left the
// path shown).
func (ts *turns) takeEdit() int {
	t := ts.editing
	ts.editing = nil
	if t == nil {
		return -1
	}
	return slices.Index(ts.conv.Turns, t)
}

// cancelEdit drops a pending edit (esc cleared the composer).
func (ts *turns) cancelEdit() { ts.editing = nil }

// editedLine is the branch line of a prompt about to be sent (the last of
// its siblings), "" when nothing else follows the turn it follows: it
// branches after an edit, /undo or a switch to a branch that went on.
func editedLine(c *session.Conversation) string {
	if !c.Branched() {
		return ""
	}
	var tip *session.Turn
	if n := len(c.Turns); n > 0 {
		tip = c.Turns[n-1]
	}
	n := len(c.Children(tip)) + 1
	if n < 2 {
		return ""
	}
	return branchLine(n, n)
}

// switchBranch moves the last branch point of the path shown to its
// previous (dir < 0) or next sibling, wrapping, showing that branch to its
// newest turn.
func (ts *turns) switchBranch(dir int, toolsBusy bool) {
	if why := ts.busyForBranch(toolsBusy); why != "" {
		ts.say(block.Info, why)
		return
	}
	c := ts.conv
	for i := len(c.Turns) - 1; i >= 0; i-- {
		pos, n := c.Siblings(i)
		if n < 2 {
			continue
		}
		sib := c.Children(c.Turns[i].Parent)
		j := ((pos-1+dir)%n + n) % n // wrapping
		turn := len(userTurnsAt(&session.Conversation{Turns: c.Turns[:i+1]}))
		ts.fs.post(branchMsg{tip: c.Newest(sib[j]), note: fmt.Sprintf("showing branch %d of %d at turn %d — your next message continues it", j+1, n, turn)})
		return
	}
	if c.Branched() {
		ts.fs.post(branchMsg{tip: c.Newest(c.Children(nil)[0]), note: "showing the newest branch"}) // after /undo: the tip has turns after it
		return
	}
	ts.say(block.Info, "no branches here — /edit N edits an earlier prompt and starts one")
}

// undo drops the last exchange from the path shown; it stays in the tree.
func (ts *turns) undo(toolsBusy bool) {
	if why := ts.busyForBranch(toolsBusy); why != "" {
		ts.say(block.Info, why)
		return
	}
	at := ts.conv.LastUserTurn()
	if at < 0 {
		ts.say(block.Info, "nothing to undo")
		return
	}
	var tip *session.Turn
	if at > 0 {
		tip = ts.conv.Turns[at-1]
	}
	ts.fs.post(branchMsg{tip: tip, note: "undone: the last exchange left the conversation (it stays a branch: /tree, ctrl+→)"})
}

// showBranch makes the path the one ending at tip, unless the chat is busy
// (it says why); it reports whether it did.
func (ts *turns) showBranch(tip *session.Turn, toolsBusy bool) bool {
	if why := ts.busyForBranch(toolsBusy); why != "" {
		ts.say(block.Info, why)
		return false
	}
	ts.editing = nil
	ts.conv.Show(tip)
	return true
}

// setTip records the tip of the path shown: a resume shows that path, and
// the next turn follows it.
func (h *history) setTip(c *session.Conversation) {
	if h.journal == nil {
		return
	}
	var tip *session.Turn
	if n := len(c.Turns); n > 0 {
		tip = c.Turns[n-1]
	}
	h.journal.SetTip(tip)
}
