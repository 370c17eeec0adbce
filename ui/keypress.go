package ui

// This file handles the keys the root owns: interrupting, quitting, forking,
// toggling reasoning and panels, copying, scrolling, approvals, and
// continuing or retrying a dropped stream; the rest go to the composer. With a dialog open, the root still takes ctrl+c (an
// approval: deny and stop; any other dialog: close) and, under an approval,
// the transcript keys the status line offers (ctrl+o, ctrl+r, alt+r,
// ctrl+y) and the transcript's scrolling (pgup, pgdn, home, end: the
// arguments are in the asked panel); every other key goes to the dialog.

import (
	"cmp"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"runnel/ui/block"
)

// key handles the keys the root owns and routes the rest.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.showHelp && m.keyState.helpScroll(k, m.frame, m.transcriptHeight()) {
		return nil
	}
	defer func() { m.status.Mode = cmp.Or(m.nav.label(), m.composer.ViMode()) }()
	switch {
	case m.nav.on && !key.Matches(k, m.keys.Quit):
		return m.navKey(k, m.keys.Nav)
	case m.composer.Takes(k):
		return m.updateComposer(k)
	case key.Matches(k, m.keys.Navigate):
		m.startNav()
		return nil
	case key.Matches(k, m.keys.Quit):
		if m.cur != nil && !m.cur.ended {
			return m.interrupt()
		}
		if m.tools.stop(m.frame) {
			return nil
		}
		if len(m.pending) > 0 {
			m.approvals.stopHosted(m.conv, m.frame)
			return nil
		}
		if !m.quitArmed.IsZero() && m.now().Sub(m.quitArmed) < 2*time.Second {
			return tea.Quit
		}
		m.quitArmed = m.now()
		m.notice(block.Info, "press ctrl+c again to quit")
		return nil
	case key.Matches(k, m.keys.Interrupt):
		switch {
		case m.showHelp:
			m.showHelp = false
		case m.cur != nil && !m.cur.ended:
			return m.interrupt()
		case m.tools.stop(m.frame):
		case m.stopCompact():
		case m.tools.takeBackWaiting(m.frame):
		case m.stopReading():
		case len(m.pending) > 0:
			m.approvals.stopHosted(m.conv, m.frame)
		case m.turns.editing != nil && m.composer.Value() != "":
			// esc on an edit not yet changed walks back to the prompt before
			if text, files, ok := m.turns.back(m.composer.Value()); ok {
				m.composer.SetValue(text)
				m.composer.SetAttachments(files)
				return nil
			}
			m.turns.cancelEdit()
			if m.composer.Clear() {
				m.notice(block.Info, "cleared — ↑ brings it back")
			}
		case m.composer.Value() != "":
			m.turns.cancelEdit()
			if m.composer.Clear() {
				m.notice(block.Info, "cleared — ↑ brings it back")
			}
		case len(m.conv.Turns) > 0 && !m.escArmed.IsZero() && m.now().Sub(m.escArmed) < time.Second:
			m.escArmed = time.Time{}
			return m.slash("edit", "") // the last user turn, as a branch of this session
		case len(m.conv.Turns) > 0:
			m.escArmed = m.now()
			m.notice(block.Info, "esc again to edit your last prompt (then esc walks back to earlier ones; the edit is a branch, nothing is lost)")
		}
		return nil
	case key.Matches(k, m.keys.Sessions):
		return m.history.openPicker(m.frame)
	case key.Matches(k, m.keys.HistorySearch):
		m.dialog = dlg[HistorySearch]{NewHistorySearch(m.composer.Recent(), m.frame.styles)}
		return nil
	case m.panelKey(k):
		return nil
	case key.Matches(k, m.keys.CopyLast):
		return m.copyAnswer("")
	case key.Matches(k, m.keys.Mouse):
		m.items.mouseToggle()
		return nil
	case key.Matches(k, m.keys.PageUp, m.keys.PageDown, m.keys.Top, m.keys.Bottom):
		var cmd tea.Cmd
		m.transcript, cmd = m.transcript.Update(k)
		return cmd
	case len(m.pending) > 0 && m.composer.Value() == "" && key.Matches(k, m.keys.Approve, m.keys.ApproveSession, m.keys.Deny):
		m.approvals.answerKey(k, m.frame) // the dialog opens on the first request and takes the key
		return nil
	case m.turns.offered(m.transcript.Len()) && m.composer.Value() == "" && len(m.composer.Attachments()) == 0 && key.Matches(k, m.keys.Continue):
		return m.submit(continuePrompt, nil) // the partial answer goes with it (session's carry)
	case m.turns.offered(m.transcript.Len()) && m.composer.Value() == "" && key.Matches(k, m.keys.Retry):
		return m.retry()
	case m.composer.Value() == "" && len(m.composer.Attachments()) == 0 && key.Matches(k, m.keys.Branch):
		dir := 1
		if k.String() == "ctrl+left" {
			dir = -1
		}
		m.turns.switchBranch(dir, m.tools.cancel != nil || m.tools.asking != nil)
		return nil
	case m.composer.Value() == "" && key.Matches(k, m.keys.Help):
		m.showHelp, m.helpTop = !m.showHelp, 0
		return nil
	}
	return m.updateComposer(k)
}

// panelKey handles the keys that open and close reasoning and tool panels,
// and reports whether k was one.
func (m *Model) panelKey(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, m.keys.ToggleReasoning):
		m.toggleLast(m.reasoning)
	case key.Matches(k, m.keys.AllReasoning):
		m.toggleAll(m.reasoning)
	case key.Matches(k, m.keys.ExpandTool):
		if e := m.askedEntry(); e != nil {
			m.toggle(e) // the details of the call asked about
		} else {
			m.toggleLast(m.panels)
		}
	case key.Matches(k, m.keys.Panels):
		m.openPanels()
	default:
		return false
	}
	return true
}

// dialogKey routes a key while a dialog is open.
func (m *Model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	ap, approval := m.dialog.(dlg[Approval])
	if key.Matches(k, m.keys.Quit) {
		switch {
		case !approval:
			m.dialog = nil
		case m.tools.asking != nil:
			m.tools.stop(m.frame) // denies the call asked about and stops the round
		default:
			m.approvals.stopHosted(m.conv, m.frame)
		}
		return nil
	}
	if approval && !ap.v.Denying() {
		if key.Matches(k, m.keys.CopyLast) {
			return m.copyAnswer("")
		}
		if !key.Matches(k, m.keys.Panels) && m.panelKey(k) { // alt+o would replace the question
			return nil
		}
		if key.Matches(k, m.keys.PageUp, m.keys.PageDown, m.keys.Top, m.keys.Bottom) { // the asked panel, above
			var cmd tea.Cmd
			m.transcript, cmd = m.transcript.Update(k)
			return cmd
		}
	}
	var cmd tea.Cmd
	m.dialog, cmd = m.dialog.update(k)
	return cmd
}

// askedEntry is the panel of the call an approval dialog asks about; nil
// when none is asked.
func (m *Model) askedEntry() *itemEntry {
	if m.hostedAsk != nil {
		return m.hostedAsk
	}
	if a := m.tools.asking; a != nil {
		if it := m.tools.calls[a.req.Call.CallID]; it != nil {
			return m.entries[it]
		}
	}
	return nil
}
