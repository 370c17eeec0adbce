package store

import (
	"strings"
	"testing"
)

func TestExtractByItemType(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want itemText
	}{
		{`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"},{"type":"refusal","refusal":"No."}]}`, itemText{answer: "Hi\nNo."}},
		{`{"role":"user","content":"easy input"}`, itemText{prompt: "easy input"}},
		{`{"type":"message","role":"user","content":[{"type":"input_text","text":"typed"},{"type":"input_image","image_url":"data:..."}]}`, itemText{prompt: "typed"}},
		{`{"type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}],"content":[{"type":"reasoning_text","text":"raw thoughts"}]}`, itemText{reasoning: "**Plan**\nraw thoughts"}},
		{`{"type":"function_call","name":"add","arguments":"{\"a\":2}"}`, itemText{tool: "add\n{\"a\":2}"}},
		{`{"type":"function_call_output","call_id":"c","output":"five"}`, itemText{tool: "five"}},
		{`{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"as parts"}]}`, itemText{tool: "as parts"}},
		{`{"type":"custom_tool_call","name":"setHtml","input":"<main>x</main>"}`, itemText{tool: "setHtml\n<main>x</main>"}},
		{`{"type":"mcp_call","server_label":"dmcp","name":"search","arguments":"{}","output":"found it","error":null}`, itemText{tool: "dmcp\nsearch\n{}\nfound it"}},
		{`{"type":"tool_search_call","arguments":{"paths":["get_weather"]}}`, itemText{tool: `{"paths":["get_weather"]}`}},
		{`{"type":"shell_call","action":{"commands":["echo hi","uname -a"]}}`, itemText{tool: "echo hi\nuname -a"}},
		{`{"type":"shell_call_output","output":[{"stdout":"hi\n","stderr":"warn"}]}`, itemText{tool: "hi\nwarn"}}, // as the export shows it: stdout then stderr
		{`{"type":"local_shell_call","action":{"type":"exec","command":["ls","-l"]}}`, itemText{tool: "ls\n-l"}},
		{`{"type":"code_interpreter_call","code":"print(1)","outputs":[{"type":"logs","logs":"1"},{"type":"image","url":"u"}]}`, itemText{tool: "print(1)\n1"}},
		{`{"type":"web_search_call","action":{"type":"search","query":"tech news","sources":[{"url":"u"}]}}`, itemText{tool: "tech news"}},
		{`{"type":"file_search_call","queries":["capital of France"],"results":null}`, itemText{tool: "capital of France"}},
		{`{"type":"apply_patch_call","operation":{"type":"create_file","path":"list.md","diff":"+- Milk"}}`, itemText{tool: "list.md\n+- Milk"}},
		{`{"type":"image_generation_call","result":"AAAA","revised_prompt":"an echidna"}`, itemText{tool: "an echidna"}},
		{`{"type":"mcp_list_tools","tools":[{"name":"x"}]}`, itemText{}},
		{`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"\u001b[31mred\u001b[0m \ue000x\ue001"}]}`, itemText{answer: "red  x "}},
		{`{"type":"function_call","name":7,"arguments":["odd"]}`, itemText{tool: `["odd"]`}},                           // arguments that are not a string: their JSON, as everywhere
		{`{"type":"brand_new_call","name":"probe","arguments":"{}","output":"out"}`, itemText{tool: "probe\n{}\nout"}}, // generic entry of the kind table
		{`{"type":"brand_new_output","output":"result"}`, itemText{tool: "result"}},
		{`{"type":"brand_new_thing","text":"x"}`, itemText{}},
		{`not json`, itemText{}},
		{`{"type":"message","content":{"weird":true}}`, itemText{}},
	} {
		if got := extract([]byte(c.raw)); got != c.want {
			t.Errorf("extract(%.60s)\n got %+v\nwant %+v", c.raw, got, c.want)
		}
	}
}

func TestCutAndTitle(t *testing.T) {
	if got := cut("héllo wörld", 5); got != "héll…" {
		t.Errorf("cut: %q", got)
	}
	if got := cut("short", 5); got != "short" {
		t.Errorf("cut: %q", got)
	}
	if got := title(strings.Repeat("é", 100)); len([]rune(got)) != 80 {
		t.Errorf("title is %d runes", len([]rune(got)))
	}
	if got := previewLine("\n\n  \x1b[1mFirst\x1b[0m   line \nsecond"); got != "First line" {
		t.Errorf("preview %q", got)
	}
}
