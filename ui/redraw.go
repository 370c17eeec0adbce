package ui

// This file builds the transcript again from the conversation (a resume,
// a fork, a branch shown, an edited prompt): a reset (resetRedraw) empties
// what the children show and count, then each stored turn is shown as it
// was, and the approvals still waiting are asked again.

import (
	"time"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// redraw rebuilds the transcript from the conversation: prompts, every item
// with its panel, collapsed reasoning, notices for turns that ended badly,
// and approvals still waiting.
func (m *Model) redraw() {
	m.reset(resetRedraw, Connection{}) // a redraw's reset starts no I/O: its Cmd is nil
	now := m.frame.clock()
	conv := m.turns.conversation()
	carried := conv.Carried()
	var window compactionMarks
	env := m.meterEnv()
	turns := conv.Turns
	for i, t := range turns {
		window.mark(&m.items, t.Input, now)
		if t.Retry {
			m.items.notice(block.Info, retryMark+" asked again from the same point")
		}
		if pos, n := conv.Siblings(i); n > 1 {
			m.items.notice(block.Info, branchLine(pos, n)) // branch.go
		}
		m.items.markTurn()
		if t.Prompt != "" {
			m.items.appendEntry(&plainEntry{b: block.NewUser(t.Prompt), fs: m.frame})
		}
		m.items.showAttachments(t.Attachments()) // attachments.go
		for _, s := range t.Responses {
			for _, it := range s.Items {
				m.items.showStored(it, now)
			}
		}
		m.metering.account(t.Responses, env)
		end := storedTurn{last: i == len(turns)-1, reattaching: t.Interrupted() && m.turns.reattaching(t)}
		end.carried = carried && end.last
		end.callsOpen = end.last && callsOpen(conv.ChainCalls())
		if kind, text := end.notice(t); text != "" {
			m.items.notice(kind, text)
		}
	}
	window.mark(&m.items, conv.Window(), now) // compacted, and not sent yet
	m.statusBar.showMeter(m.metering.figures(), m.metering.sessionUsage())
	if m.approvals.add(m.items.waitingApprovals(conv.PendingApprovals())) {
		m.turns.next(session.Event{Kind: session.Asking})
		m.approvals.askHosted(m.dialog != nil, m.frame) // the prompt comes back after a resume
	} else if m.turns.cur == nil {
		m.turns.next(session.Event{Kind: session.Settled})
	}
}

// storedTurn is what decides how a stored turn's end is told besides
// the turn itself.
type storedTurn struct {
	last        bool // the conversation's last turn
	carried     bool // and its prompt and partial answer go with the next message
	callsOpen   bool // a call of the chain has no final output (the last turn only)
	reattaching bool // reattach picks it up (turns.reattaching)
}

// notice is the notice that says how stored turn t ended when it went
// badly ("" when it did not).
func (s storedTurn) notice(t *session.Turn) (block.NoticeKind, string) {
	note := ""
	if s.carried {
		note = "; your next message sends its prompt and partial answer to the model"
	}
	switch {
	case t.Prompt == "" && len(t.Responses) == 0 && (t.Interrupted() || t.Stopped):
		// a tool round that sent nothing: resumeCalls speaks for calls
		// still open; outputs that were ready go with the next message
		if s.last && !s.callsOpen && len(t.Input) > 0 {
			return block.Info, "the tool outputs of this round had not reached the model — they go with your next message"
		}
	case t.Interrupted() && s.reattaching:
		return block.Info, "interrupted while this answer streamed — reattaching to it on the server"
	case t.Interrupted():
		return block.Warning, "interrupted — runnel stopped before this turn finished; its partial content is kept" + note
	case t.Stopped:
		return block.Info, "stopped" + note
	case t.Err != nil && contextFull(t.Err, nil):
		return block.Error, contextFullNotice
	case t.Err != nil:
		return block.Error, stream.SanitizeLine(t.Err.Error())
	case len(t.Responses) > 0 && t.Responses[len(t.Responses)-1].CutOff:
		return block.Warning, stream.CutOffNote + " — the partial answer is kept"
	}
	return block.Info, ""
}

// markTurn notes that a turn's entries start here (ctrl+↑/↓, /edit, a
// search hit scroll to it).
func (c *items) markTurn() { c.turnEntry = append(c.turnEntry, c.transcript.Len()) }

// showStored shows a stored item settled, as it ended; a server's tool
// list sent again is shown once (toollists.go), and an answer is kept for
// copying.
func (c *items) showStored(it *stream.Item, now time.Time) {
	if c.lists.skip(it) {
		return
	}
	c.lists.note(it)
	e := c.addItem(it, now)
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
	if it.Type == "message" && it.Text() != "" {
		c.answers = append(c.answers, it.Text())
	}
}
