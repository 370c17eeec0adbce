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
		m.composer.putBack(msg.text, msg.files)
		return nil
	}
	if !m.canSend(msg.text, msg.files) {
		return nil
	}
	return m.send(msg.text, msg.files, msg.msg)
}
