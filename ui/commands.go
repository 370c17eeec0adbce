package ui

// This file runs the slash commands: slashDo is the table from a
// command's name to what it does, one short function each, and slash
// looks it up. A command's own work is its child's (the metering child's
// /model, the history's /sessions); an entry only routes to it.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/block"
)

// slash runs a slash command: its entry in slashDo, an MCP server's
// prompt (/mcp:SERVER:PROMPT), or one line saying it is unknown.
func (m *Model) slash(name, args string) tea.Cmd {
	if do, ok := slashDo[name]; ok {
		return do(m, args)
	}
	if strings.HasPrefix(name, mcpPrefix) && m.opts.Tools != nil {
		return mcpPromptCmd(m.tools.ctx, m.opts.Tools.MCP, name, args)
	}
	m.items.notice(block.Warning, "unknown command /"+name)
	return nil
}

// slashDo is what each command does, by name (the names are the
// composer's, slashcmds.go).
var slashDo = map[string]func(m *Model, args string) tea.Cmd{
	"new": func(m *Model, _ string) tea.Cmd {
		cmd := m.reset(resetNew, Connection{}) // every child forgets the conversation (reset.go)
		m.items.notice(block.Info, "new conversation")
		return cmd
	},
	"model": func(m *Model, args string) tea.Cmd {
		return m.metering.modelCommand(args, m.frame, m.meterEnv())
	},
	"provider": func(m *Model, args string) tea.Cmd {
		return m.metering.providerCommand(args, m.frame, m.meterEnv())
	},
	"status": func(m *Model, _ string) tea.Cmd { m.statusFacts(); return nil },
	"effort": func(m *Model, args string) tea.Cmd {
		m.turns.Update(effortMsg{args})
		m.statusBar.showEffort(args)
		m.history.saveSettings(m.turns.conv.Settings)
		m.items.notice(block.Info, "reasoning effort: "+args)
		return nil
	},
	"fast": func(m *Model, _ string) tea.Cmd {
		m.turns.Update(fastMsg{})
		m.history.saveSettings(m.turns.conv.Settings)
		m.items.notice(block.Info, fastNotice(m.turns.conv.Settings.ServiceTier, m.turns.conversation().RefusedKnobs()))
		return nil
	},
	"copy":     func(m *Model, args string) tea.Cmd { return m.items.copyAnswer(args) },
	"help":     func(m *Model, _ string) tea.Cmd { m.keyState.setHelp(true); return nil },
	"sessions": func(m *Model, _ string) tea.Cmd { return m.history.openPicker(m.frame) },
	"search":   func(m *Model, args string) tea.Cmd { return m.history.search(args, m.frame) },
	"fork": func(m *Model, args string) tea.Cmd {
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		return m.fork(n)
	},
	"compact": func(m *Model, _ string) tea.Cmd { return m.turns.compact(m.tools.busy()) },
	"export":  func(m *Model, args string) tea.Cmd { return m.history.export(args, m.frame) },
	"rename": func(m *Model, args string) tea.Cmd {
		m.history.rename(args, len(m.turns.conv.Turns) > 0, m.frame)
		return nil
	},
	"retry": func(m *Model, _ string) tea.Cmd { return m.retry() },
	"theme": func(m *Model, args string) tea.Cmd {
		now, read := m.frame.chooseTheme(args)
		if now != nil {
			m.themeRead(*now)
		}
		return read
	},
	"tools": func(m *Model, _ string) tea.Cmd {
		m.dialog = dlg[ToolsMenu]{NewToolsMenu(m.tools.list(), m.tools.enabled(), m.frame.styles)}
		return nil
	},
	"attach": func(m *Model, args string) tea.Cmd {
		if err := m.composer.Attach(args); err != nil {
			m.items.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
		return nil
	},
	"edit": func(m *Model, args string) tea.Cmd {
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		if text, files, ok := m.turns.edit(n, m.tools.busy()); ok {
			m.composer.SetValue(text)
			m.composer.SetAttachments(files)
		}
		return nil
	},
	"undo": func(m *Model, _ string) tea.Cmd {
		m.turns.undo(m.tools.busy() || m.tools.asking())
		return nil
	},
	"tree": func(m *Model, _ string) tea.Cmd {
		m.dialog = dlg[Tree]{NewTree(m.turns.conversation().Branches(), m.frame.styles)}
		return nil
	},
	"quit": func(*Model, string) tea.Cmd { return tea.Quit },
}
