package ui

// This file runs the slash commands and what they share with keys: copying
// an answer, switching tools, recording changed settings.

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// copyAnswer copies the last answer (or its n-th code block).
func (m *Model) copyAnswer(n string) tea.Cmd {
	if len(m.answers) == 0 {
		m.notice(block.Info, "nothing to copy yet")
		return nil
	}
	// Code blocks are found in the cleaned text, as the screen finds them.
	text := stream.Sanitize(m.answers[len(m.answers)-1])
	if n != "" {
		var i int
		fmt.Sscan(n, &i)
		blocks := CodeBlocks(text)
		if i < 1 || i > len(blocks) {
			m.notice(block.Info, fmt.Sprintf("the last answer has %d code block(s)", len(blocks)))
			return nil
		}
		text = blocks[i-1]
	}
	return CopyCmd(text)
}

// settingsChanged records the conversation's settings in the history.
func (m *Model) settingsChanged() {
	if m.journal != nil {
		m.journal.SetSettings(m.conv.Settings)
	}
}

// slash runs a slash command.
func (m *Model) slash(name, args string) tea.Cmd {
	switch name {
	case "new":
		var stop tea.Cmd
		if m.cur != nil && !m.cur.ended {
			stop = m.interrupt()
		}
		m.tools.abandon(m.frame)
		m.conv = &session.Conversation{Settings: m.conv.Settings}
		m.resetTranscript()
		if m.opts.DB != nil {
			m.closeJournal()
			m.journal = session.NewJournal(m.opts.DB, m.conv.Settings)
		}
		m.tools.loop.Reset()
		m.notice(block.Info, "new conversation")
		return tea.Batch(stop, m.watchJournal())
	case "model":
		return m.modelCommand(args)
	case "provider":
		return m.providerCommand(args)
	case "status":
		m.statusFacts()
	case "effort":
		m.conv.Settings.ReasoningEffort = args
		m.status.Effort = args
		m.settingsChanged()
		m.notice(block.Info, "reasoning effort: "+args)
	case "copy":
		return m.copyAnswer(args)
	case "help":
		m.showHelp, m.helpTop = true, 0
	case "sessions":
		return m.openPicker()
	case "search":
		return m.search(args)
	case "fork":
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		return m.fork(n)
	case "compact":
		return m.compact()
	case "export":
		return m.export(args)
	case "rename":
		m.rename(args)
	case "retry":
		return m.retry()
	case "theme":
		m.setTheme(args)
	case "tools":
		m.dialog = dlg[ToolsMenu]{NewToolsMenu(m.tools.cfg.List(), m.tools.enabled, m.frame.styles)}
	case "attach":
		if err := m.composer.Attach(args); err != nil {
			m.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
	case "quit":
		return tea.Quit
	default:
		m.notice(block.Warning, "unknown command /"+name)
	}
	return nil
}
