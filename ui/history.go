package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/export"
	"runnel/session/regfile"
	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// This file is the history child: the session's record in the store (the
// journal that writes turns as they stream and says when a write fails),
// the session picker, search and delete, and loading a stored session. What
// a loaded session puts on screen is not its job: it posts sessionLoadedMsg
// and the root shows the session (reports.go). /export, /rename and the
// model-written title (slashcmds.go, title.go) and the stored prompts
// (prompthistory.go) are the history's too.

// history is the session's record in the store.
//
// Invariants: journal is nil when db is nil; journal is the only journal
// whose failures are shown (a closed one's are dropped); lastSaveErr is the
// last failure line shown, so one kind of failure is said once; renamed
// stays set for the journal /rename named.
type history struct {
	db          *store.DB        // the store; nil without one
	journal     *session.Journal // the history; nil without one
	lastSaveErr string           // the last history failure shown (store.ErrGone for any write that found the file gone)
	renamed     bool             // /rename named the session: a model title does not replace it
	// the prompt history beyond this process, newest first (prompthistory.go)
	resumedPrompts, storedPrompts []string
}

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

// sessionLoadedMsg asks the root to replace the conversation with a stored
// session and show it: the history has loaded it, warns are what the load
// found wrong, turn is the turn to scroll to (1-based, 0 for the end).
type sessionLoadedMsg struct {
	s     *store.Session
	warns []error
	turn  int
}

// newJournalMsg asks the root for a new journal with the conversation's
// settings (history.restart): the current session was deleted.
type newJournalMsg struct{}

// Update handles the history's messages: its I/O results and the dialogs'
// requests. It returns the I/O to start next.
func (h *history) Update(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case resetMsg:
		switch msg.why {
		case resetNew:
			return h.restart(msg.settings)
		case resetProvider:
			h.saveSettings(msg.settings) // the session is on this provider now
		}
		return nil
	case journalErrMsg:
		return h.journalFailed(msg, f)
	case sessionsMsg:
		if msg.err != nil {
			f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
			return nil
		}
		f.post(dialogMsg{dlg[Picker]{NewPicker(msg.list, f.clock(), f.styles)}})
	case loadedMsg:
		if msg.err != nil {
			f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
			return nil
		}
		f.post(sessionLoadedMsg{s: msg.s, warns: msg.warns, turn: msg.turn})
	case searchMsg:
		if msg.err != nil {
			f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
			return nil
		}
		f.post(dialogMsg{dlg[SearchResults]{NewSearchResults(msg.query, msg.hits, f.styles)}})
	case deletedMsg:
		if msg.err != nil {
			f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
		} else if h.journal != nil && h.journal.ID() == msg.id {
			h.closeJournal()
			f.post(newJournalMsg{})
			f.post(noticeMsg{block.Info, "deleted the current session — new messages start a new one"})
		}
	case OpenSessionMsg:
		f.post(DialogClosedMsg{})
		return h.openSession(msg.ID, msg.Turn)
	case DeleteSessionMsg:
		return h.deleteSession(msg.ID)
	case promptsMsg:
		h.storedPrompts = msg.list // a failure leaves ↑ with this session's prompts
		f.post(setPastMsg{h.past()})
	case exportedMsg:
		h.exported(msg, f)
	case titleMsg:
		if h.journal != nil && !h.renamed {
			h.journal.SetTitle(msg.title)
		}
	}
	return nil
}

// start opens a new session's journal, when there is a store.
func (h *history) start(s session.Settings) tea.Cmd {
	if h.db == nil {
		return nil
	}
	h.journal = session.NewJournal(h.db, s)
	return h.watchJournal()
}

// restart closes the journal and opens a new session's, with settings s
// (/new, or the current session deleted).
func (h *history) restart(s session.Settings) tea.Cmd {
	h.closeJournal()
	return h.start(s)
}

// resume closes the journal and continues stored session id, whose
// conversation now has settings s and prompts (newest first). The
// composer's past is then h.past().
func (h *history) resume(id store.SessionID, s session.Settings, prompts []string) tea.Cmd {
	h.closeJournal()
	if h.db != nil {
		h.journal = session.ResumeJournal(h.db, id, s)
	}
	h.resumedPrompts = prompts
	return h.watchJournal()
}

// forkJournal makes the journal a new session holding the first keep turns
// of the current one, titled after prompt, with settings s.
func (h *history) forkJournal(keep int, prompt string, s session.Settings, turns []*session.Turn) tea.Cmd {
	if h.journal != nil {
		h.journal = h.journal.Fork(keep, "fork: ", prompt, s, turns...)
	}
	return h.watchJournal()
}

// past is the prompt history beyond this process, newest first: the
// resumed session's, then the stored ones.
func (h *history) past() []string {
	return append(append([]string(nil), h.resumedPrompts...), h.storedPrompts...)
}

// watchJournal waits for the journal's next write failure.
func (h *history) watchJournal() tea.Cmd {
	j := h.journal
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
func (h *history) journalFailed(msg journalErrMsg, f *frameState) tea.Cmd {
	if msg.j != h.journal {
		return nil
	}
	line := stream.SanitizeLine(msg.err.Error())
	key := line
	if errors.Is(msg.err, store.ErrGone) {
		// one notice, whichever write found the file gone (a turn's end
		// still being written, the next turn's start: each names its own)
		key = store.ErrGone.Error()
	}
	if key != h.lastSaveErr {
		h.lastSaveErr = key
		if !errors.Is(msg.err, store.ErrGone) { // that one already says what happens next
			line += " — the chat goes on; what streams now may not be saved"
		}
		f.post(noticeMsg{block.Warning, line})
	}
	return h.watchJournal()
}

// closeJournal lets the current journal finish its writes in the background.
func (h *history) closeJournal() {
	if j := h.journal; j != nil {
		go j.Close()
		h.journal = nil
	}
}

// shutdown closes the journal and waits for its writes: the chat ends.
func (h *history) shutdown() {
	if h.journal != nil {
		h.journal.Close()
	}
}

// logTurn starts st's record in the journal: continuing round, the record
// of the tool round whose outputs it sends, or a new one (round nil); nil
// without a journal.
func (h *history) logTurn(st *session.Turn, round *session.TurnLog) *session.TurnLog {
	switch {
	case h.journal != nil && round != nil:
		return h.journal.Continue(round, st)
	case h.journal != nil:
		return h.journal.Begin(st)
	}
	return nil
}

// id is the session's id in the store; "" without a journal.
func (h *history) id() store.SessionID {
	if h.journal == nil {
		return ""
	}
	return h.journal.ID()
}

// openPicker lists the stored sessions.
func (h *history) openPicker(f *frameState) tea.Cmd {
	db := h.db
	if db == nil {
		f.post(noticeMsg{block.Warning, "no history: the session store is unavailable"})
		return nil
	}
	return func() tea.Msg {
		list, err := db.List(500)
		return sessionsMsg{list: list, err: err}
	}
}

// openSession loads a stored session off the UI goroutine.
func (h *history) openSession(id store.SessionID, turn int) tea.Cmd {
	db := h.db
	if db == nil {
		return nil
	}
	return func() tea.Msg {
		s, warns, err := db.Load(id)
		return loadedMsg{s: s, warns: warns, err: err, turn: turn}
	}
}

// search runs a full-text search off the UI goroutine.
func (h *history) search(query string, f *frameState) tea.Cmd {
	db := h.db
	if db == nil {
		f.post(noticeMsg{block.Warning, "no history: the session store is unavailable"})
		return nil
	}
	return func() tea.Msg {
		hits, err := db.Search(query, 50)
		return searchMsg{query: query, hits: hits, err: err}
	}
}

// deleteSession removes a stored session off the UI goroutine.
func (h *history) deleteSession(id store.SessionID) tea.Cmd {
	db := h.db
	if db == nil {
		return nil
	}
	return func() tea.Msg { return deletedMsg{id: id, err: db.Delete(id)} }
}

// saveSettings records the conversation's settings in the session.
func (h *history) saveSettings(s session.Settings) {
	if h.journal != nil {
		h.journal.SetSettings(s)
	}
}

// saveCompacted records the window /compact answered with in the session.
func (h *history) saveCompacted(window []json.RawMessage) {
	if h.journal != nil {
		h.journal.Compacted(window)
	}
}

// loadPrompts reads the stored prompts off the UI goroutine.
func (h *history) loadPrompts() tea.Cmd {
	db := h.db
	if db == nil {
		return nil
	}
	return func() tea.Msg {
		list, _ := db.Prompts(promptHistoryMax) // without them, up has this session's prompts
		return promptsMsg{list: list}
	}
}

// export writes the session to a file, after the history has it all.
func (h *history) export(args string, f *frameState) tea.Cmd {
	if h.journal == nil {
		f.post(noticeMsg{block.Info, "no history: there is nothing saved to export (the store is unavailable)"})
		return nil
	}
	format, path := exportArgs(args)
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	done := h.journal.Export(format, path, dir, export.Style(theme.HTML(theme.Light()))) // a page is read in a browser: the light look
	return func() tea.Msg { return exportedMsg{format, <-done} }
}

// exported says where /export wrote, or why it did not.
func (h *history) exported(msg exportedMsg, f *frameState) {
	if msg.res.Err != nil {
		where := ""
		if msg.res.Path != "" {
			where = " to " + msg.res.Path
		}
		err := msg.res.Err
		var pe *fs.PathError
		var nr *regfile.NotRegularError
		switch {
		case errors.As(err, &nr):
			err = fmt.Errorf("it is %s, not a regular file", regfile.Describe(nr.Mode))
		case errors.As(err, &pe):
			err = pe.Err
		}
		f.post(noticeMsg{block.Error, stream.SanitizeLine(fmt.Sprintf("cannot export%s: %s — give another path: /export [markdown|json|html] PATH", where, err))})
		return
	}
	f.post(noticeMsg{block.Info, stream.SanitizeLine(fmt.Sprintf("exported the session to %s (%s)", msg.res.Path, msg.format))})
}

// rename sets the session's title; started says the conversation has a
// turn (before it, the session has no row to name).
func (h *history) rename(title string, started bool, f *frameState) {
	if h.journal == nil || !started {
		f.post(noticeMsg{block.Info, "nothing to rename yet: send a message first"})
		return
	}
	title = clipRunes(stream.SanitizeLine(title), 80)
	h.journal.SetTitle(title)
	h.renamed = true // a model-written title arriving later does not replace it
	f.post(noticeMsg{block.Info, "renamed the session: " + title})
}

// promptHistoryMax is how many stored prompts up and the search reach.
const promptHistoryMax = historyMax

// exportedMsg says where /export wrote, or why it did not.
type exportedMsg struct {
	format string
	res    session.ExportResult
}

// exportArgs splits /export's arguments: an optional format (markdown, md
// or json) and an optional path, in that order.
func exportArgs(args string) (format, path string) {
	format = "markdown"
	first, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	switch strings.ToLower(first) {
	case "markdown", "md":
		path = strings.TrimSpace(rest)
	case "json":
		format, path = "json", strings.TrimSpace(rest)
	case "html":
		format, path = "html", strings.TrimSpace(rest)
	default:
		path = strings.TrimSpace(args)
		switch low := strings.ToLower(path); {
		case strings.HasSuffix(low, ".json"):
			format = "json"
		case strings.HasSuffix(low, ".html"), strings.HasSuffix(low, ".htm"):
			format = "html"
		}
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	return format, path
}
