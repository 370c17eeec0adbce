package session

import (
	"encoding/json"
	"strings"

	"runnel/session/store"
)

// FullInput is the whole conversation as input items, for a server that has
// no stored state to chain from (store = false, a server that keeps none, or
// the previous response expired): every turn that completed or ended
// incomplete, its input and its output items as received, tool outputs kept
// with their calls, and then extra; each call answered once. Reasoning
// items go as the server needs them (ResendReasoning): with their
// encrypted_content, else with their content, else not at all.
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
	for i, t := range c.Turns[from:] {
		moved := from+i < c.movedAt // answered by the provider before a switch
		st := store.Turn{Input: t.Input, Status: t.status(), Prompt: t.Prompt, PreviousResponseID: t.Request.PreviousResponseID}
		for _, r := range t.Responses {
			resp := store.Response{ID: r.ID}
			for _, it := range r.Items {
				if it.Type == "function_call" && it.Output != nil {
					c := *it // the chat shows the call's output on it; the item sent has none
					c.Output = nil
					it = &c
				}
				raw := it.JSON()
				if it.Type == "reasoning" {
					if raw = ResendReasoning(raw); raw == nil || moved {
						continue
					}
				}
				resp.Items = append(resp.Items, store.Item{Raw: raw, Done: it.Done, OutputIndex: it.Index})
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

// ResendReasoning is a reasoning output item as the next request sends it
// back to a server that keeps no state, or nil when it cannot go:
//   - with encrypted_content, as received (OpenAI with store = false; Ollama
//     puts its plain thinking there);
//   - without it, with its content when the server sent reasoning text
//     (vLLM, LM Studio, llama.cpp, DeepSeek): a server that produced the
//     text reads it back;
//   - never as fragments: content split into several parts (vLLM's deltas
//     with a growing content_index) goes as one reasoning_text part holding
//     the whole text, as vLLM reads back only one;
//   - with neither, not at all: the server cannot resolve it by id.
func ResendReasoning(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	encrypted := !jsonNull(m["encrypted_content"]) && string(m["encrypted_content"]) != `""`
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	_ = json.Unmarshal(m["content"], &parts)
	var text strings.Builder
	texts := 0
	for _, p := range parts {
		if p.Text != nil && *p.Text != "" && p.Type != "refusal" {
			text.WriteString(*p.Text)
			texts++
		}
	}
	switch {
	case !encrypted && texts == 0:
		return nil
	case len(parts) <= 1 && (texts == 1 || encrypted):
		return raw // one part, or none beside the encrypted form: as received
	case texts == 0:
		delete(m, "content") // only empty parts beside the encrypted form
	default:
		m["content"], _ = json.Marshal([]map[string]string{{"type": "reasoning_text", "text": text.String()}})
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

// jsonNull reports whether a field is absent or null.
func jsonNull(b json.RawMessage) bool {
	return len(b) == 0 || strings.TrimSpace(string(b)) == "null"
}
