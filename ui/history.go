package ui

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui/block"
)

// This file keeps the chat's history: writing turns as they stream, showing
// a stored session again, forking, and the session picker and search.

// journalErrMsg is a failed write of the history.
type journalErrMsg struct {
	j   *session.Journal
	err error
}

// sessionsMsg carries the session list for the picker.
type sessionsMsg struct {
	list []store.SessionInfo
	err  error
}

// loadedMsg carries a stored session to show.
type loadedMsg struct {
	s     *store.Session
	warns []error
	err   error
	turn  int // scroll to this turn (1-based), 0 for the end
}

// searchMsg carries search results.
type searchMsg struct {
	query string
	hits  []store.Hit
	err   error
}

// deletedMsg reports a deleted session.
type deletedMsg struct {
	id  store.SessionID
	err error
}

// startHistory opens the journal (new or resumed) and shows a resumed
// session.
func (m *Model) startHistory() tea.Cmd {
	o := m.opts
	if o.DB == nil {
		if o.HistoryErr != nil {
			m.notice(block.Warning, stream.SanitizeLine(o.HistoryErr.Error())+" — the chat works, but this session will not be saved")
		}
		return nil
	}
	if o.Resume != nil {
		return m.showSession(o.Resume, nil, 0)
	}
	m.journal = session.NewJournal(o.DB, m.conv.Settings)
	return m.watchJournal()
}

// watchJournal waits for the journal's next write failure.
func (m *Model) watchJournal() tea.Cmd {
	j := m.journal
	if j == nil {
		return nil
	}
	return func() tea.Msg {
		err, ok := <-j.Errors()
		if !ok {
			return nil
		}
		return journalErrMsg{j: j, err: err}
	}
}

// journalFailed shows a write failure once per kind of error.
func (m *Model) journalFailed(msg journalErrMsg) tea.Cmd {
	if msg.j != m.journal {
		return nil
	}
	line := stream.SanitizeLine(msg.err.Error())
	if line != m.lastSaveErr {
		m.lastSaveErr = line
		if !errors.Is(msg.err, store.ErrGone) { // that one already says what happens next
			line += " — the chat goes on; what streams now may not be saved"
		}
		m.notice(block.Warning, line)
	}
	return m.watchJournal()
}

// showSession replaces the conversation with a stored one and redraws it.
func (m *Model) showSession(s *store.Session, warns []error, turn int) tea.Cmd {
	var stop tea.Cmd
	if m.cur != nil && !m.cur.ended {
		stop = m.interrupt()
	}
	m.tools.abandon(m.frame)
	conv, probs := session.FromStore(s)
	if conv.Settings.Model == "" {
		conv.Settings.Model = m.conv.Settings.Model
	}
	m.closeJournal()
	m.conv = conv
	moved := m.keepProvider() // providerpicker.go
	m.journal = session.ResumeJournal(m.opts.DB, s.Info.ID, conv.Settings)
	m.status.Model, m.status.Effort = conv.Settings.Model, conv.Settings.ReasoningEffort
	m.resumedPrompts = promptsOf(conv)
	m.composer.SetPast(append(append([]string(nil), m.resumedPrompts...), m.storedPrompts...))
	m.redraw()
	for _, w := range append(warns, probs...) {
		m.notice(block.Warning, stream.SanitizeLine(w.Error()))
	}
	m.notice(block.Info, fmt.Sprintf("resumed %q · %s", stream.SanitizeLine(s.Info.Title), plural(s.Info.Turns, "turn")))
	if moved != "" {
		m.notice(block.Info, moved)
		m.settingsChanged() // the session is on this provider now
	}
	if turn > 0 && turn <= len(m.turnEntry) {
		m.transcript.ScrollTo(m.turnEntry[turn-1])
	}
	return tea.Batch(stop, m.watchJournal(), m.tools.resumeCalls(m.conv, m.opts.Client != nil, m.journal, m.frame), m.reattach())
}

// redraw rebuilds the transcript from the conversation: prompts, every item
// with its panel, collapsed reasoning, notices for turns that ended badly,
// and approvals still waiting.
func (m *Model) redraw() {
	m.resetTranscript()
	now := time.Now()
	carried := m.conv.Carried()
	var window compactionMarks
	for i, t := range m.conv.Turns {
		note := ""
		if carried && i == len(m.conv.Turns)-1 {
			note = "; your next message sends its prompt and partial answer to the model"
		}
		window.mark(m, t.Input, now)
		m.turnEntry = append(m.turnEntry, m.transcript.Len())
		if t.Prompt != "" {
			m.appendEntry(&plainEntry{b: block.NewUser(t.Prompt), fs: m.frame})
		}
		m.showAttachments(t.Attachments()) // attachments.go
		for _, s := range t.Responses {
			for _, it := range s.Items {
				e := m.addItem(it, now)
				if ib, ok := e.b.(block.ItemBlock); ok {
					ib.End(now)
				}
				if it.Type == "message" && it.Text() != "" {
					m.answers = append(m.answers, it.Text())
				}
			}
			m.usage = m.usage.Add(usageOf(s.Usage))
		}
		m.account(t.Responses)
		last := i == len(m.conv.Turns)-1
		switch {
		case t.Prompt == "" && len(t.Responses) == 0 && (t.Interrupted() || t.Stopped):
			// a tool round that sent nothing: resumeCalls speaks for calls
			// still open; outputs that were ready go with the next message
			if last && !callsOpen(m.conv.ChainCalls()) && len(t.Input) > 0 {
				m.notice(block.Info, "the tool outputs of this round had not reached the model — they go with your next message")
			}
		case t.Interrupted() && m.reattaching(t):
			m.notice(block.Info, "interrupted while this answer streamed — reattaching to it on the server")
		case t.Interrupted():
			m.notice(block.Warning, "interrupted — runnel stopped before this turn finished; its partial content is kept"+note)
		case t.Stopped:
			m.notice(block.Info, "stopped"+note)
		case t.Err != nil && contextFull(t.Err, nil):
			m.notice(block.Error, contextFullNotice)
		case t.Err != nil:
			m.notice(block.Error, stream.SanitizeLine(t.Err.Error()))
		case len(t.Responses) > 0 && t.Responses[len(t.Responses)-1].CutOff:
			m.notice(block.Warning, stream.CutOffNote+" — the partial answer is kept")
		}
	}
	m.status.SessionUsage = m.usage
	m.collectPending()
}

// callsOpen reports whether a call of the chain has no final output.
func callsOpen(ccs []session.ChainCall) bool {
	for _, cc := range ccs {
		if cc.State != session.CallAnswered {
			return true
		}
	}
	return false
}

// collectPending finds approval requests of the last turn still waiting for
// an answer, so that the prompt comes back after a resume.
func (m *Model) collectPending() {
	m.pending = nil
	for _, it := range m.conv.PendingApprovals() {
		if e := m.entries[it]; e != nil {
			if a, ok := e.b.(block.Approver); ok {
				if _, pending := a.Approval(); pending {
					m.pending = append(m.pending, e)
				}
			}
		}
	}
	if len(m.pending) > 0 {
		m.status.State = AwaitingApproval
		m.approvals.askHosted(m.dialog != nil, m.frame) // the prompt comes back after a resume
	} else if m.cur == nil {
		m.status.State = Idle
	}
}

// resetTranscript empties the transcript and everything indexed on it.
func (m *Model) resetTranscript() {
	m.transcript = NewTranscript(m.frame.width, m.transcriptHeight())
	m.transcript.SetStyles(m.frame.styles)
	m.entries = map[*stream.Item]*itemEntry{}
	m.reasoning, m.panels, m.pending, m.answers, m.turnEntry = nil, nil, nil, nil, nil
	m.usage, m.status.SessionUsage, m.status.TurnUsage = Usage{}, Usage{}, Usage{}
	m.meter, m.status.Meter = costMeter{}, ""
}

// closeJournal lets the current journal finish its writes in the background.
func (m *Model) closeJournal() {
	if j := m.journal; j != nil {
		go j.Close()
		m.journal = nil
	}
}

// fork starts a new session from user turn n (numbered as "N turns"
// counts them: tool rounds belong to the turn before them): the turns before
// it are kept, and the composer holds its prompt for editing. The original
// stays; 0 forks at the last user turn.
func (m *Model) fork(n int) tea.Cmd {
	if m.cur != nil && !m.cur.ended {
		m.notice(block.Info, "stop the reply first (esc), then fork")
		return nil
	}
	var at []int // conversation index of each user turn
	for i, t := range m.conv.Turns {
		if store.UserTurn(t.Prompt, t.Input) {
			at = append(at, i)
		}
	}
	if n == 0 {
		n = len(at)
	}
	if n < 1 || n > len(at) {
		m.notice(block.Warning, fmt.Sprintf("/fork N: N is a turn from 1 to %d", len(at)))
		return nil
	}
	keep := at[n-1]
	prompt := m.conv.Turns[keep].Prompt
	files := attach.FilesFromInput(m.conv.Turns[keep].Input) // its attachments come back as chips
	f := m.conv.Fork(keep)
	if m.journal != nil {
		m.journal = m.journal.Fork(keep, "fork: ", prompt, f.Settings)
	}
	m.conv = f
	m.redraw()
	m.composer.SetValue(prompt)
	m.composer.SetAttachments(files)
	m.notice(block.Info, fmt.Sprintf("forked at turn %d — edit the prompt and press enter; the original session is unchanged", n))
	return m.watchJournal()
}

// openPicker lists the stored sessions.
func (m *Model) openPicker() tea.Cmd {
	db := m.opts.DB
	if db == nil {
		m.notice(block.Warning, "no history: the session store is unavailable")
		return nil
	}
	return func() tea.Msg {
		list, err := db.List(500)
		return sessionsMsg{list: list, err: err}
	}
}

// openSession loads a stored session off the UI goroutine.
func (m *Model) openSession(id store.SessionID, turn int) tea.Cmd {
	db := m.opts.DB
	if db == nil {
		return nil
	}
	return func() tea.Msg {
		s, warns, err := db.Load(id)
		return loadedMsg{s: s, warns: warns, err: err, turn: turn}
	}
}

// search runs a full-text search off the UI goroutine.
func (m *Model) search(query string) tea.Cmd {
	db := m.opts.DB
	if db == nil {
		m.notice(block.Warning, "no history: the session store is unavailable")
		return nil
	}
	return func() tea.Msg {
		hits, err := db.Search(query, 50)
		return searchMsg{query: query, hits: hits, err: err}
	}
}

// deleteSession removes a stored session off the UI goroutine.
func (m *Model) deleteSession(id store.SessionID) tea.Cmd {
	db := m.opts.DB
	return func() tea.Msg { return deletedMsg{id: id, err: db.Delete(id)} }
}

// historyMsg handles the history's messages; ok is false for others.
func (m *Model) historyMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case journalErrMsg:
		return m.journalFailed(msg), true
	case sessionsMsg:
		if msg.err != nil {
			m.notice(block.Error, stream.SanitizeLine(msg.err.Error()))
			return nil, true
		}
		m.dialog = dlg[Picker]{NewPicker(msg.list, time.Now(), m.frame.styles)}
		return nil, true
	case loadedMsg:
		if msg.err != nil {
			m.notice(block.Error, stream.SanitizeLine(msg.err.Error()))
			return nil, true
		}
		return m.showSession(msg.s, msg.warns, msg.turn), true
	case searchMsg:
		if msg.err != nil {
			m.notice(block.Error, stream.SanitizeLine(msg.err.Error()))
			return nil, true
		}
		m.dialog = dlg[SearchResults]{NewSearchResults(msg.query, msg.hits, m.frame.styles)}
		return nil, true
	case deletedMsg:
		if msg.err != nil {
			m.notice(block.Error, stream.SanitizeLine(msg.err.Error()))
		} else if m.journal != nil && m.journal.ID() == msg.id {
			m.closeJournal()
			m.journal = session.NewJournal(m.opts.DB, m.conv.Settings)
			m.notice(block.Info, "deleted the current session — new messages start a new one")
			return m.watchJournal(), true
		}
		return nil, true
	case OpenSessionMsg:
		m.dialog = nil
		return m.openSession(msg.ID, msg.Turn), true
	case DeleteSessionMsg:
		return m.deleteSession(msg.ID), true
	case DialogClosedMsg:
		m.dialog = nil
		return nil, true
	}
	return nil, false
}

// plural is "1 turn", "3 turns".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
