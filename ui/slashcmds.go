package ui

// This file runs /export, /rename and /retry (/theme is themes.go). /export and /rename
// are the history child's (history.go): they write through its journal and
// report with notices.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/ui/block"
)

// retryMark starts the line above a prompt sent again by /retry, live and
// when the session is shown again.
const retryMark = "↻ retry —"

// retry asks again for the last answer, from the same previous response;
// both answers stay in the session and the new one follows on screen.
func (m *Model) retry() tea.Cmd {
	switch p := m.activity().phase; {
	case p == phStreaming:
		m.items.notice(block.Info, "a reply is still streaming — esc stops it, then /retry")
		return nil
	case p == phTools || p == phCompacting || m.tools.mcpStarting():
		m.items.notice(block.Info, "busy (tools, compaction or MCP servers starting) — /retry once it is done")
		return nil
	case m.opts.Client == nil:
		m.items.notice(block.Info, "this is a replay: there is no server to send to")
		return nil
	}
	st, err := m.turns.retry()
	if err != nil {
		m.items.notice(block.Info, err.Error())
		return nil
	}
	m.tools.owed(m.frame.clock()) // outputs owed to the replaced answer's calls go with it
	m.approvals.takeOwed(m.turns.conv)
	m.items.Update(layoutMsg{follow: true})
	m.items.notice(block.Info, retryMark+" asking again from the same point: the new answer follows, and the conversation continues from it (both are kept in the session)")
	m.items.markTurn()
	if st.Prompt != "" {
		m.items.appendEntry(&plainEntry{b: block.NewUser(st.Prompt), fs: m.frame})
	}
	m.items.showAttachments(st.Attachments()) // sent again with it, as a resume shows them
	return m.beginWith(st, nil)
}
