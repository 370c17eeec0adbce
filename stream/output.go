package stream

import "encoding/json"

// Tool outputs and approval responses runnel sends back as input items.

// OutputItem is the function_call_output input item answering callID:
// {"type":"function_call_output","call_id":…,"output":…}, output as given.
func OutputItem(callID, output string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output string `json:"output"`
	}{"function_call_output", callID, output})
	return b
}

// Answers says what an input item answers: the call_id of a tool output
// (of any tool type), or, with approval true, the approval_request_id of an
// MCP approval response. It is "", false for any other item and for one
// that does not decode.
func Answers(raw json.RawMessage) (id string, approval bool) {
	var f struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		ReqID  string `json:"approval_request_id"`
	}
	if json.Unmarshal(raw, &f) != nil {
		return "", false
	}
	switch f.Type {
	case "function_call_output", "custom_tool_call_output", "computer_call_output",
		"local_shell_call_output", "shell_call_output", "apply_patch_call_output":
		return f.CallID, false
	case "mcp_approval_response":
		return f.ReqID, true
	}
	return "", false
}
