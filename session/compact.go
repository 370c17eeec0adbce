package session

// This file is compaction as the conversation sees it. The server compacts
// in two ways: on its own, past context_management's compact_threshold, by
// putting a compaction item in a response's output; and on demand, when
// /compact calls POST /responses/compact, which answers with a compacted
// window. A compaction item stands for everything before it, so local
// history (store = false, or the fallback when the server lost the chain)
// sends the newest one and what follows. A compacted window replaces the
// chain: the next request sends it as input instead of
// previous_response_id, and once a response to it finishes the chain goes
// on from that response as usual.

import (
	"bytes"
	"encoding/json"

	"runnel/stream"
)

// CompactRequest is the body of POST /responses/compact for this
// conversation: with store on and a chain, its previous_response_id and what
// the chain still owes; otherwise the whole conversation as input (from the
// last compaction on). ok is false when there is nothing to compact.
func (c *Conversation) CompactRequest() (req stream.CompactRequest, ok bool) {
	req = stream.CompactRequest{Model: c.Settings.Model, Instructions: joinInstructions(c.Settings.Instructions, c.Project)}
	owed := c.owed(nil)
	switch {
	case c.Settings.Store && c.chainID != "" && c.window == nil:
		req.PreviousResponseID, req.Input = c.chainID, owed
	case c.window != nil:
		req.Input = owed
	default:
		req.Input = c.FullInput(owed...)
	}
	return req, req.PreviousResponseID != "" || len(req.Input) > 0
}

// Compacted makes res's window the start of the model's context: the next
// request sends it (and what came after) as input, without
// previous_response_id or conversation, until a response to it finishes
// (and then chains by id).
func (c *Conversation) Compacted(res *stream.CompactResult) {
	c.window = append([]json.RawMessage(nil), res.Output...)
	c.windowAt = len(c.Turns)
	c.chainID = ""
	c.Settings.Conversation = "" // the window replaces the server's conversation too
}

// owed is what the next request sends before input: the compacted window
// when one waits (with a turn since it that did not finish carried after
// it, without repeating the window), else what the chain owes (carry).
func (c *Conversation) owed(input []json.RawMessage) []json.RawMessage {
	if c.window == nil {
		return c.carry(input)
	}
	out := append([]json.RawMessage(nil), c.window...)
	if len(c.Turns) == c.windowAt {
		return out
	}
	more := c.carry(input)
	if last := c.Turns[len(c.Turns)-1]; last.Window > 0 && len(more) >= last.Window &&
		bytes.Equal(more[0], c.window[0]) {
		more = more[last.Window:]
	}
	return append(out, more...)
}

// FromLastCompaction returns items from the newest compaction item on, when
// it lies at or after index keep (the items before keep are a compacted
// window, sent whole); otherwise items unchanged.
func FromLastCompaction(items []json.RawMessage, keep int) []json.RawMessage {
	for i := len(items) - 1; i >= keep; i-- {
		if itemType(items[i]) == "compaction" {
			return items[i:]
		}
	}
	return items
}

// windowLen is how many items a stored turn's input starts with that are a
// compacted window: up to its last compaction item (only a window sent after
// /compact puts one in a turn's input); 0 for none.
func windowLen(input []json.RawMessage) int {
	for i := len(input) - 1; i >= 0; i-- {
		if itemType(input[i]) == "compaction" {
			return i + 1
		}
	}
	return 0
}

func itemType(raw json.RawMessage) string {
	var f struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.Type
}

// truncation is the request's truncation for the setting: "auto" only, as
// "disabled" is the server's default and some servers know no truncation.
func truncation(setting string) string {
	if setting == "auto" {
		return setting
	}
	return ""
}
