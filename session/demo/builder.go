package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// event is one SSE event, encoded, with the pause that precedes it.
type event struct {
	name string        // the SSE "event:" field, equal to the payload's type
	data []byte        // the JSON payload: "type" first, other keys sorted
	wait time.Duration // pause before this event at Speed 1
}

// builder turns script steps into a well-formed Responses event sequence. Each
// step (reasoning, message, function call, ...) emits the item's full
// lifecycle: output_item.added, its own events, output_item.done.
//
// Invariants:
//   - seq is the sequence_number of the next event; events[i] carries i.
//   - next is the output_index the next item gets; items are done in order, so
//     resp.Output[i] is the item done at output_index i.
//   - wait is the pause owed before the next event; emit resets it to 0.
//   - The first two events are response.created and response.in_progress;
//     the last is response.completed or response.failed (then finished is set).
type builder struct {
	resp     response
	events   []event
	seq      int
	next     int
	wait     time.Duration
	total    time.Duration // sum of all waits, for completed_at
	n        int           // response number, for ids
	speed    float64       // pacing divisor for completed_at; 0 = instant
	encrypt  bool          // reasoning items carry encrypted_content
	obf      *obfuscator
	finished bool

	inputTokens, cachedTokens int
	outputRunes               int // text, arguments and summaries streamed
	reasoningTokens           int
}

// cite marks a span of a message as a url_citation. Span must occur in the
// message text; the annotation covers its first occurrence.
type cite struct {
	span, title, url string
}

// start emits response.created and response.in_progress.
func (b *builder) start() {
	b.resp.Status = "in_progress"
	b.resp.Output = []json.RawMessage{}
	b.emit("response.created", fields{"response": b.resp})
	b.emit("response.in_progress", fields{"response": b.resp})
	b.pause(thinkingPause)
}

// fields is one event's payload minus "type" and "sequence_number".
type fields map[string]any

// emit appends one event. Keys after "type" are sorted, as in current
// OpenAI streams; the payload is encoded now, so later changes to b.resp do
// not leak into earlier snapshots.
func (b *builder) emit(typ string, f fields) {
	if b.finished {
		panic("demo: event after the terminal event") // script bug
	}
	f["sequence_number"] = b.seq
	body := encode(f)
	data := make([]byte, 0, len(body)+len(typ)+12)
	data = append(data, `{"type":`...)
	data = append(data, encode(typ)...)
	data = append(data, ',')
	data = append(data, body[1:]...)
	b.events = append(b.events, event{name: typ, data: data, wait: b.wait})
	b.total += b.wait
	b.wait = 0
	b.seq++
}

// pause adds d to the wait before the next event.
func (b *builder) pause(d time.Duration) { b.wait += d }

// id names the item that will take the next output index.
func (b *builder) id(prefix string) string {
	return fmt.Sprintf("%s_demo_%d_%d", prefix, b.n, b.next)
}

func (b *builder) added(item any) int {
	index := b.next
	b.next++
	b.pause(itemGap)
	b.emit("response.output_item.added", fields{"item": item, "output_index": index})
	return index
}

func (b *builder) done(index int, item any) {
	raw := json.RawMessage(encode(item))
	b.emit("response.output_item.done", fields{"item": raw, "output_index": index})
	b.resp.Output = append(b.resp.Output, raw)
}

// deltas streams text as token-sized deltas of event typ; base holds the
// event's other fields. after, if set, runs after each delta with the number
// of characters sent so far.
func (b *builder) deltas(typ string, base fields, text string, after func(sent int)) {
	sent := 0
	for _, c := range chunks(text) {
		f := fields{"delta": c, "obfuscation": b.obf.pad(c)}
		for k, v := range base {
			f[k] = v
		}
		b.pause(deltaGap(b.seq))
		b.emit(typ, f)
		sent += utf8.RuneCountInString(c)
		if after != nil {
			after(sent)
		}
	}
	b.outputRunes += utf8.RuneCountInString(text)
}

// reasoning emits a reasoning item whose summary streams part by part.
func (b *builder) reasoning(parts ...string) {
	item := reasoningItem{ID: b.id("rs"), Type: "reasoning", Summary: []summaryPart{}}
	if b.encrypt {
		item.EncryptedContent = fakeEncrypted(b.n, b.next)
	}
	index := b.added(item)
	b.reasoningTokens += 64 // thinking that the summary does not show
	for i, text := range parts {
		if i > 0 {
			b.pause(thinkingPause / 2)
		}
		part := fields{"item_id": item.ID, "output_index": index, "summary_index": i}
		b.emit("response.reasoning_summary_part.added", with(part, "part", summaryPart{"summary_text", ""}))
		b.deltas("response.reasoning_summary_text.delta", part, text, nil)
		b.emit("response.reasoning_summary_text.done", with(part, "text", text))
		b.emit("response.reasoning_summary_part.done", with(part, "part", summaryPart{"summary_text", text}))
		item.Summary = append(item.Summary, summaryPart{"summary_text", text})
		b.reasoningTokens += 40 + utf8.RuneCountInString(text)/2
	}
	b.done(index, item)
}

// message emits an assistant message with one output_text part.
func (b *builder) message(text string, cites ...cite) {
	id, index := b.openMessage()
	part := outputText{Type: "output_text", Annotations: []annotation{}, Logprobs: []struct{}{}, Text: text}
	var pending []annotation
	for _, c := range cites {
		start := strings.Index(text, c.span)
		if start < 0 {
			panic("demo: citation span not in message: " + c.span) // script bug
		}
		s := utf8.RuneCountInString(text[:start])
		pending = append(pending, annotation{Type: "url_citation", StartIndex: s,
			EndIndex: s + utf8.RuneCountInString(c.span), Title: c.title, URL: c.url})
	}
	at := fields{"content_index": 0, "item_id": id, "output_index": index}
	b.deltas("response.output_text.delta", with(at, "logprobs", []struct{}{}), text, func(sent int) {
		for len(pending) > 0 && pending[0].EndIndex <= sent {
			f := with(at, "annotation", pending[0])
			f["annotation_index"] = len(part.Annotations)
			b.emit("response.output_text.annotation.added", f)
			part.Annotations = append(part.Annotations, pending[0])
			pending = pending[1:]
		}
	})
	b.emit("response.output_text.done", with(with(at, "logprobs", []struct{}{}), "text", text))
	b.emit("response.content_part.done", with(at, "part", part))
	b.done(index, messageItem{ID: id, Type: "message", Status: "completed", Content: []outputText{part}, Role: "assistant"})
}

// partialMessage streams text into a message that never finishes, as when
// the server fails mid-answer.
func (b *builder) partialMessage(text string) {
	id, index := b.openMessage()
	at := fields{"content_index": 0, "item_id": id, "output_index": index, "logprobs": []struct{}{}}
	b.deltas("response.output_text.delta", at, text, nil)
}

func (b *builder) openMessage() (id string, index int) {
	id = b.id("msg")
	index = b.added(messageItem{ID: id, Type: "message", Status: "in_progress", Content: []outputText{}, Role: "assistant"})
	b.emit("response.content_part.added", fields{"content_index": 0, "item_id": id, "output_index": index,
		"part": outputText{Type: "output_text", Annotations: []annotation{}, Logprobs: []struct{}{}, Text: ""}})
	return id, index
}

// functionCall emits a function_call whose arguments stream as deltas.
func (b *builder) functionCall(name, args string) {
	item := functionCallItem{ID: b.id("fc"), Type: "function_call", Status: "in_progress",
		CallID: fmt.Sprintf("call_demo_%d_%d", b.n, b.next), Name: name}
	index := b.added(item)
	at := fields{"item_id": item.ID, "output_index": index}
	b.deltas("response.function_call_arguments.delta", at, args, nil)
	b.emit("response.function_call_arguments.done", with(at, "arguments", args))
	item.Status, item.Arguments = "completed", args
	b.done(index, item)
}

// webSearch emits a hosted web_search_call that finds sources.
func (b *builder) webSearch(query string, urls ...string) {
	item := webSearchItem{ID: b.id("ws"), Type: "web_search_call", Status: "in_progress"}
	index := b.added(item)
	at := fields{"item_id": item.ID, "output_index": index}
	b.emit("response.web_search_call.in_progress", copyFields(at))
	b.pause(itemGap)
	b.emit("response.web_search_call.searching", copyFields(at))
	b.pause(toolPause)
	b.emit("response.web_search_call.completed", copyFields(at))
	sources := make([]urlSource, 0, len(urls))
	for _, u := range urls {
		sources = append(sources, urlSource{Type: "url", URL: u})
	}
	item.Status = "completed"
	item.Action = &webSearchAction{Type: "search", Query: query, Sources: sources}
	b.done(index, item)
}

// mcpListTools emits the mcp_list_tools item a hosted MCP server starts with.
func (b *builder) mcpListTools(server string, tools []mcpTool) {
	item := mcpListToolsItem{ID: b.id("mcpl"), Type: "mcp_list_tools", ServerLabel: server, Tools: []mcpTool{}}
	index := b.added(item)
	at := fields{"item_id": item.ID, "output_index": index}
	b.emit("response.mcp_list_tools.in_progress", copyFields(at))
	b.pause(toolPause / 3)
	b.emit("response.mcp_list_tools.completed", copyFields(at))
	item.Tools = tools
	b.done(index, item)
}

// mcpCall emits a hosted MCP tool call; approvalID is "" unless the call
// follows an approval.
func (b *builder) mcpCall(server, name, args, output, approvalID string) {
	item := mcpCallItem{ID: b.id("mcp"), Type: "mcp_call", Status: "in_progress", Name: name, ServerLabel: server}
	if approvalID != "" {
		item.ApprovalRequestID = &approvalID
	}
	index := b.added(item)
	at := fields{"item_id": item.ID, "output_index": index}
	b.emit("response.mcp_call.in_progress", copyFields(at))
	b.pause(deltaGap(b.seq))
	b.emit("response.mcp_call_arguments.delta", with(with(at, "delta", args), "obfuscation", b.obf.pad(args)))
	b.emit("response.mcp_call_arguments.done", with(at, "arguments", args))
	b.pause(toolPause)
	b.emit("response.mcp_call.completed", copyFields(at))
	b.outputRunes += utf8.RuneCountInString(args)
	item.Status, item.Arguments, item.Output = "completed", args, &output
	b.done(index, item)
}

// approvalRequest emits an mcp_approval_request and returns its id.
func (b *builder) approvalRequest(server, name, args string) string {
	item := mcpApprovalItem{ID: b.id("mcpr"), Type: "mcp_approval_request", Arguments: args, Name: name, ServerLabel: server}
	index := b.added(item)
	b.outputRunes += utf8.RuneCountInString(args)
	b.done(index, item)
	return item.ID
}

// complete ends the response successfully.
func (b *builder) complete() {
	b.resp.Status = "completed"
	done := b.resp.CreatedAt + b.elapsedSeconds()
	b.resp.CompletedAt = &done
	u := &usage{InputTokens: b.inputTokens, OutputTokens: b.outputRunes/4 + b.reasoningTokens}
	u.InputTokensDetails.CachedTokens = b.cachedTokens
	u.OutputTokensDetails.ReasoningTokens = b.reasoningTokens
	u.TotalTokens = u.InputTokens + u.OutputTokens
	b.resp.Usage = u
	b.emit("response.completed", fields{"response": b.resp})
	b.finished = true
}

// fail ends the response with an error event and response.failed.
func (b *builder) fail(code, message string) {
	b.pause(toolPause / 3)
	b.emit("error", fields{"error": errorEvent{Type: code, Code: code, Message: message, Param: json.RawMessage("null")}})
	b.resp.Status = "failed"
	b.resp.Error = &responseError{Code: code, Message: message}
	b.emit("response.failed", fields{"response": b.resp})
	b.finished = true
}

func (b *builder) elapsedSeconds() int64 {
	if b.speed <= 0 {
		return 0
	}
	return int64((float64(b.total)/b.speed + float64(time.Second) - 1) / float64(time.Second))
}

// with returns a copy of f with one more key.
func with(f fields, k string, v any) fields {
	g := copyFields(f)
	g[k] = v
	return g
}

func copyFields(f fields) fields {
	g := make(fields, len(f)+2)
	for k, v := range f {
		g[k] = v
	}
	return g
}

// encode is json.Marshal without HTML escaping (servers send "<" as is) and
// without the trailing newline. Every value here is the package's own type,
// so an error is a programming bug.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("demo: encode: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// fakeEncrypted stands in for reasoning encrypted_content: opaque,
// base64-looking, deterministic.
func fakeEncrypted(n, index int) string {
	return fmt.Sprintf("gAAAAABdemo%04dx%02d", n, index) + strings.Repeat("RGVtbyByZWFzb25pbmcgaXMgbm90IGVuY3J5cHRlZC4", 3)
}
