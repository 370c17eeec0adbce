package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"runnel/stream"
)

// sseEvent is one parsed SSE event: the "event:" name, the raw "data:"
// payload and the payload decoded as generic JSON.
type sseEvent struct {
	name string
	raw  string
	data map[string]any
}

func (e sseEvent) typ() string { return e.data["type"].(string) }

func (e sseEvent) str(k string) string { s, _ := e.data[k].(string); return s }

func (e sseEvent) num(k string) int {
	f, ok := e.data[k].(float64)
	if !ok {
		return -1
	}
	return int(f)
}

func (e sseEvent) obj(k string) map[string]any { m, _ := e.data[k].(map[string]any); return m }

// parseSSE splits a stream on blank lines and decodes each event; every
// event must have exactly one "event:" line and one "data:" line holding a
// JSON object with a "type" equal to the event name.
func parseSSE(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	text := string(body)
	if !strings.HasSuffix(text, "\n\n") {
		t.Fatalf("stream does not end with a blank line: %q", tail(text))
	}
	var out []sseEvent
	for i, block := range strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n") {
		var e sseEvent
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				e.raw = strings.TrimPrefix(line, "data: ")
			default:
				t.Fatalf("event %d: unexpected line %q", i, line)
			}
		}
		if err := json.Unmarshal([]byte(e.raw), &e.data); err != nil {
			t.Fatalf("event %d: data is not a JSON object: %v\n%s", i, err, e.raw)
		}
		typ, _ := e.data["type"].(string)
		if typ == "" || typ != e.name {
			t.Fatalf("event %d: type %q, event name %q", i, typ, e.name)
		}
		if !strings.HasPrefix(e.raw, `{"type":`) {
			t.Fatalf("event %d: payload does not start with its type: %.40s", i, e.raw)
		}
		out = append(out, e)
	}
	return out
}

func tail(s string) string {
	if len(s) > 60 {
		return s[len(s)-60:]
	}
	return s
}

// checkStream asserts the structural invariants every real Responses stream
// keeps, and returns the terminal event.
func checkStream(t *testing.T, evs []sseEvent) sseEvent {
	t.Helper()
	if len(evs) < 3 || evs[0].typ() != "response.created" || evs[1].typ() != "response.in_progress" {
		t.Fatalf("stream must open with response.created, response.in_progress; got %d events", len(evs))
	}
	id := evs[0].obj("response")["id"]
	open := map[int]map[string]any{} // output_index → added item
	var doneItems []any
	deltas := map[string]string{} // text key → concatenated deltas
	last := evs[len(evs)-1]
	for i, e := range evs {
		if got := e.num("sequence_number"); got != i {
			t.Fatalf("event %d (%s): sequence_number %d", i, e.typ(), got)
		}
		if r := e.obj("response"); r != nil && r["id"] != id {
			t.Fatalf("event %d: response id %v, want %v", i, r["id"], id)
		}
		typ := e.typ()
		if i > 1 && (typ == "response.created" || typ == "response.in_progress") {
			t.Fatalf("event %d: %s after the start", i, typ)
		}
		if (typ == "response.completed" || typ == "response.failed") && i != len(evs)-1 {
			t.Fatalf("event %d: %s is not last", i, typ)
		}
		idx := e.num("output_index")
		if itemID := e.str("item_id"); itemID != "" {
			if open[idx] == nil || open[idx]["id"] != itemID {
				t.Fatalf("event %d (%s): item %s at output_index %d is not open", i, typ, itemID, idx)
			}
		}
		switch {
		case typ == "response.output_item.added":
			if idx != len(doneItems)+len(open) {
				t.Fatalf("event %d: output_index %d out of order", i, idx)
			}
			open[idx] = e.obj("item")
		case typ == "response.output_item.done":
			added := open[idx]
			if added == nil {
				t.Fatalf("event %d: output_item.done for index %d without added", i, idx)
			}
			item := e.obj("item")
			if item["id"] != added["id"] || item["type"] != added["type"] {
				t.Fatalf("event %d: done item %v/%v differs from added %v/%v", i, item["id"], item["type"], added["id"], added["type"])
			}
			if idx != len(doneItems) {
				t.Fatalf("event %d: items finish out of order", i)
			}
			delete(open, idx)
			doneItems = append(doneItems, item)
		case strings.HasSuffix(typ, ".delta"):
			deltas[textKey(e)] += e.str("delta")
		case typ == "response.output_text.done", typ == "response.reasoning_summary_text.done":
			checkDone(t, i, deltas, e, e.str("text"))
		case typ == "response.function_call_arguments.done", typ == "response.mcp_call_arguments.done":
			checkDone(t, i, deltas, e, e.str("arguments"))
		case typ == "response.output_text.annotation.added":
			end, ok := e.obj("annotation")["end_index"].(float64)
			if ok && int(end) > utf8.RuneCountInString(deltas[textKey(e)]) {
				t.Fatalf("event %d: annotation ends at %v before its text arrived", i, end)
			}
		}
	}
	final := last.obj("response")
	output, _ := final["output"].([]any)
	switch last.typ() {
	case "response.completed":
		if len(open) != 0 {
			t.Fatalf("completed with %d items never done", len(open))
		}
		if final["status"] != "completed" || final["usage"] == nil {
			t.Fatalf("completed response: status %v, usage %v", final["status"], final["usage"])
		}
	case "response.failed":
		if evs[len(evs)-2].typ() != "error" {
			t.Fatalf("response.failed not preceded by an error event")
		}
		if final["status"] != "failed" || final["error"] == nil {
			t.Fatalf("failed response: status %v, error %v", final["status"], final["error"])
		}
	default:
		t.Fatalf("stream ends with %s", last.typ())
	}
	if !reflect.DeepEqual(output, doneItems) && !(len(output) == 0 && len(doneItems) == 0) {
		t.Fatalf("final output differs from the output_item.done items:\n%v\n%v", output, doneItems)
	}
	return last
}

// textKey names the text a delta or done event belongs to.
func textKey(e sseEvent) string {
	kind := strings.TrimSuffix(strings.TrimSuffix(e.typ(), ".delta"), ".done")
	kind = strings.TrimSuffix(kind, ".annotation.added")
	return fmt.Sprintf("%s/%s/%d/%d", kind, e.str("item_id"), e.num("content_index"), e.num("summary_index"))
}

func checkDone(t *testing.T, i int, deltas map[string]string, e sseEvent, want string) {
	t.Helper()
	if got := deltas[textKey(e)]; got != want {
		t.Fatalf("event %d (%s): deltas concatenate to\n%q\nbut done says\n%q", i, e.typ(), got, want)
	}
}

// Request helpers.

var testNow = func() time.Time { return time.Unix(1780000000, 0) }

func newTestProvider() *Provider { return New(Options{Now: testNow}) }

func requestBody(t *testing.T, r stream.Request) []byte {
	t.Helper()
	r.Stream = true
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func userRequest(t *testing.T, text string) []byte {
	return requestBody(t, stream.Request{Model: "gpt-5", Input: []json.RawMessage{stream.UserText(text)}})
}

// roundTrip posts body to path and returns the response, failing on error.
func roundTrip(t *testing.T, p *Provider, ctx context.Context, method, path string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, "http://demo.invalid"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.RoundTrip(req)
	if err != nil {
		t.Fatalf("RoundTrip: %v", err)
	}
	return resp
}

// post sends body to /v1/responses and returns the checked stream.
func post(t *testing.T, p *Provider, body []byte) []sseEvent {
	t.Helper()
	resp := roundTrip(t, p, context.Background(), http.MethodPost, "/v1/responses", body)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	evs := parseSSE(t, raw)
	checkStream(t, evs)
	return evs
}

// ask posts one user message and returns the checked stream.
func ask(t *testing.T, p *Provider, text string) []sseEvent {
	t.Helper()
	return post(t, p, userRequest(t, text))
}

// finalOutput returns the terminal response's output items.
func finalOutput(evs []sseEvent) []map[string]any {
	var items []map[string]any
	for _, it := range evs[len(evs)-1].obj("response")["output"].([]any) {
		items = append(items, it.(map[string]any))
	}
	return items
}

// itemTypes lists the types of the items a stream added, in order.
func itemTypes(evs []sseEvent) []string {
	var types []string
	for _, e := range evs {
		if e.typ() == "response.output_item.added" {
			types = append(types, e.obj("item")["type"].(string))
		}
	}
	return types
}

// showcaseOf names the showcase a stream played, from its item types.
func showcaseOf(evs []sseEvent) string {
	types := strings.Join(itemTypes(evs), ",")
	switch {
	case evs[len(evs)-1].typ() == "response.failed":
		return "failure"
	case strings.Contains(types, "mcp_approval_request"):
		return "approval"
	case strings.Contains(types, "mcp_call"):
		return "mcp"
	case strings.Contains(types, "function_call"):
		return "tools"
	case types == "reasoning,message":
		return "markdown"
	}
	return "unknown: " + types
}

func jsonObject(raw string, v *map[string]any) bool {
	return json.Unmarshal([]byte(raw), v) == nil && *v != nil
}
