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
	"runnel/theme"
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
	ts.say(block.Info, fmt.Sprintf("editing turn %d — enter sends it as a new branch: %s; esc, ctrl+c or an empty composer leaves", n, staysLine(n, len(at))))
	return t.Prompt, attach.FilesFromInput(t.Input), true
}

// staysLine says what an edit of user turn n of last leaves on the other
// branch: "turn 3 stays on the other branch (/tree)".
func staysLine(n, last int) string {
	turns := fmt.Sprintf("turn %d stays", n)
	if last > n {
		turns = fmt.Sprintf("turns %d–%d stay", n, last)
	}
	return turns + " on the other branch (/tree)"
}

// fromLine is where the edit of user turn n branches from.
func fromLine(n int) string {
	if n <= 1 {
		return "sending as a branch from the start"
	}
	return fmt.Sprintf("sending as a branch from turn %d", n-1)
}

// editNumber is the user turn a pending edit replaces (from 1) and the
// last user turn of the path; 0, 0 when no edit is pending.
func (ts *turns) editNumber() (n, last int) {
	if ts.editing == nil {
		return 0, 0
	}
	at := userTurnsAt(ts.conv)
	return slices.Index(at, slices.Index(ts.conv.Turns, ts.editing)) + 1, len(at)
}

// editView is the line under the composer while an edit is pending, so
// that what is shown agrees with the state: "" when none is.
func (ts *turns) editView(width int, st *theme.Styles) string {
	n, last := ts.editNumber()
	if n == 0 {
		return ""
	}
	sh := theme.ShellOf(st)
	return cutLines(sh.HelpKey.Render(fmt.Sprintf("✎ editing turn %d ", n))+sh.HelpDesc.Render("· enter: "+staysLine(n, last)+" · esc leaves"), width)
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

// takeEdit ends a pending edit as its message is sent: the conversation
// is cut where the edited turn was, and it returns the line that says so
// before it goes ("sending as a branch from turn 2: turn 3 stays on the
// other branch (/tree)"); false when no edit is pending (or its turn left
// the path shown).
func (ts *turns) takeEdit() (string, bool) {
	n, last := ts.editNumber()
	t := ts.editing
	ts.editing = nil
	at := slices.Index(ts.conv.Turns, t)
	if t == nil || at < 0 {
		return "", false
	}
	ts.conv.Cut(at)
	return fromLine(n) + ": " + staysLine(n, last), true
}

// cancelEdit drops a pending edit, and reports whether one was pending.
func (ts *turns) cancelEdit() bool {
	on := ts.editing != nil
	ts.editing = nil
	return on
}

// leaveEdit leaves edit mode (esc, ctrl+c): the composer, which held the
// edit, is cleared (↑ brings a changed edit back) and the path is as it was.
// emptied leaves it only once its composer is emptied (ctrl+u, backspace):
// an empty composer is never an edit in waiting.
func (m *Model) leaveEdit(emptied bool) {
	t := m.turns.editing
	if t == nil || emptied && (m.composer.Value() != "" || len(m.composer.Attachments()) > 0) || !m.turns.cancelEdit() {
		return
	}
	note := "left edit mode — nothing changed"
	switch {
	case emptied:
		note = "left edit mode — the composer is empty; nothing changed"
	case m.composer.Value() != t.Prompt && m.composer.Clear():
		note = "left edit mode — the edit is cleared (↑ brings it back); nothing changed"
	}
	if !emptied {
		m.composer.Reset()
	}
	m.relayout()
	m.items.notice(block.Info, note)
}

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
