package session

import "runnel/stream"

// LimitKey is the config key that sets the response limit.
const LimitKey = "max_response_bytes"

// LimitNotice is the one line that says a response was cut at the limit:
// what happened, the limit, and how to raise it.
func LimitNotice(e *stream.LimitError) string {
	return "the response passed " + stream.FormatBytes(e.Limit) +
		" of text, the most runnel keeps of one response: reading stopped and the partial answer is kept — raise " +
		LimitKey + " in the config to keep more"
}
