package stream

import "encoding/json"

// IncompleteText says in words why a response ended "incomplete", from its
// incomplete_details as received ({"reason": "max_output_tokens"}), and what
// the user can do. It is one sanitized line; an unknown reason is named as
// the server gave it.
func IncompleteText(details json.RawMessage) string {
	var d struct {
		Reason json.RawMessage `json:"reason"`
	}
	_ = json.Unmarshal(details, &d)
	reason := ErrorText(d.Reason)
	if reason == "" {
		reason = ErrorText(details) // a bare string, or an unexpected shape
		if isJSONObject(details) {
			reason = ""
		}
	}
	switch reason {
	case "max_output_tokens":
		return "the answer was cut at the max_output_tokens limit (reasoning tokens count toward it) — " +
			"ask for a shorter answer, or lower the reasoning effort (/effort, --reasoning-effort) to leave more room for the answer"
	case "content_filter":
		return "the answer was stopped by the server's content filter"
	case "":
		return "the response is incomplete; the server gave no reason"
	}
	return "the response is incomplete: " + SanitizeLine(reason)
}

// isJSONObject reports whether raw is a JSON object.
func isJSONObject(raw json.RawMessage) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}
