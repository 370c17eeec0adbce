package ui

// This file is the chat's side of conversations mode (session/serverconv.go):
// the first batch of a turn that asked for a server-side conversation says
// what the stream did; the turns child records it in the conversation, says
// in one line when the server has none (the session goes on with the local
// history), and asks the root to save the settings that now hold the id.

import (
	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// conversationMsg asks for the conversation's settings to be saved with
// the session: they hold its server-side conversation's id.
type conversationMsg struct{ settings session.Settings }

// conversationStarted records what the stream did about a new server-side
// conversation.
func (ts *turns) conversationStarted(cs stream.ConversationStart) {
	if note := ts.conv.ConversationStarted(cs); note != "" {
		ts.fs.post(noticeMsg{block.Warning, note})
		return
	}
	ts.fs.post(conversationMsg{ts.conv.Settings})
}
