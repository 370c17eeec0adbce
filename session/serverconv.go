package session

// This file is conversations mode (Settings.State "conversation"): one
// server-side conversation per session. The first request of a session
// with no server state asks stream.Start to create it (NewConversation,
// with the local history to send instead when the server has none); every
// later request names it (conversation) instead of previous_response_id.
// Its id is kept in the session's settings, so a resumed session continues
// it. ConversationDoc turns a conversation's items, as the server lists
// them, into a store export document: `sessions import --conversation`.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

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

// ConversationDoc makes a store export document (store.DB.Import) of a
// server-side conversation's items, oldest first: each user message
// starts a turn (its text the prompt), system and developer messages go
// with the next turn's input, and everything else is that turn's output.
// The session's settings are s in conversations mode, continuing id.
func ConversationDoc(id string, items []json.RawMessage, s Settings, now time.Time) ([]byte, error) {
	s.State, s.Conversation = knob.StateConversation, id
	stamp := now.UTC().Format(time.RFC3339)
	type out struct {
		Response int             `json:"response"`
		Output   int             `json:"output"`
		Done     bool            `json:"done"`
		Item     json.RawMessage `json:"item"`
	}
	type turn struct {
		Seq     int               `json:"seq"`
		Prompt  string            `json:"prompt"`
		Input   []json.RawMessage `json:"input"`
		Status  string            `json:"status"`
		Started string            `json:"started"`
		Ended   string            `json:"ended"`
		Items   []out             `json:"items"`
	}
	var turns []*turn
	var pending []json.RawMessage // system and developer messages for the next turn
	title := ""
	for _, raw := range items {
		it := stream.StoredItem(raw)
		if it == nil {
			return nil, fmt.Errorf("conversation %s: an item is not a JSON object", stream.SanitizeLine(id))
		}
		isMsg := it.Type == "message" || it.Type == ""
		switch {
		case isMsg && it.Role == "user":
			text := strings.TrimSpace(it.PartsText())
			turns = append(turns, &turn{Seq: len(turns) + 1, Prompt: text, Input: append(pending, raw), Status: "completed", Started: stamp, Ended: stamp})
			pending = nil
			if title == "" {
				title = text
			}
		case isMsg && (it.Role == "system" || it.Role == "developer"):
			pending = append(pending, raw)
		default:
			if len(turns) == 0 { // output before any prompt: a turn of its own
				turns = append(turns, &turn{Seq: 1, Input: pending, Status: "completed", Started: stamp, Ended: stamp})
				pending = nil
			}
			t := turns[len(turns)-1]
			t.Items = append(t.Items, out{Output: len(t.Items), Done: true, Item: raw})
		}
	}
	if len(turns) == 0 {
		return nil, fmt.Errorf("conversation %s holds no messages to import", stream.SanitizeLine(id))
	}
	if r := []rune(stream.SanitizeLine(title)); len(r) > 80 {
		title = string(r[:80]) + "…"
	} else {
		title = string(r)
	}
	if title == "" {
		title = "Conversation " + stream.SanitizeLine(id)
	}
	for _, t := range turns {
		if t.Input == nil {
			t.Input = []json.RawMessage{}
		}
		if t.Items == nil {
			t.Items = []out{}
		}
	}
	return json.Marshal(map[string]any{
		"runnel_export": 1,
		"session":       map[string]any{"title": title, "created": stamp, "updated": stamp, "settings": s.JSON()},
		"turns":         turns,
	})
}
