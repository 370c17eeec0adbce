package session

import (
	"encoding/json"

	"runnel/session/store"
)

// FullInput is the whole conversation as input items, for a server that has
// no stored state to chain from (store = false, or the previous response
// expired): every turn that completed or ended incomplete, its input and its
// output items as received (encrypted reasoning included when present), tool
// outputs kept with their calls, and then extra; each call answered once.
//
// Compaction shortens it: it starts at the newest turn that sent a
// compacted window (/compact), and at the newest compaction item after
// that window, which stands for everything before it.
func (c *Conversation) FullInput(extra ...json.RawMessage) []json.RawMessage {
	from, window := 0, 0
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if c.Turns[i].Window > 0 {
			from, window = i, c.Turns[i].Window
			break
		}
	}
	s := &store.Session{}
	for _, t := range c.Turns[from:] {
		st := store.Turn{Input: t.Input, Status: t.status(), Prompt: t.Prompt, PreviousResponseID: t.Request.PreviousResponseID}
		for _, r := range t.Responses {
			resp := store.Response{ID: r.ID}
			for _, it := range r.Items {
				if it.Type == "function_call" && it.Output != nil {
					c := *it // the chat shows the call's output on it; the item sent has none
					c.Output = nil
					it = &c
				}
				resp.Items = append(resp.Items, store.Item{Raw: it.JSON(), Done: it.Done, OutputIndex: it.Index})
			}
			st.Responses = append(st.Responses, resp)
		}
		s.Turns = append(s.Turns, st)
	}
	out := s.RebuildInput()
	if window > 0 && (len(out) < window || len(c.Turns[from].Input) < window) {
		window = 0 // the window turn was left out (it failed): nothing to keep whole
	}
	out = FromLastCompaction(out, window)
	return oneAnswerEach(append(out, extra...))
}

// oneAnswerEach keeps the first tool output (or approval response) for each
// call and drops the others: a session an older runnel journaled after
// running a call the stream repeated holds two outputs for one call_id, and
// a request must answer each call once.
func oneAnswerEach(items []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(items))
	seen := map[string]bool{}
	for _, in := range items {
		if key := answerKey(in); key != "" {
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, in)
	}
	return out
}

// status is the turn's stored status as the chain sees it.
func (t *Turn) status() store.Status {
	if t.Stored != "" {
		return t.Stored
	}
	return turnStatus(t)
}
