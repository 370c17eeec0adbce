package stream

import (
	"encoding/json"
	"testing"
)

func TestOutputItem(t *testing.T) {
	got := string(OutputItem("call_1", "line\n\x1b[31mred\x1b[0m"))
	want := `{"type":"function_call_output","call_id":"call_1","output":"line\n\u001b[31mred\u001b[0m"}`
	if got != want {
		t.Errorf("OutputItem = %s, want %s (output as received)", got, want)
	}
}

func TestAnswers(t *testing.T) {
	for _, c := range []struct {
		raw      string
		id       string
		approval bool
	}{
		{string(OutputItem("call_1", "x")), "call_1", false},
		{`{"type":"shell_call_output","call_id":"sh_2"}`, "sh_2", false},
		{`{"type":"apply_patch_call_output","call_id":"p_3"}`, "p_3", false},
		{`{"type":"computer_call_output","call_id":"cu_5","output":{"type":"computer_screenshot"}}`, "cu_5", false}, // output not a string
		{`{"type":"function_call_output","call_id":"call_6","output":[{"type":"input_text","text":"hi"}]}`, "call_6", false},
		{`{"type":"mcp_approval_response","approval_request_id":"mcpr_4","approve":true}`, "mcpr_4", true},
		{`{"type":"mcp_approval_response"}`, "", true},
		{`{"type":"function_call","call_id":"call_1"}`, "", false},
		{`{"type":"message","role":"user","content":[]}`, "", false},
		{`not json`, "", false},
	} {
		id, approval := Answers(json.RawMessage(c.raw))
		if id != c.id || approval != c.approval {
			t.Errorf("Answers(%s) = %q, %v; want %q, %v", c.raw, id, approval, c.id, c.approval)
		}
	}
}
