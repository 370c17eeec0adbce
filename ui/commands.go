package ui

// This file runs the slash commands and what they share with keys: copying
// an answer, switching tools, recording changed settings.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/block"
)

// slash runs a slash command.
func (m *Model) slash(name, args string) tea.Cmd {
	switch name {
	case "new":
		cmd := m.reset(resetNew, Connection{})
		m.items.notice(block.Info, "new conversation")
		return cmd
	case "model":
		return m.metering.modelCommand(args, m.frame, m.meterEnv())
	case "provider":
		return m.metering.providerCommand(args, m.frame, m.meterEnv())
	case "status":
		m.statusFacts()
	case "effort":
		m.turns.Update(effortMsg{args})
		m.statusBar.showModel(m.statusBar.status.Model, args)
		m.history.saveSettings(m.turns.conv.Settings)
		m.items.notice(block.Info, "reasoning effort: "+args)
	case "fast":
		m.turns.Update(fastMsg{})
		m.history.saveSettings(m.turns.conv.Settings)
		m.items.notice(block.Info, fastNotice(m.turns.conv.Settings.ServiceTier, m.turns.conv.RefusedKnobs()))
	case "copy":
		return m.items.copyAnswer(args)
	case "help":
		m.keyState.openHelp()
	case "sessions":
		return m.history.openPicker(m.frame)
	case "search":
		return m.history.search(args, m.frame)
	case "fork":
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		return m.fork(n)
	case "compact":
		return m.turns.compact(m.tools.busy())
	case "export":
		return m.history.export(args, m.frame)
	case "rename":
		m.history.rename(args, len(m.turns.conv.Turns) > 0, m.frame)
	case "retry":
		return m.retry()
	case "theme":
		return m.setTheme(args)
	case "tools":
		m.dialog = dlg[ToolsMenu]{NewToolsMenu(m.tools.cfg.List(), m.tools.enabled(), m.frame.styles)}
	case "attach":
		if err := m.composer.Attach(args); err != nil {
			m.items.notice(block.Error, stream.SanitizeLine(err.Error()))
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
		m.dialog = dlg[Tree]{NewTree(m.turns.conv.Branches(), m.frame.styles)}
	case "quit":
		return tea.Quit
	default:
		if strings.HasPrefix(name, mcpPrefix) && m.opts.Tools != nil {
			return mcpPromptCmd(m.tools.ctx, m.opts.Tools.MCP, name, args)
		}
		m.items.notice(block.Warning, "unknown command /"+name)
	}
	return nil
}
