package demo

import (
	"encoding/json"
	"strings"
)

// turn is what the demo reads from a request's input: the latest user text,
// or an answer to an approval request, whichever came last.
type turn struct {
	text     string         // latest user message text, "" when none
	approval *approvalReply // set when the latest input is an mcp_approval_response
	outputs  []string       // set when the latest input holds function_call_output items
}

type approvalReply struct {
	requestID string
	approve   bool
}

// inputItem is the part of an input item the demo looks at. Messages may
// omit "type" (the short {"role","content"} form).
type inputItem struct {
	Type              string          `json:"type"`
	Role              string          `json:"role"`
	Content           json.RawMessage `json:"content"`
	ApprovalRequestID string          `json:"approval_request_id"`
	Approve           bool            `json:"approve"`
	Output            json.RawMessage `json:"output"`
}

// readTurn scans input from the end for the latest user message or approval
// response. Items it cannot decode, and items of other kinds (assistant
// messages, reasoning, tool outputs), are skipped.
func readTurn(input []json.RawMessage) turn {
	for i := len(input) - 1; i >= 0; i-- {
		var it inputItem
		if json.Unmarshal(input[i], &it) != nil {
			continue
		}
		switch {
		case it.Type == "mcp_approval_response":
			return turn{approval: &approvalReply{requestID: it.ApprovalRequestID, approve: it.Approve}}
		case it.Type == "function_call_output":
			// the client answered calls: gather every output of this run
			var outs []string
			for j := i; j >= 0; j-- {
				var o inputItem
				if json.Unmarshal(input[j], &o) != nil || o.Type != "function_call_output" {
					break
				}
				outs = append([]string{contentText(o.Output)}, outs...)
			}
			return turn{outputs: outs}
		case it.Role == "user" && (it.Type == "" || it.Type == "message"):
			return turn{text: contentText(it.Content)}
		}
	}
	return turn{}
}

// contentText joins a message's text: content is either a string or a list
// of parts with a "text" field (input_text).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// byKeyword returns the showcase whose keyword occurs in text, trying the
// most specific showcases first ("mcp approval" is the approval showcase).
func byKeyword(text string) (showcase, bool) {
	text = strings.ToLower(text)
	for _, name := range keywordOrder {
		sc := lookup(name)
		for _, k := range sc.keywords {
			if strings.Contains(text, k) {
				return sc, true
			}
		}
	}
	return showcase{}, false
}

// keywordOrder is the precedence of showcases when several keywords match.
var keywordOrder = []string{"approval", "mcp", "failure", "tools", "markdown"}

func lookup(name string) showcase {
	for _, sc := range showcases {
		if sc.name == name {
			return sc
		}
	}
	panic("demo: no showcase " + name) // table bug
}
