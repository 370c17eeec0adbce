package ui

// This file is the tools child's MCP part: it follows local MCP servers
// that start while the chat is already on screen. The status line says
// "starting MCP server X…" until they have started (or failed, within their
// startup_timeout); then their tool lists are shown, their tools join the
// request, and what went wrong is a notice. A message sent before then
// waits, and goes out once they are up (or have failed); esc takes it back
// into the composer.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
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
func (k *toolKit) mcpStarting() bool {
	if k.mgr == nil {
		return false
	}
	select {
	case <-k.mgr.Ready():
		return false
	default:
		return true
	}
}

// initMCP shows the servers now if they have started, else says they are
// starting and waits for them; and listens for the manager's reports.
func (k *toolKit) initMCP(f *frameState) tea.Cmd {
	mgr := k.mgr
	if mgr == nil {
		return nil
	}
	var cmds []tea.Cmd
	if k.mcpStarting() {
		f.post(mcpStatusMsg{mgr.Summary(), mgr.Brief()})
		cmds = append(cmds, func() tea.Msg {
			<-mgr.Ready()
			return mcpReadyMsg{}
		})
	} else {
		f.post(mcpServersMsg{mgr})
	}
	return tea.Batch(append(cmds, k.waitMCPReport())...)
}

// waitMCPReport waits for the manager's next report.
func (k *toolKit) waitMCPReport() tea.Cmd {
	c := k.reports
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		err, ok := <-c
		if !ok {
			return nil
		}
		return mcpReportMsg{err}
	}
}

// waitForMCP holds a message sent while MCP servers start, says so, and
// reports false: it is not sent now.
func (k *toolKit) waitForMCP(text string, files []*attach.File, prompt *session.Override, f *frameState) bool {
	if k.mcpWaiting != nil { // one waits already: this one goes back to the composer
		f.post(noticeMsg{block.Info, "a message is already waiting for the MCP servers — esc takes it back"})
		f.post(putBackMsg{text, files})
		return false
	}
	k.mcpWaiting = &waitingSend{text: text, files: files, prompt: prompt}
	f.post(mcpStatusMsg{k.mgr.Summary() + " · your message goes out once they are up", k.mgr.Brief() + " · waiting"})
	f.post(noticeMsg{block.Info, "MCP servers are still starting — your message goes out once they are up (esc takes it back)"})
	return false
}

// takeBackWaiting puts a message that waits for the MCP servers back in the
// composer, and reports whether there was one.
func (k *toolKit) takeBackWaiting(f *frameState) bool {
	w := k.mcpWaiting
	if w == nil {
		return false
	}
	k.mcpWaiting = nil
	f.post(mcpStatusMsg{k.mgr.Summary(), k.mgr.Brief()})
	f.post(putBackMsg{w.text, w.files})
	f.post(noticeMsg{block.Info, "the waiting message is back in the composer"})
	return true
}

// mcpMsg handles the messages above: once the servers are up, their tools
// join the request and a waiting message is sent (SubmitMsg).
func (k *toolKit) mcpMsg(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case mcpReadyMsg:
		f.post(mcpServersMsg{k.mgr})
		if _, redacted, err := k.requestTools(); err == nil {
			f.post(toolSetMsg{tools: redacted})
		}
		if w := k.mcpWaiting; w != nil {
			k.mcpWaiting = nil
			f.post(SubmitMsg{Text: w.text, Files: w.files, Prompt: w.prompt})
		}
	case mcpReportMsg:
		f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
		return k.waitMCPReport()
	}
	return nil
}
