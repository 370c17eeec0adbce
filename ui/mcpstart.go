package ui

// This file follows local MCP servers that start while the chat is already
// on screen: the status line says "starting MCP server X…" until they have
// started (or failed, within their startup_timeout); then their tool lists
// are shown, their tools join the request, and what went wrong is a notice.
// A message sent before then waits, and goes out once they are up (or have
// failed); esc takes it back into the composer.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

type (
	// mcpReadyMsg says the MCP servers have started or failed.
	mcpReadyMsg struct{}
	// mcpReportMsg is one problem the MCP manager reported.
	mcpReportMsg struct{ err error }
)

// mcpStarting reports whether local MCP servers are still starting.
func (m *Model) mcpStarting() bool {
	mgr := m.mcp()
	if mgr == nil {
		return false
	}
	select {
	case <-mgr.Ready():
		return false
	default:
		return true
	}
}

func (m *Model) mcp() *tools.Manager {
	if m.opts.Tools == nil {
		return nil
	}
	return m.opts.Tools.MCP
}

// initMCP shows the servers now if they have started, else says they are
// starting and waits for them; and listens for the manager's reports.
func (m *Model) initMCP() tea.Cmd {
	mgr := m.mcp()
	if mgr == nil {
		return nil
	}
	var cmds []tea.Cmd
	if m.mcpStarting() {
		m.status.MCP = mgr.Summary()
		cmds = append(cmds, func() tea.Msg {
			<-mgr.Ready()
			return mcpReadyMsg{}
		})
	} else {
		m.showMCPServers(mgr)
	}
	return tea.Batch(append(cmds, m.waitMCPReport())...)
}

// waitMCPReport waits for the manager's next report.
func (m *Model) waitMCPReport() tea.Cmd {
	if m.opts.Tools == nil || m.opts.Tools.Reports == nil {
		return nil
	}
	c := m.opts.Tools.Reports
	return func() tea.Msg {
		err, ok := <-c
		if !ok {
			return nil
		}
		return mcpReportMsg{err}
	}
}

// waitingSend is a message sent while MCP servers started.
type waitingSend struct {
	text  string
	files []*attach.File
}

// waitForMCP holds a message sent while MCP servers start, says so, and
// reports false: it is not sent now.
func (m *Model) waitForMCP(text string, files []*attach.File) bool {
	if m.mcpWaiting != nil { // one waits already: this one goes back to the composer
		m.notice(block.Info, "a message is already waiting for the MCP servers — esc takes it back")
		m.composer.putBack(text, files)
		return false
	}
	m.mcpWaiting = &waitingSend{text: text, files: files}
	m.status.MCP = m.mcp().Summary() + " · your message goes out once they are up"
	m.notice(block.Info, "MCP servers are still starting — your message goes out once they are up (esc takes it back)")
	return false
}

// takeBackWaiting puts a message that waits for the MCP servers back in the
// composer, and reports whether there was one.
func (m *Model) takeBackWaiting() bool {
	w := m.mcpWaiting
	if w == nil {
		return false
	}
	m.mcpWaiting = nil
	m.status.MCP = m.mcp().Summary()
	m.composer.putBack(w.text, w.files)
	m.notice(block.Info, "the waiting message is back in the composer")
	return true
}

// mcpMsg handles the messages above.
func (m *Model) mcpMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case mcpReadyMsg:
		m.showMCPServers(m.mcp())
		if _, redacted, err := m.tools.requestTools(); err == nil {
			m.conv.Settings.Tools = redacted
			m.settingsChanged()
		}
		if w := m.mcpWaiting; w != nil {
			m.mcpWaiting = nil
			return m.submit(w.text, w.files)
		}
	case mcpReportMsg:
		m.notice(block.Error, stream.SanitizeLine(msg.err.Error()))
		return m.waitMCPReport()
	}
	return nil
}
