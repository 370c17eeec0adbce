package demo

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// realShapes collects, from the recorded streams in shared/fixtures/real, the
// key sets each event type (and each item type inside output_item events, and
// the response object) was seen with.
func realShapes(t *testing.T) map[string]map[string]bool {
	t.Helper()
	files := sharedtest.RealFiles(t)
	shapes := map[string]map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range parseLoose(string(raw)) {
			for k, v := range shapeKeys(e) {
				if shapes[k] == nil {
					shapes[k] = map[string]bool{}
				}
				shapes[k][v] = true
			}
		}
	}
	return shapes
}

// parseLoose decodes the data lines of a real stream, skipping comments,
// [DONE] and anything else that is not a JSON object.
func parseLoose(text string) []sseEvent {
	var out []sseEvent
	for _, line := range strings.Split(text, "\n") {
		raw, ok := strings.CutPrefix(line, "data: ")
		if !ok || !strings.HasPrefix(raw, "{") {
			continue
		}
		var e sseEvent
		if jsonObject(raw, &e.data) {
			out = append(out, e)
		}
	}
	return out
}

// shapeKeys names the shapes in one event: "event <type>" → its keys,
// "item <event type> <item type>" → the item's keys, "response" → the
// response object's keys.
func shapeKeys(e sseEvent) map[string]string {
	typ, _ := e.data["type"].(string)
	m := map[string]string{"event " + typ: keySet(e.data)}
	if it := e.obj("item"); it != nil {
		m["item "+typ+" "+it["type"].(string)] = keySet(it)
	}
	if r := e.obj("response"); r != nil {
		m["response"] = keySet(r)
		for _, it := range r["output"].([]any) {
			item := it.(map[string]any)
			m["item output "+item["type"].(string)] = keySet(item)
		}
	}
	return m
}

func keySet(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// TestShapesMatchRealStreams checks that every event, item and response
// object the demo sends has exactly the keys a real server sent for it.
func TestShapesMatchRealStreams(t *testing.T) {
	real := realShapes(t)
	var streams [][]sseEvent
	for _, prompt := range []string{"hello", "weather", "mcp", "deploy", "fail"} {
		streams = append(streams, ask(t, newTestProvider(), prompt))
	}
	streams = append(streams, approvalFollowUp(t, true, true), approvalFollowUp(t, false, true))
	checked := map[string]bool{}
	for _, evs := range streams {
		for _, e := range evs {
			for k, v := range shapeKeys(e) {
				if checked[k+v] {
					continue
				}
				checked[k+v] = true
				if real[k] == nil {
					t.Errorf("%s: no real stream has this shape to compare with", k)
				} else if !real[k][v] {
					t.Errorf("%s: keys %s; real streams have %v", k, v, real[k])
				}
			}
		}
	}
	t.Logf("%d shapes match real streams", len(checked))
}

// TestCheckerAcceptsRealStreams runs checkStream, the oracle every demo
// stream must pass, over recorded OpenAI streams of the same kinds, to show
// it asks for nothing a real server does not do. (Other recordings break its
// stricter rules legitimately: parallel items finishing out of order,
// encrypted_content re-issued in the final response, background streams.)
func TestCheckerAcceptsRealStreams(t *testing.T) {
	for _, name := range []string{
		"charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse",
		"charmbracelet__fantasy/openai-gpt-5-reasoning-parallel-function-calls.sse",
		"pydantic__pydantic-ai/openai-web-search-annotation.sse",
		"vercel__ai/openai-web-search-6-calls.sse",
		"vercel__ai/openai-mcp-approval-request.sse",
		"vercel__ai/openai-mcp-call-after-approval.sse",
		"vercel__ai/openai-mcp-tool-two-calls.sse",
		"vercel__ai/openai-error-insufficient-quota.sse",
	} {
		raw := sharedtest.ReadReal(t, name)
		t.Run(filepath.Base(name), func(t *testing.T) { checkStream(t, parseLoose(string(raw))) })
	}
}
