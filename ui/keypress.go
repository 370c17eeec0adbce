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
	defer func() {
		nav, _ := m.items.modes()
		m.statusBar.showMode(cmp.Or(nav, m.composer.ViMode()))
	}()
	return keyDo[m.keyState.decide(k, m.keyFacts())](m, k)
}

// keyFacts is the state decideKey reads: the chat's phase, what is
// focused, the composer's.
func (m *Model) keyFacts() keyFacts {
	f := keyFacts{Phase: m.activity().phase, Focus: focComposer} // the status line shows the same activity
	ap, approval := m.dialog.(dlg[Approval])
	nav, _ := m.items.modes()
	switch {
	case approval && ap.v.Denying():
		f.Focus = focDenying
	case approval:
		f.Focus = focApproval
	case m.dialog != nil:
		f.Focus = focDialog
	case m.keyState.showHelp:
		f.Focus = focHelp
	case nav != "":
		f.Focus = focNav
	}
	escArmed, quitArmed := m.keyState.armed(m.frame.clock())
	shown := m.items.shown()
	f.Composer = composerFacts{
		Empty:     m.composer.Value() == "",
		NoFiles:   len(m.composer.Attachments()) == 0,
		Vi:        m.composer.ViMode(),
		Running:   m.composer.shellRunning(),
		Editing:   m.turns.editing != nil,
		Queued:    m.queue.len() > 0,
		Offered:   m.turns.offered(shown.Len()),
		LocalAsk:  m.tools.asking(),
		EscArmed:  escArmed,
		QuitArmed: quitArmed,
		HasTurns:  len(m.turns.conv.Turns) > 0,
	}
	return f
}

// activity is what the chat is doing (activityOf): the turn engine's
// phase, and the facts each child reports of itself.
func (m *Model) activity() activity {
	eng, f := m.turns.doing()
	f.Tools, f.WaitingMCP, f.Hosted = m.tools.busy(), m.tools.mcpHolding(), m.approvals.waiting()
	return activityOf(eng, m.statusBar.saidLast(), f)
}

// keyDo runs each action decideKey names.
var keyDo = [...]func(m *Model, k tea.KeyPressMsg) tea.Cmd{
	actNone: func(*Model, tea.KeyPressMsg) tea.Cmd { return nil },
	actComposer: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		cmd := m.updateComposer(k)
		m.leaveEdit(true)
		return cmd
	},
	actSend: func(m *Model, k tea.KeyPressMsg) tea.Cmd { return m.updateComposer(k) },
	actNav:  func(m *Model, k tea.KeyPressMsg) tea.Cmd { return m.items.navKey(k, m.keyState.keys.Nav) },
	actDialog: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		var cmd tea.Cmd
		m.dialog, cmd = m.dialog.update(k)
		return cmd
	},
	actHelpScroll: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
		m.keyState.helpScroll(k, m.frame, m.transcriptHeight())
		return nil
	},
	actCloseHelp:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.keyState.setHelp(false); return nil },
	actCloseDialog: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.dialog = nil; return nil },
	actStartNav:    func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.startNav(); return nil },
	actQuit:        func(*Model, tea.KeyPressMsg) tea.Cmd { return tea.Quit },
	actArmQuit: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.keyState.armQuit(m.frame.clock())
		m.items.notice(block.Info, "press ctrl+c again to quit")
		return nil
	},
	actInterruptTurn:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.turns.interrupt() },
	actStopTools:       func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.tools.stop(m.frame); return nil },
	actStopCompact:     func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.turns.stopWork(phCompacting); return nil },
	actTakeBackWaiting: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.tools.takeBackWaiting(m.frame); return nil },
	actStopReading:     func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.turns.stopWork(phReading); return nil },
	actStopHosted:      func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.approvals.stopHosted(m.turns.conv, m.frame); return nil },
	actLeaveEdit:       func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.leaveEdit(false); return nil },
	actClear: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		if m.composer.Clear() {
			m.items.notice(block.Info, "cleared — ↑ brings it back")
		}
		return nil
	},
	actEditLast: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.keyState.armEsc(time.Time{})
		return m.slash("edit", "") // the last user turn, as a branch of this session
	},
	actArmEsc: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.keyState.armEsc(m.frame.clock())
		m.items.notice(block.Info, "esc again to edit your last prompt (/edit N for an earlier one; the edit is a branch, nothing is lost)")
		return nil
	},
	actUnqueue:  func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.unqueue(); return nil },
	actSendNow:  func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.sendNow() },
	actSessions: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.history.openPicker(m.frame) },
	actHistorySearch: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { // the search of every session's prompts
		m.dialog = dlg[HistorySearch]{NewHistorySearch(m.composer.Recent(), m.frame.styles)}
		return nil
	},
	actToggleReasoning: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.expand(keyLastReasoning, nil, nil); return nil },
	actAllReasoning:    func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.expand(keyAllReasoning, nil, nil); return nil },
	actExpandTool: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { // the panel of the call an approval asks about, or else the last
		m.items.expand(keyToolPanel, m.approvals.asked(), m.tools.askedItem())
		return nil
	},
	actPanels:   func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.expand(keyPanelList, nil, nil); return nil },
	actCopyLast: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.items.copyAnswer("") },
	actMouse:    func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.items.mouseToggle(); return nil },
	actScroll:   func(m *Model, k tea.KeyPressMsg) tea.Cmd { return m.items.Update(k) },
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
		m.keyState.setHelp(!m.keyState.showHelp)
		return nil
	},
}
