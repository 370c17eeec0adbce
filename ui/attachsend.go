package ui

// This file sends attachments: files are read whole off the Update loop
// (attachReadMsg), then the message goes with all of them; a file that
// cannot be read stops the message, puts it back in the composer and says
// why in one line.

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/stream"
	"runnel/ui/block"
)

// attachReadMsg carries the files read for a message and the message made
// of them, or why they could not be read.
type attachReadMsg struct {
	of    *waitingSend // the read it answers: an answer to a read esc stopped is dropped
	text  string
	files []*attach.File // read (Data set) when err is nil; else as checked
	msg   json.RawMessage
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

// readMessage reads the files not read yet and makes the message.
func readMessage(text string, files []*attach.File, lim attach.Limits, redact func(string) string) attachReadMsg {
	var toRead []*attach.File
	for _, f := range files {
		if f.Data == nil {
			toRead = append(toRead, f)
		}
	}
	read, err := attach.Read(toRead, lim, redact)
	if err != nil {
		return attachReadMsg{text: text, files: files, err: err}
	}
	out := make([]*attach.File, 0, len(files))
	for _, f := range files {
		if f.Data == nil {
			f, read = read[0], read[1:]
		}
		out = append(out, f)
	}
	if err := attach.CheckTotal(out, lim); err != nil {
		return attachReadMsg{text: text, files: files, err: err}
	}
	return attachReadMsg{text: text, files: out, msg: attach.Message(text, out, lim)}
}

// attachRead sends the message whose files were read, or puts it back.
func (m *Model) attachRead(msg attachReadMsg) tea.Cmd {
	if msg.of != m.attaching {
		return nil // esc stopped that read: the message is in the composer
	}
	m.attaching = nil
	m.status.Detail = ""
	if msg.err != nil {
		m.notice(block.Error, stream.SanitizeLine(msg.err.Error())+" — nothing was sent")
		m.putBack(msg.text, msg.files)
		return nil
	}
	if !m.canSend(msg.text, msg.files) {
		return nil
	}
	return m.send(msg.text, msg.files, msg.msg)
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
