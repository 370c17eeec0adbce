package demo

import "encoding/json"

// The wire shapes below copy the field order of real OpenAI Responses streams
// (recorded 2025-2026), so the demo's bytes look like a live server's. Fields
// that real servers send as null are pointers or json.RawMessage("null").

// response is the Response object carried by response.created, .in_progress,
// .completed and .failed.
//
// Invariants: Output holds only items whose output_item.done was emitted, in
// output_index order, as the exact bytes of that event's item; Usage is null
// until the response ends.
type response struct {
	ID                   string            `json:"id"`
	Object               string            `json:"object"`
	CreatedAt            int64             `json:"created_at"`
	Status               string            `json:"status"`
	Background           bool              `json:"background"`
	CompletedAt          *int64            `json:"completed_at"`
	Error                *responseError    `json:"error"`
	FrequencyPenalty     json.Number       `json:"frequency_penalty"`
	IncompleteDetails    json.RawMessage   `json:"incomplete_details"`
	Instructions         *string           `json:"instructions"`
	MaxOutputTokens      json.RawMessage   `json:"max_output_tokens"`
	MaxToolCalls         json.RawMessage   `json:"max_tool_calls"`
	Model                string            `json:"model"`
	Output               []json.RawMessage `json:"output"`
	ParallelToolCalls    bool              `json:"parallel_tool_calls"`
	PresencePenalty      json.Number       `json:"presence_penalty"`
	PreviousResponseID   *string           `json:"previous_response_id"`
	PromptCacheKey       json.RawMessage   `json:"prompt_cache_key"`
	PromptCacheRetention json.RawMessage   `json:"prompt_cache_retention"`
	Reasoning            reasoningConfig   `json:"reasoning"`
	SafetyIdentifier     json.RawMessage   `json:"safety_identifier"`
	ServiceTier          string            `json:"service_tier"`
	Store                bool              `json:"store"`
	Temperature          json.Number       `json:"temperature"`
	Text                 textConfig        `json:"text"`
	ToolChoice           string            `json:"tool_choice"`
	Tools                []json.RawMessage `json:"tools"`
	TopLogprobs          int               `json:"top_logprobs"`
	TopP                 json.Number       `json:"top_p"`
	Truncation           string            `json:"truncation"`
	Usage                *usage            `json:"usage"`
	User                 json.RawMessage   `json:"user"`
	Metadata             struct{}          `json:"metadata"`
}

type responseError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type reasoningConfig struct {
	Effort  *string `json:"effort"`
	Summary *string `json:"summary"`
}

type textConfig struct {
	Format struct {
		Type string `json:"type"`
	} `json:"format"`
	Verbosity string `json:"verbosity"`
}

type usage struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int `json:"total_tokens"`
}

// errorEvent is the payload of the stream's "error" event.
type errorEvent struct {
	Type    string          `json:"type"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Param   json.RawMessage `json:"param"`
}

// Output items, one struct per item type.

type reasoningItem struct {
	ID               string        `json:"id"`
	Type             string        `json:"type"`
	EncryptedContent string        `json:"encrypted_content,omitempty"`
	Summary          []summaryPart `json:"summary"`
}

type summaryPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type messageItem struct {
	ID      string       `json:"id"`
	Type    string       `json:"type"`
	Status  string       `json:"status"`
	Content []outputText `json:"content"`
	Role    string       `json:"role"`
}

type outputText struct {
	Type        string       `json:"type"`
	Annotations []annotation `json:"annotations"`
	Logprobs    []struct{}   `json:"logprobs"`
	Text        string       `json:"text"`
}

// annotation is a url_citation; indexes count characters (code points).
type annotation struct {
	Type       string `json:"type"`
	EndIndex   int    `json:"end_index"`
	StartIndex int    `json:"start_index"`
	Title      string `json:"title"`
	URL        string `json:"url"`
}

type functionCallItem struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	Arguments string `json:"arguments"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
}

type webSearchItem struct {
	ID     string           `json:"id"`
	Type   string           `json:"type"`
	Status string           `json:"status"`
	Action *webSearchAction `json:"action,omitempty"`
}

type webSearchAction struct {
	Type    string      `json:"type"`
	Query   string      `json:"query"`
	Sources []urlSource `json:"sources"`
}

type urlSource struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type mcpListToolsItem struct {
	ID          string    `json:"id"`
	Type        string    `json:"type"`
	ServerLabel string    `json:"server_label"`
	Tools       []mcpTool `json:"tools"`
}

// mcpTool is one tool a hosted MCP server lists; InputSchema is JSON Schema.
type mcpTool struct {
	Annotations struct {
		ReadOnly bool `json:"read_only"`
	} `json:"annotations"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Name        string          `json:"name"`
}

type mcpCallItem struct {
	ID                string          `json:"id"`
	Type              string          `json:"type"`
	Status            string          `json:"status"`
	ApprovalRequestID *string         `json:"approval_request_id"`
	Arguments         string          `json:"arguments"`
	Error             json.RawMessage `json:"error"`
	Name              string          `json:"name"`
	Output            *string         `json:"output"`
	ServerLabel       string          `json:"server_label"`
}

type mcpApprovalItem struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Arguments   string `json:"arguments"`
	Name        string `json:"name"`
	ServerLabel string `json:"server_label"`
}
