package ui

// This file runs the slash commands and what they share with keys: copying
// an answer, switching tools, recording changed settings.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// slash runs a slash command.
func (m *Model) slash(name, args string) tea.Cmd {
	switch name {
	case "new":
		var stop tea.Cmd
		if m.cur != nil && !m.cur.ended {
			stop = m.interrupt()
		}
		m.tools.abandon(m.frame)
		m.conv = m.conv.Restart() // what the server refused stays unsent (session/knobs.go)
		m.items.reset(m.transcriptHeight())
		m.pending = nil
		m.metering.reset()
		m.statusBar.resetUsage()
		watch := m.history.restart(m.conv.Settings)
		m.tools.resetLoop()
		m.notice(block.Info, "new conversation")
		return tea.Batch(stop, watch)
	case "model":
		return m.metering.modelCommand(args, m.frame, m.meterEnv())
	case "provider":
		return m.metering.providerCommand(args, m.frame, m.meterEnv())
	case "status":
		m.statusFacts()
	case "effort":
		m.conv.Settings.ReasoningEffort = args
		m.status.Effort = args
		m.history.saveSettings(m.conv.Settings)
		m.notice(block.Info, "reasoning effort: "+args)
	case "fast":
		m.conv.Settings.ServiceTier = session.ToggleFast(m.conv.Settings.ServiceTier)
		m.history.saveSettings(m.conv.Settings)
		m.notice(block.Info, fastNotice(m.conv.Settings.ServiceTier, m.conv.RefusedKnobs()))
	case "copy":
		return m.copyAnswer(args)
	case "help":
		m.showHelp, m.helpTop = true, 0
	case "sessions":
		return m.history.openPicker(m.frame)
	case "search":
		return m.history.search(args, m.frame)
	case "fork":
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		return m.fork(n)
	case "compact":
		return m.compact(m.tools.busy())
	case "export":
		return m.history.export(args, m.frame)
	case "rename":
		m.history.rename(args, len(m.conv.Turns) > 0, m.frame)
	case "retry":
		return m.retry()
	case "theme":
		return m.setTheme(args)
	case "tools":
		m.dialog = dlg[ToolsMenu]{NewToolsMenu(m.tools.cfg.List(), m.tools.enabled(), m.frame.styles)}
	case "attach":
		if err := m.composer.Attach(args); err != nil {
			m.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
	case "edit":
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		if text, files, ok := m.turns.edit(n, m.tools.busy()); ok {
			m.composer.SetValue(text)
			m.composer.SetAttachments(files)
		}
	case "undo":
		m.turns.undo(m.tools.busy() || m.tools.asking())
	case "tree":
		m.dialog = dlg[Tree]{NewTree(m.conv.Branches(), m.frame.styles)}
	case "quit":
		return tea.Quit
	default:
		if strings.HasPrefix(name, mcpPrefix) && m.opts.Tools != nil {
			return mcpPromptCmd(m.tools.ctx, m.opts.Tools.MCP, name, args)
		}
		m.notice(block.Warning, "unknown command /"+name)
	}
	return nil
}
