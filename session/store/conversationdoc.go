package store

// This file makes an export document (Import's) of a server-side
// conversation's items, as the server lists them: `sessions import
// --conversation`.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"runnel/stream"
)

// ConversationDoc makes a store export document (store.DB.Import) of a
// server-side conversation's items, oldest first: each user message
// starts a turn (its text the prompt), system and developer messages go
// with the next turn's input, and everything else is that turn's output.
// The session's settings are the caller's JSON (knob.Settings.Continuing's:
// conversations mode, continuing id), kept as they are.
func ConversationDoc(id string, items []json.RawMessage, settings json.RawMessage, now time.Time) ([]byte, error) {
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
		"session":       map[string]any{"title": title, "created": stamp, "updated": stamp, "settings": settings},
		"turns":         turns,
	})
}
