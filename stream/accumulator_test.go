package stream

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// sse turns JSON payloads into an SSE body.
func sse(events ...string) []byte {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: ")
		b.WriteString(e)
		b.WriteString("\n\n")
	}
	return []byte(b.String())
}

const (
	created   = `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress","model":"m","output":[]}}`
	completed = `{"type":"response.completed","sequence_number":99,"response":{"id":"resp_1","status":"completed","model":"m","output":[],"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}}`
)

func msgAdded(idx int, id string) string {
	return `{"type":"response.output_item.added","output_index":` + itoa(idx) + `,"item":{"type":"message","id":"` + id + `","status":"in_progress","role":"assistant","content":[]}}`
}

func textDelta(seq, idx int, id, d string) string {
	b, _ := json.Marshal(d)
	return `{"type":"response.output_text.delta","sequence_number":` + itoa(seq) + `,"output_index":` + itoa(idx) + `,"item_id":"` + id + `","content_index":0,"delta":` + string(b) + `}`
}

func one(t *testing.T, events ...string) (*Snapshot, []error) {
	t.Helper()
	acc, probs := replay(t, sse(events...))
	if len(acc.Responses()) != 1 {
		t.Fatalf("%d responses, want 1", len(acc.Responses()))
	}
	return acc.Current(), probs
}

func TestAccumulatorDuplicatesIgnored(t *testing.T) {
	s, probs := one(t, created, msgAdded(0, "m1"),
		textDelta(2, 0, "m1", "Hel"), textDelta(2, 0, "m1", "Hel"), textDelta(3, 0, "m1", "lo"), textDelta(2, 0, "m1", "Hel"),
		completed)
	if len(probs) > 0 || s.Items[0].Text() != "Hello" {
		t.Errorf("text %q, problems %v", s.Items[0].Text(), probs)
	}
}

func TestAccumulatorNoSequenceNumbersAndNoInProgress(t *testing.T) {
	s, _ := one(t, `{"type":"response.created","response":{"id":"r","status":"in_progress"}}`,
		`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"a"}`,
		`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"a"}`,
		`{"type":"response.completed","response":{"id":"r","status":"completed"}}`)
	if s.Items[0].Text() != "aa" || s.Status != "completed" {
		t.Errorf("without sequence numbers nothing is a duplicate: %q %q", s.Items[0].Text(), s.Status)
	}
}

func TestAccumulatorParallelInterleaved(t *testing.T) {
	s, _ := one(t, created,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_a","name":"add","call_id":"c1","arguments":""}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_b","name":"mul","call_id":"c2","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_b","delta":"{\"x\":"}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_a","delta":"{\"a\":"}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_b","delta":"2}"}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_a","delta":"1}"}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_b","name":"mul","call_id":"c2","arguments":"{\"x\":2}","status":"completed"}}`,
		completed)
	if s.Items[0].Arguments != `{"a":1}` || s.Items[1].Arguments != `{"x":2}` {
		t.Errorf("args %q %q", s.Items[0].Arguments, s.Items[1].Arguments)
	}
	if s.Items[0].Done != true || s.Items[1].Status != "completed" {
		t.Errorf("item 0 left open is closed by the terminal response: done %v", s.Items[0].Done)
	}
}

func TestAccumulatorDeltaBeforeItemAdded(t *testing.T) {
	s, _ := one(t, created, textDelta(1, 0, "m1", "early "), msgAdded(0, "m1"), textDelta(3, 0, "m1", "bird"))
	if s.Items[0].Text() != "early bird" || s.Items[0].Role != "assistant" {
		t.Errorf("text %q role %q", s.Items[0].Text(), s.Items[0].Role)
	}
	if !s.CutOff || s.Terminal {
		t.Errorf("a stream without a terminal event is cut off")
	}
}

func TestAccumulatorDoneWithoutDeltas(t *testing.T) {
	s, _ := one(t, created, msgAdded(0, "m1"),
		`{"type":"response.output_text.done","output_index":0,"content_index":0,"text":"whole"}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","name":"f","call_id":"c","arguments":""}}`,
		`{"type":"response.function_call_arguments.done","output_index":1,"arguments":"{}"}`,
		completed)
	if s.Items[0].Text() != "whole" || s.Items[1].Arguments != "{}" {
		t.Errorf("%q %q", s.Items[0].Text(), s.Items[1].Arguments)
	}
}

func TestAccumulatorDoneIsAuthoritative(t *testing.T) {
	s, _ := one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "helo"),
		`{"type":"response.output_text.done","output_index":0,"content_index":0,"text":"hello"}`,
		`{"type":"response.output_text.done","output_index":0,"content_index":0,"text":""}`)
	if s.Items[0].Text() != "hello" {
		t.Errorf("text %q: a .done value replaces the deltas, an empty one erases nothing", s.Items[0].Text())
	}
}

// TestAccumulatorNothingSeenDisappears: a terminal response whose output is
// empty, or omits a streamed item, or has an empty copy of it, keeps what
// streamed.
func TestAccumulatorNothingSeenDisappears(t *testing.T) {
	s, _ := one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "visible"),
		`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}`)
	if len(s.Items) != 1 || s.Items[0].Text() != "visible" {
		t.Errorf("empty terminal output: %d items", len(s.Items))
	}
	s, _ = one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "first"), msgAdded(1, "m2"), textDelta(3, 1, "m2", "second"),
		`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[{"type":"message","id":"m2","status":"completed","content":[{"type":"output_text","text":""}]}]}}`)
	if len(s.Items) != 2 || s.Items[0].Text() != "first" || s.Items[1].Text() != "second" || s.Items[1].Status != "completed" {
		t.Errorf("omitted/empty terminal items: %d items %q", len(s.Items), s.Items[0].Text())
	}
	var m map[string]any
	if err := json.Unmarshal(s.Items[1].JSON(), &m); err != nil || !strings.Contains(string(s.Items[1].JSON()), `"second"`) {
		t.Errorf("item JSON lost streamed text: %s", s.Items[1].JSON())
	}
}

func TestAccumulatorBackToBackResponses(t *testing.T) {
	acc, _ := replay(t, sse(created, msgAdded(0, "a"), textDelta(2, 0, "a", "one"), completed,
		strings.Replace(created, "resp_1", "resp_2", 1), msgAdded(0, "b"), textDelta(2, 0, "b", "two"), strings.Replace(completed, "resp_1", "resp_2", 1),
		// a third response with no response.created at all
		`{"type":"response.in_progress","sequence_number":0,"response":{"id":"resp_3","status":"in_progress"}}`, msgAdded(0, "c"), textDelta(1, 0, "c", "three")))
	rs := acc.Responses()
	if len(rs) != 3 || rs[0].Items[0].Text() != "one" || rs[1].Items[0].Text() != "two" || rs[2].Items[0].Text() != "three" {
		t.Fatalf("responses %d", len(rs))
	}
	if rs[1].ID != "resp_2" || !rs[2].CutOff || rs[1].CutOff {
		t.Errorf("ids/cut off wrong")
	}
}

func TestAccumulatorMalformedEventsSkipped(t *testing.T) {
	s, probs := one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "a"),
		`{"type":"response.output_text.delta","output_index":0,"delta":`,          // invalid JSON
		`{"type":"response.output_text.delta","output_index":"zero","delta":"x"}`, // wrong shape
		`{"type":"response.output_text.delta","output_index":0,"delta":{"x":1}}`,  // wrong delta shape
		`{"type":"response.output_item.added","output_index":1}`,                  // no item
		`{"no_type":true}`,
		`{"type":"response.output_text.delta","output_index":999999999,"delta":"x"}`,
		textDelta(2, 0, "m1", "b"), completed)
	if s.Items[0].Text() != "ab" || s.Status != "completed" || len(s.Items) != 1 {
		t.Errorf("text %q status %q items %d", s.Items[0].Text(), s.Status, len(s.Items))
	}
	if len(probs) != 6 {
		t.Fatalf("%d problems, want 6: %v", len(probs), probs)
	}
	var pe *PositionError
	if !errors.As(probs[0], &pe) || pe.Num != 4 || pe.Offset <= 0 || !strings.Contains(probs[0].Error(), "event 4 at byte") {
		t.Errorf("problem lacks its position: %v", probs[0])
	}
}

func TestAccumulatorUnknownEventsAndItemsKept(t *testing.T) {
	s, probs := one(t, created,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"hologram_call","id":"h1","status":"in_progress","beam":{"x":1}}}`,
		`{"type":"response.hologram_call.projecting","output_index":0,"item_id":"h1"}`,
		`{"type":"response.future_thing.delta","output_index":0,"delta":"?"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"hologram_call","id":"h1","status":"completed","beam":{"x":2}}}`,
		completed)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if len(s.Unknown) != 2 || !strings.Contains(string(s.Unknown[1]), "future_thing") {
		t.Errorf("unknown events: %d", len(s.Unknown))
	}
	if s.Items[0].Type != "hologram_call" || !strings.Contains(string(s.Items[0].JSON()), `"beam":{"x":2}`) {
		t.Errorf("unknown item JSON: %s", s.Items[0].JSON())
	}
}

func TestAccumulatorErrorEventAndFailed(t *testing.T) {
	s, _ := one(t, created, msgAdded(0, "m"), textDelta(1, 0, "m", "partial"),
		`{"type":"error","sequence_number":2,"code":"server_error","message":"boom","param":null}`,
		`{"type":"response.failed","sequence_number":3,"response":{"id":"resp_1","status":"failed","output":[],"error":{"code":"server_error","message":"boom"}}}`)
	if !s.ErrorEvent || s.Error == nil || s.Error.Message != "boom" || s.Status != "failed" || s.Items[0].Text() != "partial" {
		t.Errorf("error %+v status %q", s.Error, s.Status)
	}
}

func TestAccumulatorToolProgressAndReasoning(t *testing.T) {
	s, _ := one(t, created,
		`{"type":"response.web_search_call.searching","output_index":0,"item_id":"ws"}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":1,"summary_index":1,"delta":"**B**"}`,
		`{"type":"response.reasoning.delta","output_index":1,"content_index":0,"delta":"raw"}`,
		`{"type":"response.mcp_call.failed","output_index":2,"item_id":"mcp"}`)
	if s.Items[0].Type != "web_search_call" || s.Items[0].Progress != "searching" {
		t.Errorf("web search %+v", s.Items[0])
	}
	if s.Items[1].Type != "reasoning" || len(s.Items[1].Summary) != 2 || s.Items[1].Summary[1].Text != "**B**" || s.Items[1].Content[0].Text != "raw" {
		t.Errorf("reasoning %+v", s.Items[1])
	}
	if s.Items[2].Type != "mcp_call" || s.Items[2].Status != "failed" {
		t.Errorf("mcp %+v", s.Items[2])
	}
}

// TestAccumulatorPrefixes: cutting a real stream anywhere never panics, and
// what is shown only grows.
func TestAccumulatorPrefixes(t *testing.T) {
	for _, path := range fixtures(t)[:8] {
		data := mustRead(t, path)
		prev := 0
		for cut := 0; cut <= len(data); cut += 97 {
			acc, _ := replay(t, data[:cut])
			n := 0
			for _, s := range acc.Responses() {
				for _, it := range s.Items {
					n += len(it.Text()) + len(it.Arguments) + len(strings.Join(it.SummaryText(), ""))
				}
			}
			if n < prev-64 { // a .done may correct a few characters
				t.Fatalf("%s: visible text shrank from %d to %d at byte %d", path, prev, n, cut)
			}
			prev = max(prev, n)
		}
	}
}
