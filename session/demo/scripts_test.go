package demo

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"runnel/stream"
)

// eventsOf returns the events of one type.
func eventsOf(evs []sseEvent, typ string) []sseEvent {
	var out []sseEvent
	for _, e := range evs {
		if e.typ() == typ {
			out = append(out, e)
		}
	}
	return out
}

func itemOf(items []map[string]any, typ string) map[string]any {
	for _, it := range items {
		if it["type"] == typ {
			return it
		}
	}
	return nil
}

func messageText(item map[string]any) string {
	part := item["content"].([]any)[0].(map[string]any)
	return part["text"].(string)
}

func summaries(item map[string]any) []string {
	var out []string
	for _, s := range item["summary"].([]any) {
		out = append(out, s.(map[string]any)["text"].(string))
	}
	return out
}

func TestMarkdownShowcase(t *testing.T) {
	evs := ask(t, newTestProvider(), "hello")
	items := finalOutput(evs)
	sum := summaries(itemOf(items, "reasoning"))
	if len(sum) != 1 || !strings.HasPrefix(sum[0], "**") || !strings.Contains(sum[0], "**\n\n") {
		t.Errorf("summary should be one part opening with a bold title line: %q", sum)
	}
	if len(eventsOf(evs, "response.reasoning_summary_text.delta")) < 10 {
		t.Error("summary is not streamed in pieces")
	}
	text := messageText(itemOf(items, "message"))
	for _, want := range []string{
		"\n## ", "**demo provider**", "`text/event-stream`", "```go\n", "\n|---|---|\n", "\n- ",
		"OPENAI_API_KEY", "base_url", // how to leave the demo
		"`weather`", "`search`", "`tool`", "`mcp`", "`deploy`", "`approve`", "`error`", "`fail`", // the other showcases
	} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown answer lacks %q", want)
		}
	}
}

func TestToolsShowcase(t *testing.T) {
	evs := ask(t, newTestProvider(), "What's the weather in Lisbon?")
	items := finalOutput(evs)
	if got := strings.Join(itemTypes(evs), ","); got != "reasoning,function_call,web_search_call,message" {
		t.Fatalf("items %s", got)
	}
	sum := summaries(items[0])
	if len(sum) != 2 || !strings.HasPrefix(sum[0], "**") || !strings.HasPrefix(sum[1], "**") {
		t.Errorf("want two summary parts, each with a bold title: %q", sum)
	}
	if n := len(eventsOf(evs, "response.reasoning_summary_part.added")); n != 2 {
		t.Errorf("%d summary_part.added events, want 2", n)
	}

	fc := items[1]
	var args map[string]any
	if fc["name"] != "get_weather" || json.Unmarshal([]byte(fc["arguments"].(string)), &args) != nil || args["city"] != "Lisbon" {
		t.Errorf("function call %v", fc)
	}
	if !strings.HasPrefix(fc["call_id"].(string), "call_demo_") || !strings.HasPrefix(fc["id"].(string), "fc_demo_") {
		t.Errorf("function call ids %v / %v", fc["id"], fc["call_id"])
	}
	if len(eventsOf(evs, "response.function_call_arguments.delta")) < 3 {
		t.Error("arguments are not streamed in pieces")
	}

	ws := items[2]
	action := ws["action"].(map[string]any)
	if action["type"] != "search" || action["query"] == "" || len(action["sources"].([]any)) == 0 {
		t.Errorf("web search action %v", action)
	}
	for _, typ := range []string{"in_progress", "searching", "completed"} {
		if len(eventsOf(evs, "response.web_search_call."+typ)) != 1 {
			t.Errorf("no response.web_search_call.%s", typ)
		}
	}

	text := messageText(items[3])
	anns := items[3]["content"].([]any)[0].(map[string]any)["annotations"].([]any)
	added := eventsOf(evs, "response.output_text.annotation.added")
	if len(anns) != 1 || len(added) != 1 {
		t.Fatalf("%d annotations, %d annotation.added events; want 1 and 1", len(anns), len(added))
	}
	a := anns[0].(map[string]any)
	runes := []rune(text)
	span := string(runes[int(a["start_index"].(float64)):int(a["end_index"].(float64))])
	if a["type"] != "url_citation" || !strings.Contains(span, a["url"].(string)) {
		t.Errorf("annotation %v covers %q", a, span)
	}
	if !strings.Contains(sourcesOf(action), a["url"].(string)) {
		t.Errorf("cited url %v is not among the search's sources", a["url"])
	}
}

func sourcesOf(action map[string]any) string {
	var urls []string
	for _, s := range action["sources"].([]any) {
		urls = append(urls, s.(map[string]any)["url"].(string))
	}
	return strings.Join(urls, " ")
}

func TestMCPShowcase(t *testing.T) {
	evs := ask(t, newTestProvider(), "ask the MCP docs server")
	items := finalOutput(evs)
	if got := strings.Join(itemTypes(evs), ","); got != "mcp_list_tools,reasoning,mcp_call,message" {
		t.Fatalf("items %s", got)
	}
	list := items[0]
	tools := list["tools"].([]any)
	if list["server_label"] != "demo-docs" || len(tools) < 2 {
		t.Fatalf("mcp_list_tools %v", list)
	}
	for _, tl := range tools {
		schema, _ := tl.(map[string]any)["input_schema"].(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("tool %v has no object input_schema", tl.(map[string]any)["name"])
		}
	}
	if added := eventsOf(evs, "response.output_item.added")[0].obj("item"); len(added["tools"].([]any)) != 0 {
		t.Error("mcp_list_tools should be added with no tools, as servers do")
	}
	call := items[2]
	if call["status"] != "completed" || call["output"] == nil || call["approval_request_id"] != nil || call["server_label"] != "demo-docs" {
		t.Errorf("mcp_call %v", call)
	}
	for _, typ := range []string{"response.mcp_list_tools.in_progress", "response.mcp_list_tools.completed",
		"response.mcp_call.in_progress", "response.mcp_call_arguments.delta", "response.mcp_call_arguments.done",
		"response.mcp_call.completed"} {
		if len(eventsOf(evs, typ)) != 1 {
			t.Errorf("want one %s", typ)
		}
	}
}

func TestApprovalShowcaseStopsAtTheRequest(t *testing.T) {
	evs := ask(t, newTestProvider(), "please deploy main")
	items := finalOutput(evs)
	if got := strings.Join(itemTypes(evs), ","); got != "mcp_list_tools,reasoning,mcp_approval_request" {
		t.Fatalf("items %s", got)
	}
	req := items[2]
	var args map[string]any
	if !strings.HasPrefix(req["id"].(string), "mcpr_demo_") || req["name"] != "deploy_preview" ||
		req["server_label"] != "demo-deploy" || json.Unmarshal([]byte(req["arguments"].(string)), &args) != nil {
		t.Errorf("approval request %v", req)
	}
	if evs[len(evs)-1].typ() != "response.completed" {
		t.Error("approval request should end in response.completed")
	}
}

func TestFailureShowcaseKeepsPartialText(t *testing.T) {
	evs := ask(t, newTestProvider(), "show me an error")
	var partial string
	for _, e := range eventsOf(evs, "response.output_text.delta") {
		partial += e.str("delta")
	}
	if utf8.RuneCountInString(partial) < 40 {
		t.Errorf("only %q streamed before the failure", partial)
	}
	if len(eventsOf(evs, "response.output_text.done")) != 0 {
		t.Error("the interrupted text should never be done")
	}
	errEv := evs[len(evs)-2].obj("error")
	failed := evs[len(evs)-1].obj("response")["error"].(map[string]any)
	if errEv["code"] != "server_error" || failed["code"] != "server_error" || failed["message"] == "" {
		t.Errorf("error %v, failed %v", errEv, failed)
	}
}

// TestPacing checks the schedule, not the clock: at Speed 1 deltas come
// 60-120 a second, after a thinking pause.
func TestPacing(t *testing.T) {
	for _, sc := range showcases {
		b := &builder{n: 1, obf: newObfuscator(1), resp: baseResponse(stream.Request{}, 1, testNow())}
		b.start()
		sc.play(b)
		var gaps time.Duration
		deltas := 0
		for _, e := range b.events {
			if strings.HasSuffix(e.name, ".delta") && e.name != "response.mcp_call_arguments.delta" {
				gaps += e.wait
				deltas++
			}
		}
		if deltas == 0 {
			continue
		}
		if rate := float64(deltas) / gaps.Seconds(); rate < 60 || rate > 120 {
			t.Errorf("%s: %.0f deltas/s", sc.name, rate)
		}
		if first := b.events[2].wait; first < thinkingPause {
			t.Errorf("%s: first item after %v, want a thinking pause", sc.name, first)
		}
	}
}
