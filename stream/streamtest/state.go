package streamtest

// This file is the server's stateful mode (Server.Stateful): it keeps the
// responses it serves, as OpenAI does, so tests can exercise chaining,
// store = false, context limits and compaction against something that
// remembers. Each stored response keeps the events it was served with and
// their sequence numbers, so a resume that starts after a sequence number
// can be served from it.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// StateOptions configure the stateful mode.
type StateOptions struct {
	// ContextWindow > 0 refuses, with the 400 context_length_exceeded
	// OpenAI sends, a POST /v1/responses whose context (the chain's, then
	// its input) is larger than this many tokens (estimated as JSON bytes /
	// 4). /responses/compact takes any size.
	ContextWindow int
	// NoCompact answers POST /v1/responses/compact with the 404 of a
	// server that does not know it.
	NoCompact bool
	// Background options (see background.go).
	RejectBackground bool // a request with background: true gets a 400 naming the parameter
	NoResume         bool // GET /v1/responses/{id}?stream=true gets a 405
	// PollsBeforeDone: GET /v1/responses/{id} reports a background response
	// in_progress this many times before its final object.
	PollsBeforeDone int
	// RunUntilStreamed: GET /v1/responses/{id} reports a background response
	// in_progress until a stream (the POST's or a resumed one) has served
	// its last event; without it the response finishes at once, whatever
	// its stream does.
	RunUntilStreamed bool
	// ResumeDropAfter > 0 drops each resumed stream after that many events;
	// < 0 hangs up on every resume before answering.
	ResumeDropAfter int
	// ResumeRepeat > 0 starts each resumed stream that many events before
	// starting_after: a server that repeats what the client already has.
	ResumeRepeat int
	// NoConversations answers /v1/conversations with the 404 of a server
	// that does not know it (conversations.go).
	NoConversations bool
}

// Stored is a response the stateful server served.
type Stored struct {
	ID     string
	Status string // the last status its events gave: in_progress, completed, incomplete, failed
	Store  bool   // the request did not set store: false; only stored responses can be chained to
	// Context is what a request chaining to this response continues from:
	// the chain's context, the request's input and the response's output;
	// from the output's compaction item on when the output has one.
	Context []json.RawMessage
	Output  []json.RawMessage // the output items, from the terminal event (else the done items)
	Events  []StoredEvent     // as served (up to where the stream was dropped or stalled)

	// Background responses run on the server whatever the stream does: All
	// is every event of the response (Events is what the POST served),
	// Final its terminal response object; Cancelled is set by a cancel.
	Background bool
	All        []StoredEvent
	Final      json.RawMessage
	Cancelled  bool
	Streamed   bool // a stream served its last event
	polls      int  // GET /v1/responses/{id} answered so far
}

// StoredEvent is one served event.
type StoredEvent struct {
	Seq  int    // its sequence_number, -1 when it had none
	Type string // its type
	Raw  []byte // the SSE bytes sent
}

// state is the stateful mode's memory, guarded by Server.mu.
type state struct {
	opts      StateOptions
	responses map[string]*Stored
	convs     map[string]*Conversation // server-side conversations, by id (conversations.go)
	next      int                      // for generated ids
}

// Stateful switches the server to stateful mode: POST /v1/responses checks
// previous_response_id against the responses it served (an unknown or
// unstored one gets OpenAI's 400 "Previous response with id '…' not
// found."), applies opts.ContextWindow, and records what it serves, reading
// the response id and output from the stream itself, queued fixtures
// included. With the queue and handler empty it generates a reply: a short
// answer naming the prompt, followed by a compaction item when the request's
// context_management threshold is passed. POST /v1/responses/compact
// compacts a chain or an input into the user messages and one compaction
// item. The queue, handler and fault replies work as before.
func (s *Server) Stateful(opts StateOptions) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = &state{opts: opts, responses: map[string]*Stored{}, convs: map[string]*Conversation{}}
	return s
}

// Response returns a response the stateful server served, by id.
func (s *Server) Response(id string) (Stored, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		return Stored{}, false
	}
	r, ok := s.state.responses[id]
	if !ok {
		return Stored{}, false
	}
	return *r, true
}

// requestBody is what the stateful mode reads of a request.
type requestBody struct {
	Model              string          `json:"model"`
	Input              json.RawMessage `json:"input"`
	PreviousResponseID string          `json:"previous_response_id"`
	Conversation       json.RawMessage `json:"conversation"` // an id, or {"id": …}
	Store              *bool           `json:"store"`
	Background         bool            `json:"background"`
	ContextManagement  []struct {
		Type             string `json:"type"`
		CompactThreshold int    `json:"compact_threshold"`
	} `json:"context_management"`
}

// items returns the input as items: a string is one user message.
func (b requestBody) items() ([]json.RawMessage, error) {
	in := bytes.TrimSpace(b.Input)
	if len(in) == 0 || string(in) == "null" {
		return nil, nil
	}
	if in[0] == '"' {
		var text string
		if err := json.Unmarshal(in, &text); err != nil {
			return nil, err
		}
		return []json.RawMessage{userMessage(text)}, nil
	}
	var items []json.RawMessage
	err := json.Unmarshal(in, &items)
	return items, err
}

// statefulReply decides the reply to rec in stateful mode; ok is false when
// the request is not one the mode answers (the caller goes on as stateless).
// It runs with s.mu held.
func (s *Server) statefulReply(rec Recorded) (reply Reply, ok bool) {
	st := s.state
	if st == nil {
		return Reply{}, false
	}
	if strings.HasPrefix(rec.Path, "/v1/responses/") && rec.Path != "/v1/responses/compact" {
		return s.backgroundReply(rec), true
	}
	if rec.Path == "/v1/conversations" || strings.HasPrefix(rec.Path, "/v1/conversations/") {
		return s.conversationReply(rec), true
	}
	if rec.Method != http.MethodPost {
		return Reply{}, false
	}
	switch rec.Path {
	case "/v1/responses", "/v1/responses/compact":
	default:
		return Reply{}, false
	}
	var body requestBody
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		return jsonError(http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", ""), true
	}
	input, err := body.items()
	if err != nil {
		return jsonErrorParam(http.StatusBadRequest, "Invalid type for 'input': expected a string or an array of items.", "invalid_request_error", "invalid_type", "input"), true
	}
	compact := rec.Path == "/v1/responses/compact"
	if !compact && body.Background && st.opts.RejectBackground {
		return jsonErrorParam(http.StatusBadRequest, "Unsupported parameter: 'background' is not supported with this model.", "invalid_request_error", "unsupported_parameter", "background"), true
	}
	if compact && st.opts.NoCompact {
		return jsonError(http.StatusNotFound, "Invalid URL (POST /v1/responses/compact)", "invalid_request_error", ""), true
	}
	if body.Model == "" {
		return jsonErrorParam(http.StatusBadRequest, "Missing required parameter: 'model'.", "invalid_request_error", "missing_required_parameter", "model"), true
	}
	var context []json.RawMessage
	conv, bad, named := s.requestConversation(body)
	if named && bad != nil {
		return *bad, true
	}
	if conv != nil {
		context = append(context, conv.Items...)
	}
	if id := body.PreviousResponseID; id != "" {
		prev, found := st.responses[id]
		if !found || !prev.Store {
			return PreviousResponseNotFound(id), true
		}
		context = append(context, prev.Context...)
	}
	context = append(context, input...)
	tokens := estimateTokens(context)
	if w := st.opts.ContextWindow; w > 0 && tokens > w && !compact {
		return ContextLengthExceeded(), true
	}
	if compact {
		return s.compactReply(context, tokens), true
	}

	if len(s.queue) > 0 {
		reply = s.queue[0]
		s.queue[0] = Reply{}
		s.queue = s.queue[1:]
	} else if s.handler != nil {
		h := s.handler
		s.mu.Unlock() // the handler may call back into the server
		reply = h(rec)
		s.mu.Lock()
	} else {
		reply = s.generate(body, context, tokens)
	}
	if r := s.remember(reply, body, context); r != nil && conv != nil {
		conv.add(input, r.Output)
	}
	return reply, true
}

// generate is the reply when nothing was queued: an answer naming the
// prompt, and a compaction item after it when the context passes the
// request's compact_threshold.
func (s *Server) generate(body requestBody, context []json.RawMessage, tokens int) Reply {
	st := s.state
	st.next++
	id := fmt.Sprintf("resp_st%04d", st.next)
	prompt := lastUserText(context)
	if r := []rune(prompt); len(r) > 60 {
		prompt = string(r[:60]) + "…"
	}
	answer := fmt.Sprintf("Answer %d to %q: the context held %d tokens.", st.next, prompt, tokens)
	threshold := 0
	for _, cm := range body.ContextManagement {
		if cm.Type == "compaction" {
			threshold = cm.CompactThreshold
		}
	}
	var extra []map[string]any
	if threshold > 0 && tokens > threshold {
		extra = append(extra, compactionItem(fmt.Sprintf("cmp_st%04d", st.next), len(context), tokens))
	}
	return Reply{SSE: textStream(id, tokens, extra, strings.SplitAfter(answer, " ")...)}
}

// compactReply answers /responses/compact: the context's user messages,
// then one compaction item standing for everything else.
func (s *Server) compactReply(context []json.RawMessage, tokens int) Reply {
	st := s.state
	st.next++
	var out []json.RawMessage
	for _, it := range context {
		if isUserMessage(it) {
			out = append(out, it)
		}
	}
	cmp, _ := json.Marshal(compactionItem(fmt.Sprintf("cmp_st%04d", st.next), len(context), tokens))
	out = append(out, cmp)
	after := estimateTokens(out)
	body, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("resp_st%04d", st.next), "object": "response.compaction", "created_at": 1700000000,
		"output": out,
		"usage": map[string]any{"input_tokens": tokens, "output_tokens": after, "total_tokens": tokens + after,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	})
	return Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
}

// remember stores the response reply serves, read from its events: those
// sent before a drop or stall count. It returns what it stored, nil for
// nothing (no response id, an error reply).
func (s *Server) remember(reply Reply, body requestBody, context []json.RawMessage) *Stored {
	sse := reply.SSE
	if reply.File != "" {
		sse = readFileOrNil(reply.File)
	}
	if sse == nil || (reply.Status != 0 && reply.Status != http.StatusOK) {
		return nil
	}
	events := SplitEvents(sse)
	served := len(events)
	if n := max(reply.DropAfter, reply.StallAfter); n > 0 && n < len(events) {
		served = n
	}
	if !body.Background {
		events = events[:served]
	}
	r := &Stored{Store: body.Store == nil || *body.Store, Background: body.Background}
	var done []json.RawMessage
	for _, ev := range events {
		data := eventData(ev)
		var e struct {
			Type     string `json:"type"`
			Seq      *int   `json:"sequence_number"`
			Item     json.RawMessage
			Response *struct {
				ID     string            `json:"id"`
				Status string            `json:"status"`
				Output []json.RawMessage `json:"output"`
			} `json:"response"`
		}
		if json.Unmarshal(data, &e) != nil {
			r.Events = append(r.Events, StoredEvent{Seq: -1, Raw: ev})
			continue
		}
		seq := -1
		if e.Seq != nil {
			seq = *e.Seq
		}
		r.Events = append(r.Events, StoredEvent{Seq: seq, Type: e.Type, Raw: ev})
		if e.Response != nil {
			if e.Response.ID != "" {
				r.ID = e.Response.ID
			}
			if e.Response.Status != "" {
				r.Status = e.Response.Status
			}
			if e.Type == "response.completed" || e.Type == "response.incomplete" || e.Type == "response.failed" {
				r.Output = e.Response.Output
				r.Final = terminalObject(data)
			}
		}
		if e.Type == "response.output_item.done" && len(e.Item) > 0 {
			done = append(done, e.Item)
		}
	}
	if r.ID == "" {
		return nil
	}
	if r.Background {
		r.All, r.Events = r.Events, r.Events[:min(served, len(r.Events))]
		r.Streamed = len(r.Events) == len(r.All)
	}
	if r.Output == nil {
		r.Output = done
	}
	r.Context = append(append([]json.RawMessage(nil), context...), r.Output...)
	if out := fromLastCompaction(r.Output); len(out) < len(r.Output) || (len(out) > 0 && itemType(out[0]) == "compaction") {
		r.Context = out // a compaction in the output stands for everything before it
	}
	if r.Status != "completed" && r.Status != "incomplete" {
		r.Store = false // nothing can chain to a response that did not finish
	}
	s.state.responses[r.ID] = r
	return r
}

// eventData joins an event's data lines.
func eventData(ev []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(ev, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			out = append(out, bytes.TrimPrefix(v, []byte(" ")))
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// fromLastCompaction drops what comes before the newest compaction item:
// the item stands for it.
func fromLastCompaction(items []json.RawMessage) []json.RawMessage {
	for i := len(items) - 1; i >= 0; i-- {
		if itemType(items[i]) == "compaction" {
			return items[i:]
		}
	}
	return items
}

func itemType(raw json.RawMessage) string {
	var f struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.Type
}

func isUserMessage(raw json.RawMessage) bool {
	var f struct {
		Type string `json:"type"`
		Role string `json:"role"`
	}
	_ = json.Unmarshal(raw, &f)
	return (f.Type == "message" || f.Type == "") && f.Role == "user"
}

// lastUserText is the text of the newest user message.
func lastUserText(items []json.RawMessage) string {
	for i := len(items) - 1; i >= 0; i-- {
		if !isUserMessage(items[i]) {
			continue
		}
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(items[i], &m)
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			return text
		}
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

// estimateTokens is the JSON size of items / 4, as a rough token count.
func estimateTokens(items []json.RawMessage) int {
	n := 0
	for _, it := range items {
		n += utf8.RuneCount(it)
	}
	return n / 4
}

func userMessage(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"type": "message", "role": "user",
		"content": []map[string]string{{"type": "input_text", "text": text}}})
	return b
}

// compactionItem is an opaque compaction item; its content says what it
// stands for, encoded as base64 like the real one's ciphertext.
func compactionItem(id string, items, tokens int) map[string]any {
	note := fmt.Sprintf("streamtest compaction of %d items, %d tokens", items, tokens)
	return map[string]any{"id": id, "type": "compaction", "encrypted_content": base64.StdEncoding.EncodeToString([]byte(note))}
}
