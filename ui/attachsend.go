package ui

// This file sends attachments: files are read whole off the Update loop
// (attachReadMsg), then the message goes with all of them; a file that
// cannot be read stops the message, puts it back in the composer and says
// why in one line.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/stream"
	"runnel/ui/block"
)

// attachReadMsg carries the files read for a message, or why they could not be.
type attachReadMsg struct {
	text  string
	files []*attach.File // read (Data set) when err is nil; else as checked
	err   error
}

// initAttachments gives the composer the limits and the -f files.
func (m *Model) initAttachments() {
	m.composer.SetAttachLimits(m.opts.Attach)
	for _, p := range m.opts.Files {
		if err := m.composer.Attach(p); err != nil {
			m.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
	}
}

func unread(files []*attach.File) bool {
	for _, f := range files {
		if f.Data == nil {
			return true
		}
	}
	return false
}

// readFiles reads the files of a message in a command.
func (m *Model) readFiles(text string, files []*attach.File) tea.Cmd {
	lim := m.opts.Attach
	var redact func(string) string
	if m.opts.Tools != nil && m.opts.Tools.Secrets != nil {
		redact = m.opts.Tools.Secrets.String
	}
	m.status.Detail = "reading attachments…"
	return func() tea.Msg {
		read, err := attach.Read(files, lim, redact)
		if err != nil {
			return attachReadMsg{text: text, files: files, err: err}
		}
		return attachReadMsg{text: text, files: read}
	}
}

// attachRead sends the message whose files were read, or puts it back.
func (m *Model) attachRead(msg attachReadMsg) tea.Cmd {
	m.status.Detail = ""
	if msg.err != nil {
		m.notice(block.Error, stream.SanitizeLine(msg.err.Error())+" — nothing was sent")
		m.putBack(msg.text, msg.files)
		return nil
	}
	return m.submit(msg.text, msg.files)
}

// putBack returns a message that was not sent to the composer, unless the
// user has started another.
func (m *Model) putBack(text string, files []*attach.File) {
	if m.composer.Value() == "" {
		m.composer.SetValue(text)
	}
	if len(m.composer.Attachments()) == 0 {
		m.composer.SetAttachments(files)
	}
}

// showAttachments lists a prompt's files under it in the transcript.
func (m *Model) showAttachments(files []attach.Meta) {
	if len(files) == 0 {
		return
	}
	labels := make([]string, 0, len(files))
	for _, f := range files {
		labels = append(labels, f.Label())
	}
	m.appendEntry(&plainEntry{b: block.NewAttachments(labels), fs: m.frame})
}
