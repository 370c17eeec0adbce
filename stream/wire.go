package stream

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ErrorInfo is an error as the API reports it: in an `error` event, or in a
// failed response's `error` field.
type ErrorInfo struct {
	Type    string `json:"type,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Param   string `json:"param,omitempty"`
}

// Line is the error as one sanitized line: "code: message".
func (e *ErrorInfo) Line() string {
	msg := e.Message
	if e.Code != "" {
		msg = e.Code + ": " + msg
	}
	return SanitizeLine(msg)
}

// Usage is a response's token accounting.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	TotalTokens  int64 `json:"total_tokens"`
	InputDetails *struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"input_tokens_details,omitempty"`
	OutputDetails *struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details,omitempty"`
}

// Part is one content part of a message or reasoning item, or one summary part
// of a reasoning item. Refusal parts keep their text in Text.
type Part struct {
	Type        string            // output_text, refusal, reasoning_text, summary_text, …
	Text        string            // the part's text (or refusal)
	Annotations []json.RawMessage // as received, indexed by annotation_index
	Raw         json.RawMessage   // the part as last received whole, nil if only streamed
	sb          *strings.Builder  // backing store while Text grows by deltas
	rep         repeat            // how far deltas repeated a Text a whole copy set (textbuf.go)
	got         int               // bytes its deltas added, kept or dropped (Accumulator.DropText)
}

type wirePart struct {
	Type        string            `json:"type"`
	Text        *string           `json:"text"`
	Refusal     *string           `json:"refusal"`
	Transcript  *string           `json:"transcript"` // an audio part's text
	Annotations []json.RawMessage `json:"annotations"`
}

func decodePart(raw json.RawMessage) (Part, error) {
	var w wirePart
	if err := json.Unmarshal(raw, &w); err != nil {
		return Part{}, err
	}
	return w.part(raw), nil
}

// part is the Part w decodes to, raw its JSON.
func (w *wirePart) part(raw json.RawMessage) Part {
	p := Part{Type: w.Type, Annotations: w.Annotations, Raw: raw}
	switch {
	case w.Text != nil:
		p.Text = *w.Text
	case w.Refusal != nil:
		p.Text = *w.Refusal
	case w.Transcript != nil:
		p.Text = *w.Transcript
	}
	return p
}

// wireItem is the subset of an output item's fields that runnel reads. Every
// item also keeps its raw JSON (Item.Raw) so it can be sent back unchanged.
type wireItem struct {
	Type              string            `json:"type"`
	ID                string            `json:"id"`
	Status            string            `json:"status"`
	Role              string            `json:"role"`
	Phase             string            `json:"phase"`
	Content           []json.RawMessage `json:"content"`
	Summary           []json.RawMessage `json:"summary"`
	Name              string            `json:"name"`
	Arguments         flexString        `json:"arguments"` // a string, or an object (tool_search_call)
	CallID            string            `json:"call_id"`
	Input             flexString        `json:"input"`
	Code              flexString        `json:"code"`
	ServerLabel       string            `json:"server_label"`
	ApprovalRequestID string            `json:"approval_request_id"`
	Output            json.RawMessage   `json:"output"`
	Error             json.RawMessage   `json:"error"`
}

// Response is a response object as the API sends it in lifecycle events.
// Output items are kept raw; the Accumulator decodes them.
//
// Previous and Store are what the server echoes of the request's state: a
// server that keeps none answers previous_response_id null (Ollama), leaves
// it out (llama.cpp) or says store: false.
type Response struct {
	ID                 string            `json:"id"`
	Status             string            `json:"status"`
	Model              string            `json:"model"`
	PreviousResponseID string            `json:"-"` // Previous.Value
	Previous           Echo              `json:"previous_response_id"`
	Store              *bool             `json:"store"` // nil when absent or null
	Output             []json.RawMessage `json:"output"`
	Usage              *Usage            `json:"usage"`
	Error              *ErrorInfo        `json:"error"`
	IncompleteDetails  json.RawMessage   `json:"incomplete_details"`
	ServiceTier        string            `json:"service_tier"` // the tier the server used (or, at first, was asked for)
	Raw                json.RawMessage   `json:"-"`
}

func decodeResponse(raw json.RawMessage) (*Response, error) {
	r := &Response{Raw: raw}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, err
	}
	r.settle()
	return r, nil
}

// settle derives what a Response's decoded JSON fields imply.
func (r *Response) settle() {
	r.PreviousResponseID = r.Previous.Value
	if isJSONNull(r.IncompleteDetails) {
		r.IncompleteDetails = nil
	}
}

func isJSONNull(b json.RawMessage) bool {
	return len(b) == 0 || bytes.Equal(bytes.TrimSpace(b), []byte("null"))
}

// Echo is a string field as a server echoed it: absent (Set false), null or
// not a string (Set, Value ""), or a string.
type Echo struct {
	Value string
	Set   bool
}

// UnmarshalJSON records that the field was present; a value that is not a
// string reads as null rather than failing the whole response.
func (e *Echo) UnmarshalJSON(b []byte) error {
	e.Set = true
	var s string
	if json.Unmarshal(b, &s) == nil {
		e.Value = s
	}
	return nil
}
