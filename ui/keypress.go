package ui

// This file runs the keys: Model.key gathers the facts decideKey reads
// (keyFacts: the chat's phase, what is focused, the composer's state),
// asks decideKey (keyfn.go) for the action, and runs it (keyDo: one short
// function per action). What a key does in a state is decided only there.

import (
	"cmp"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/ui/block"
)

// key handles a key press: decideKey (keyfn.go) says what it does in the
// chat's state, and keyDo does it.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	defer func() { m.status.Mode = cmp.Or(m.nav.label(), m.composer.ViMode()) }()
	return keyDo[decideKey(&m.keys, k, m.keyFacts())](m, k)
}

// keyFacts is the state decideKey reads: the chat's phase, what is
// focused, the composer's.
func (m *Model) keyFacts() keyFacts {
	f := keyFacts{Phase: m.phase(), Focus: focComposer}
	ap, approval := m.dialog.(dlg[Approval])
	switch {
	case approval && ap.v.Denying():
		f.Focus = focDenying
	case approval:
		f.Focus = focApproval
	case m.dialog != nil:
		f.Focus = focDialog
	case m.showHelp:
		f.Focus = focHelp
	case m.nav.on:
		f.Focus = focNav
	}
	now := m.now()
	f.Composer = composerFacts{
		Empty:     m.composer.Value() == "",
		NoFiles:   len(m.composer.Attachments()) == 0,
		Vi:        m.composer.ViMode(),
		Running:   m.composer.shell.line != "",
		Editing:   m.turns.editing != nil,
		Queued:    m.queue.len() > 0,
		Offered:   m.turns.offered(m.transcript.Len()),
		LocalAsk:  m.tools.asking(),
		EscArmed:  !m.escArmed.IsZero() && now.Sub(m.escArmed) < time.Second,
		QuitArmed: !m.quitArmed.IsZero() && now.Sub(m.quitArmed) < 2*time.Second,
		HasTurns:  len(m.conv.Turns) > 0,
	}
	return f
}

// phase is what the chat is doing, as the keys see it (keyfn.go).
func (m *Model) phase() phase {
	switch {
	case m.cur != nil && !m.cur.ended:
		return phStreaming
	case m.tools.busy():
		return phTools
	case m.compacting != nil:
		return phCompacting
	case m.tools.mcpHolding():
		return phWaitingMCP
	case m.attaching != nil:
		return phReading
	case len(m.pending) > 0:
		return phApproval
	}
	return phIdle
}

// keyDo runs each action decideKey names.
var keyDo = [...]func(m *Model, k tea.KeyPressMsg) tea.Cmd{
	actNone: func(*Model, tea.KeyPressMsg) tea.Cmd { return nil },
	actComposer: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		cmd := m.updateComposer(k)
		m.editEmptied()
		return cmd
	},
	actSend: func(m *Model, k tea.KeyPressMsg) tea.Cmd { return m.updateComposer(k) },
	actNav:  func(m *Model, k tea.KeyPressMsg) tea.Cmd { return m.navKey(k, m.keys.Nav) },
	actDialog: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		var cmd tea.Cmd
		m.dialog, cmd = m.dialog.update(k)
		return cmd
	},
	actHelpScroll: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		m.keyState.helpScroll(k, m.frame, m.transcriptHeight())
		return nil
	},
	actCloseHelp:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.showHelp = false; return nil },
	actCloseDialog: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.dialog = nil; return nil },
	actStartNav:    func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.startNav(); return nil },
	actQuit:        func(*Model, tea.KeyPressMsg) tea.Cmd { return tea.Quit },
	actArmQuit: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.quitArmed = m.now()
		m.notice(block.Info, "press ctrl+c again to quit")
		return nil
	},
	actInterruptTurn:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.interrupt() },
	actStopTools:       func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.tools.stop(m.frame); return nil },
	actStopCompact:     func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.stopCompact(); return nil },
	actTakeBackWaiting: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.tools.takeBackWaiting(m.frame); return nil },
	actStopReading:     func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.stopReading(); return nil },
	actStopHosted:      func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.approvals.stopHosted(m.conv, m.frame); return nil },
	actLeaveEdit:       func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.leaveEdit(); return nil },
	actClear: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		if m.composer.Clear() {
			m.notice(block.Info, "cleared — ↑ brings it back")
		}
		return nil
	},
	actEditLast: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.escArmed = time.Time{}
		return m.slash("edit", "") // the last user turn, as a branch of this session
	},
	actArmEsc: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.escArmed = m.now()
		m.notice(block.Info, "esc again to edit your last prompt (/edit N for an earlier one; the edit is a branch, nothing is lost)")
		return nil
	},
	actUnqueue:         func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.unqueue(); return nil },
	actSendNow:         func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.sendNow() },
	actSessions:        func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.history.openPicker(m.frame) },
	actHistorySearch:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.openHistorySearch(); return nil },
	actToggleReasoning: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.toggleLast(m.reasoning); return nil },
	actAllReasoning:    func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.toggleAll(m.reasoning); return nil },
	actExpandTool:      func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.expandTool(); return nil },
	actPanels:          func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.openPanels(); return nil },
	actCopyLast:        func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.copyAnswer("") },
	actMouse:           func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.mouseToggle(); return nil },
	actScroll: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		var cmd tea.Cmd
		m.transcript, cmd = m.transcript.Update(k)
		return cmd
	},
	actAnswer: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		m.approvals.answerKey(k, m.frame) // the dialog opens on the first request and takes the key
		return nil
	},
	actContinue: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		return m.submit(continuePrompt, nil) // the partial answer goes with it (session's carry)
	},
	actRetry: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.retry() },
	actBranch: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		dir := 1
		if k.String() == "ctrl+left" {
			dir = -1
		}
		m.turns.switchBranch(dir, m.tools.busy() || m.tools.asking())
		return nil
	},
	actHelp: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.showHelp, m.helpTop = !m.showHelp, 0
		return nil
	},
}

// openHistorySearch opens the search of every session's prompts.
func (m *Model) openHistorySearch() {
	m.dialog = dlg[HistorySearch]{NewHistorySearch(m.composer.Recent(), m.frame.styles)}
}

// expandTool opens or closes the panel of the call an approval asks
// about, or else the last panel.
func (m *Model) expandTool() {
	if e := m.askedEntry(); e != nil {
		m.toggle(e)
		return
	}
	m.toggleLast(m.panels)
}

// askedEntry is the panel of the call an approval dialog asks about; nil
// when none is asked.
func (m *Model) askedEntry() *itemEntry {
	if m.hostedAsk != nil {
		return m.hostedAsk
	}
	if it := m.tools.askedItem(); it != nil {
		return m.entries[it]
	}
	return nil
}
