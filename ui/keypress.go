package ui

// This file handles the keys the root model owns: interrupting, quitting,
// forking, toggling reasoning and panels, copying, scrolling and approvals;
// the rest go to the composer.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/ui/block"
)

// key handles the keys the root owns and routes the rest.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	switch {
	case s == "ctrl+c":
		if m.cur != nil && !m.cur.ended {
			m.interrupt()
			return nil
		}
		if m.stopTools() {
			return nil
		}
		if !m.quitArmed.IsZero() && time.Since(m.quitArmed) < 2*time.Second {
			return tea.Quit
		}
		m.quitArmed = time.Now()
		m.notice(block.Info, "press ctrl+c again to quit")
		return nil
	case s == "esc":
		switch {
		case m.showHelp:
			m.showHelp = false
		case m.cur != nil && !m.cur.ended:
			m.interrupt()
		case m.stopTools():
		case m.composer.Value() != "":
			m.composer.Reset()
		case len(m.conv.Turns) > 0 && !m.escArmed.IsZero() && time.Since(m.escArmed) < time.Second:
			m.escArmed = time.Time{}
			return m.fork(0) // the last user turn
		case len(m.conv.Turns) > 0:
			m.escArmed = time.Now()
			m.notice(block.Info, "esc again to fork: edit your last prompt in a new session")
		}
		return nil
	case s == "ctrl+s":
		return m.openPicker()
	case s == "ctrl+r":
		m.toggleLast(m.reasoning)
		return nil
	case s == "alt+r":
		m.toggleAll(m.reasoning)
		return nil
	case s == "ctrl+o":
		m.toggleLast(m.panels)
		return nil
	case s == "ctrl+y":
		return m.copyAnswer("")
	case s == "pgup" || s == "pgdown" || s == "home" || s == "end":
		var cmd tea.Cmd
		m.transcript, cmd = m.transcript.Update(k)
		return cmd
	case len(m.pending) > 0 && m.composer.Value() == "" && (s == "y" || s == "n"):
		return m.decide(s == "y")
	case len(m.pending) > 0 && m.composer.Value() == "" && s == "a":
		m.askHosted() // reopen the approval dialog
		return nil
	case s == "?" && m.composer.Value() == "":
		m.showHelp = !m.showHelp
		return nil
	}
	return m.updateComposer(k)
}

func (m *Model) toggleLast(es []*itemEntry) {
	for i := len(es) - 1; i >= 0; i-- {
		if x, ok := es[i].b.(block.Expander); ok {
			x.SetExpanded(!x.Expanded())
			m.transcript.Invalidate(es[i].idx)
			return
		}
	}
}

func (m *Model) toggleAll(es []*itemEntry) {
	open := false
	for _, e := range es {
		if x, ok := e.b.(block.Expander); ok && !x.Expanded() {
			open = true
		}
	}
	for _, e := range es {
		if x, ok := e.b.(block.Expander); ok {
			x.SetExpanded(open)
			m.transcript.Invalidate(e.idx)
		}
	}
}
