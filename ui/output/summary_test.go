package output

import (
	"encoding/json"
	"testing"

	"runnel/stream"
)

// TestSummaryLineFromKindTable: the one-shot side lines come from the item
// kind table; reasoning with no readable text prints nothing.
func TestSummaryLineFromKindTable(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"type":"function_call","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}`, `• function get_weather({"city":"Paris"}) completed`},
		{`{"type":"mcp_call","server_label":"docs","name":"search","arguments":"{}","error":{"code":-32602,"message":"bad \u001b[2Jargs"}}`, `• mcp docs.search({}) failed: -32602: bad args`},
		{`{"type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}]}`, `• reasoning: **Plan**`},
		{`{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}`, ``},
		{`{"type":"apply_patch_call","operation":{"type":"update_file","path":"a.go","diff":"-a\n+b\n"},"status":"completed"}`, `• apply_patch: 2 diff lines completed`},
		{`{"type":"brand_new_call","status":"completed"}`, `• brand_new_call completed`},
	} {
		it, err := stream.ItemFromJSON(json.RawMessage(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := summaryLine(it, nil, ""); got != c.want {
			t.Errorf("summaryLine(%.50s)\n got %q\nwant %q", c.raw, got, c.want)
		}
	}
}
