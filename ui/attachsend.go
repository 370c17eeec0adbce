package ui

// This file sends attachments: files are read whole off the Update loop
// (attachReadMsg), then the message goes with all of them; a file that
// cannot be read stops the message, puts it back in the composer and says
// why in one line.

import (
	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/block"
)

// readDoneMsg is the read the turns child waited for, over (attachReadMsg
// goes to it first: a read esc stopped is dropped there).
type readDoneMsg struct{ read attachReadMsg }

// attachRead sends the message whose files were read, or puts it back.
func (m *Model) attachRead(msg attachReadMsg) tea.Cmd {
	if msg.err != nil {
		m.items.notice(block.Error, stream.SanitizeLine(msg.err.Error())+" — nothing was sent")
		m.composer.putBack(msg.text, msg.files)
		return nil
	}
	if !m.canSend(msg.text, msg.files) {
		return nil
	}
	return m.send(msg.text, msg.files, msg.msg)
}
