package session

// This file is conversations mode (Settings.State "conversation"): one
// server-side conversation per session. The first request of a session
// with no server state asks stream.Start to create it (NewConversation,
// with the local history to send instead when the server has none); every
// later request names it (conversation) instead of previous_response_id.
// Its id is kept in the session's settings, so a resumed session continues
// it. store.ConversationDoc turns a conversation's items, as the server
// lists them, into a store export document (`sessions import
// --conversation`), with Settings.Continuing's settings.

import (
	"encoding/json"
	"errors"
	"fmt"

	"runnel/session/knob"
	"runnel/stream"
)

// inConversation makes req (a stored, chained request) part of the
// session's server-side conversation: naming it when it has one, else
// asking for one when the session has no server state yet (no chain, no
// compacted window).
func (c *Conversation) inConversation(req *stream.Request, history *Conversation, input []json.RawMessage) {
	switch {
	case c.Settings.Conversation != "":
		req.Conversation, req.PreviousResponseID = c.Settings.Conversation, ""
	case c.WantsConversation() && req.PreviousResponseID == "":
		req.NewConversation = &stream.NewConversation{
			Metadata: map[string]string{"client": "runnel"},
			History:  history.FullInput(input...),
		}
	}
}

// WantsConversation reports whether the next request should create the
// session's server-side conversation: conversations mode, none yet, and no
// server state to lose (no chain, no compacted window; stored, and not a
// server that keeps none).
func (c *Conversation) WantsConversation() bool {
	return c.Settings.State == knob.StateConversation && c.Settings.Conversation == "" && c.Settings.Store &&
		!c.Stateless && c.chainID == "" && c.window == nil
}

// ConversationStarted records what the turn's stream did about its
// NewConversation (stream.Batch.Conversation): the conversation's id, or,
// when the server has none, that the session goes on with the local
// history (Stateless). It returns the one line to show for a fallback,
// "" otherwise.
func (c *Conversation) ConversationStarted(cs stream.ConversationStart) string {
	if cs.ID != "" {
		c.Settings.Conversation = cs.ID
		return ""
	}
	c.Stateless = true
	why := "it has no /conversations"
	var apiErr *stream.APIError
	if errors.As(cs.Err, &apiErr) {
		why = fmt.Sprintf("POST /conversations answered %d", apiErr.Status)
	}
	return "this server keeps no conversations (" + why + "): the session goes on with the local history, sent with every turn"
}
