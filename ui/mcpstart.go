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

// mcpStart is the local MCP servers as the chat follows their start.
//
// Invariants: mgr is nil without local MCP servers, and then nothing here
// posts or waits; reports is nil when nothing reports; waiting is nil
// unless a message was sent while the servers start, and holds at most one
// (a second goes back to the composer); it is sent, or taken back, once.
type mcpStart struct {
	mgr     *tools.Manager // the local MCP servers; nil without any
	reports <-chan error   // the MCP manager's reports; nil without any
	waiting *waitingSend   // a message sent while they start: it goes out once they are up
}

// starting reports whether local MCP servers are still starting.
func (s *mcpStart) starting() bool {
	if s.mgr == nil {
		return false
	}
	select {
	case <-s.mgr.Ready():
		return false
	default:
		return true
	}
}

// init shows the servers now if they have started, else says they are
// starting and waits for them; and listens for the manager's reports.
func (s *mcpStart) init(f *frameState) tea.Cmd {
	mgr := s.mgr
	if mgr == nil {
		return nil
	}
	var cmds []tea.Cmd
	if s.starting() {
		f.post(mcpStatusMsg{mgr.Summary(), mgr.Brief()})
		cmds = append(cmds, func() tea.Msg {
			<-mgr.Ready()
			return mcpReadyMsg{}
		})
	} else {
		f.post(mcpServersMsg{mgr})
	}
	return tea.Batch(append(cmds, s.waitReport())...)
}

// waitReport waits for the manager's next report.
func (s *mcpStart) waitReport() tea.Cmd {
	c := s.reports
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

// hold holds a message sent while MCP servers start, says so, and
// reports false: it is not sent now.
func (s *mcpStart) hold(text string, files []*attach.File, prompt *session.Override, f *frameState) bool {
	if s.waiting != nil { // one waits already: this one goes back to the composer
		f.post(noticeMsg{block.Info, "a message is already waiting for the MCP servers — esc takes it back"})
		f.post(putBackMsg{text, files})
		return false
	}
	s.waiting = &waitingSend{text: text, files: files, prompt: prompt}
	f.post(mcpStatusMsg{s.mgr.Summary() + " · your message goes out once they are up", s.mgr.Brief() + " · waiting"})
	f.post(noticeMsg{block.Info, "MCP servers are still starting — your message goes out once they are up (esc takes it back)"})
	return false
}

// takeBack puts a message that waits for the MCP servers back in the
// composer, and reports whether there was one.
func (s *mcpStart) takeBack(f *frameState) bool {
	w := s.waiting
	if w == nil {
		return false
	}
	s.waiting = nil
	f.post(mcpStatusMsg{s.mgr.Summary(), s.mgr.Brief()})
	f.post(putBackMsg{w.text, w.files})
	f.post(noticeMsg{block.Info, "the waiting message is back in the composer"})
	return true
}

// sendWaiting sends the message that waited for the servers (SubmitMsg).
func (s *mcpStart) sendWaiting(f *frameState) {
	if w := s.waiting; w != nil {
		s.waiting = nil
		f.post(SubmitMsg{Text: w.text, Files: w.files, Prompt: w.prompt})
	}
}

// mcpStarting reports whether local MCP servers are still starting.
func (k *toolKit) mcpStarting() bool { return k.mcp.starting() }

// mcpHolding reports whether a message waits for the MCP servers.
func (k *toolKit) mcpHolding() bool { return k.mcp.waiting != nil }

// initMCP follows the MCP servers' start and reports (mcpStart.init).
func (k *toolKit) initMCP(f *frameState) tea.Cmd { return k.mcp.init(f) }

// waitForMCP holds a message sent while MCP servers start (mcpStart.hold).
func (k *toolKit) waitForMCP(text string, files []*attach.File, prompt *session.Override, f *frameState) bool {
	return k.mcp.hold(text, files, prompt, f)
}

// takeBackWaiting puts a message that waits for the MCP servers back in
// the composer, and reports whether there was one.
func (k *toolKit) takeBackWaiting(f *frameState) bool { return k.mcp.takeBack(f) }

// mcpMsg handles the messages above: once the servers are up, their tools
// join the request and a waiting message is sent (SubmitMsg).
func (k *toolKit) mcpMsg(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case mcpReadyMsg:
		f.post(mcpServersMsg{k.mcp.mgr})
		if _, redacted, err := k.requestTools(); err == nil {
			f.post(toolSetMsg{tools: redacted})
		}
		k.mcp.sendWaiting(f)
	case mcpReportMsg:
		f.post(noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error())})
		return k.mcp.waitReport()
	}
	return nil
}
