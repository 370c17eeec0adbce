package stream

import "encoding/json"

// Request is the body of POST {base}/responses. Only the fields runnel sets are
// named; Extra carries anything else verbatim (it is merged into the top level).
//
// Input items are raw JSON so that output items received from the server can be
// sent back unchanged (reasoning encrypted_content needs this).
type Request struct {
	Model              string            `json:"model,omitempty"`
	Input              []json.RawMessage `json:"input,omitempty"`
	Instructions       string            `json:"instructions,omitempty"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	// Conversation is the server-side conversation the request belongs to
	// (sent instead of previous_response_id); NewConversation asks Start to
	// create one first (conversation.go).
	Conversation      string            `json:"conversation,omitempty"`
	NewConversation   *NewConversation  `json:"-"`
	Reasoning         *Reasoning        `json:"reasoning,omitempty"`
	Tools             []json.RawMessage `json:"tools,omitempty"`
	Store             *bool             `json:"store,omitempty"`
	Include           []string          `json:"include,omitempty"`
	ContextManagement []ContextManager  `json:"context_management,omitempty"`
	Truncation        string            `json:"truncation,omitempty"`
	// Background asks the server to run the response on its own, so that a
	// dropped stream can be resumed (GET /responses/{id}?stream=true&
	// starting_after=N) and a killed client can reattach. Open sends it with
	// store: true, which background mode requires.
	Background bool `json:"background,omitempty"`
	// The request knobs (session/knobs.go): the processing tier
	// ("priority", "flex"), the prompt cache key, and the text block
	// (verbosity, a json_schema format). Each is left out when empty.
	ServiceTier    string         `json:"service_tier,omitempty"`
	PromptCacheKey string         `json:"prompt_cache_key,omitempty"`
	Text           *TextParam     `json:"text,omitempty"`
	Stream         bool           `json:"stream"`
	Extra          map[string]any `json:"-"`
}

// TextParam is the request's text block: how long the answer should be
// (Verbosity: low, medium or high) and its format (a json_schema Format
// asks for JSON that follows the schema).
type TextParam struct {
	Format    *TextFormat `json:"format,omitempty"`
	Verbosity string      `json:"verbosity,omitempty"`
}

// TextFormat is text.format of type json_schema: Schema is the JSON Schema
// the answer follows, Strict asks the server to enforce it exactly.
type TextFormat struct {
	Type   string          `json:"type"`
	Name   string          `json:"name,omitempty"`
	Schema json.RawMessage `json:"schema,omitempty"`
	Strict bool            `json:"strict"`
}

// ContextManager is one entry of the request's context_management: with
// Type "compaction", the server compacts the context once it passes
// CompactThreshold tokens and sends a compaction item in the output.
type ContextManager struct {
	Type             string `json:"type"`
	CompactThreshold int64  `json:"compact_threshold,omitempty"`
}

// Compaction is the context_management entry that compacts past threshold
// tokens; nil for a threshold of 0 or less (compaction off).
func Compaction(threshold int64) []ContextManager {
	if threshold <= 0 {
		return nil
	}
	return []ContextManager{{Type: "compaction", CompactThreshold: threshold}}
}

// Reasoning is the request's reasoning block.
type Reasoning struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// MarshalJSON writes the named fields, then Extra's keys that do not clash.
func (r Request) MarshalJSON() ([]byte, error) {
	type plain Request
	b, err := json.Marshal(plain(r))
	if err != nil || len(r.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range r.Extra {
		if _, ok := m[k]; ok {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// UserText returns an input item for a plain user message.
func UserText(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"type": "message", "role": "user",
		"content": []map[string]string{{"type": "input_text", "text": text}},
	})
	return b
}
