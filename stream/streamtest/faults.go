package streamtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Unauthorized is a 401 with the JSON error body OpenAI sends for a bad key.
func Unauthorized() Reply {
	return jsonError(http.StatusUnauthorized,
		"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
		"invalid_request_error", "invalid_api_key")
}

// UnauthorizedEcho is a 401 whose body repeats the key that was sent, as a
// careless proxy or server does; runnel must not show or store it.
func UnauthorizedEcho(key string) Reply {
	return jsonError(http.StatusUnauthorized,
		"Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys.",
		"invalid_request_error", "invalid_api_key")
}

// RateLimited is a 429 asking the client to wait retryAfter: the Retry-After
// header in whole seconds (rounded up, as the header allows no fraction) and
// retry-after-ms with the exact milliseconds, as OpenAI sends both.
func RateLimited(retryAfter time.Duration) Reply {
	r := jsonError(http.StatusTooManyRequests,
		fmt.Sprintf("Rate limit reached for requests. Please try again in %s.", retryAfter),
		"requests", "rate_limit_exceeded")
	secs := int(math.Ceil(retryAfter.Seconds()))
	r.Header.Set("Retry-After", strconv.Itoa(secs))
	r.Header.Set("Retry-After-Ms", strconv.FormatInt(retryAfter.Milliseconds(), 10))
	return r
}

// ServerError is a 500 with OpenAI's JSON error body.
func ServerError() Reply {
	return jsonError(http.StatusInternalServerError,
		"The server had an error while processing your request. Sorry about that!",
		"server_error", "")
}

// HTMLError is an HTML error page such as a proxy or load balancer sends
// (e.g. 502). Its title carries an OSC title-setting sequence and its body a
// clear-screen sequence, so a test can prove the client sanitizes them.
func HTMLError(status int) Reply {
	text := strconv.Itoa(status) + " " + http.StatusText(status)
	page := "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n" +
		"<title>" + html.EscapeString(text) + "\x1b]0;pwned\x07</title>\n" +
		"<style>body { font-family: sans-serif; }</style>\n</head>\n" +
		"<body>\n<center><h1>" + html.EscapeString(text) + "</h1></center>\n" +
		"<hr><center>nginx\x1b[2J</center>\n" +
		strings.Repeat("<!-- padding so the page is larger than any summary -->\n", 20) +
		"</body>\n</html>\n"
	return Reply{
		Status: status,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body:   []byte(page),
	}
}

// ModelNotFound is the 404 OpenAI sends for an unknown or inaccessible model.
func ModelNotFound(model string) Reply {
	return jsonError(http.StatusNotFound,
		fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model),
		"invalid_request_error", "model_not_found")
}

// PreviousResponseNotFound is the 400 OpenAI sends when previous_response_id
// names a response it does not have (expired, never stored, other project).
func PreviousResponseNotFound(id string) Reply {
	r := jsonErrorParam(http.StatusBadRequest,
		fmt.Sprintf("Previous response with id '%s' not found.", id),
		"invalid_request_error", "previous_response_not_found", "previous_response_id")
	return r
}

// ContextLengthExceeded is the 400 OpenAI sends when the input (with the
// chain it continues) does not fit the model's context window.
func ContextLengthExceeded() Reply {
	return jsonErrorParam(http.StatusBadRequest,
		"Your input exceeds the context window of this model. Please adjust your input and try again.",
		"invalid_request_error", "context_length_exceeded", "input")
}

// FromFile is a 200 stream of the .sse file at path, sent event by event.
func FromFile(path string) Reply { return Reply{File: path} }

// Events turns JSON payloads into SSE bytes, one "data:" event each. A
// payload holding newlines is sent as several data lines of one event.
func Events(events ...string) []byte {
	var b bytes.Buffer
	for _, ev := range events {
		for line := range strings.Lines(ev) {
			b.WriteString("data: ")
			b.WriteString(strings.TrimRight(line, "\r\n"))
			b.WriteByte('\n')
		}
		if ev == "" {
			b.WriteString("data: \n")
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Text is a complete, well-formed stream of a response with id respID whose
// only output is an assistant message made of deltas, shaped like OpenAI's
// (named events, sequence numbers, the created → deltas → done → completed
// order, usage on completion). The message item id is "msg_" + respID.
func Text(respID string, deltas ...string) []byte {
	return textStream(respID, 10, nil, deltas...)
}

// textStream is Text with the usage's input tokens given and extra items
// (whole, such as a compaction item) after the message, each added and done
// at its own output index.
func textStream(respID string, inputTokens int, extra []map[string]any, deltas ...string) []byte {
	full := strings.Join(deltas, "")
	itemID := "msg_" + respID
	part := func(text string) map[string]any {
		return map[string]any{"type": "output_text", "annotations": []any{}, "text": text}
	}
	item := func(status string, content []any) map[string]any {
		return map[string]any{"id": itemID, "type": "message", "status": status, "role": "assistant", "content": content}
	}
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{
			"id": respID, "object": "response", "created_at": 1700000000, "status": status,
			"model": "streamtest", "output": output, "usage": usage,
		}
	}
	var evs []map[string]any
	evs = append(evs,
		map[string]any{"type": "response.created", "response": response("in_progress", []any{}, nil)},
		map[string]any{"type": "response.in_progress", "response": response("in_progress", []any{}, nil)},
		map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item("in_progress", []any{})},
		map[string]any{"type": "response.content_part.added", "item_id": itemID, "output_index": 0, "content_index": 0, "part": part("")},
	)
	for _, d := range deltas {
		evs = append(evs, map[string]any{"type": "response.output_text.delta", "item_id": itemID, "output_index": 0, "content_index": 0, "delta": d})
	}
	done := item("completed", []any{part(full)})
	evs = append(evs,
		map[string]any{"type": "response.output_text.done", "item_id": itemID, "output_index": 0, "content_index": 0, "text": full},
		map[string]any{"type": "response.content_part.done", "item_id": itemID, "output_index": 0, "content_index": 0, "part": part(full)},
		map[string]any{"type": "response.output_item.done", "output_index": 0, "item": done},
	)
	output := []any{done}
	for i, x := range extra {
		evs = append(evs,
			map[string]any{"type": "response.output_item.added", "output_index": i + 1, "item": x},
			map[string]any{"type": "response.output_item.done", "output_index": i + 1, "item": x})
		output = append(output, x)
	}
	evs = append(evs,
		map[string]any{"type": "response.completed", "response": response("completed", output,
			map[string]any{"input_tokens": inputTokens, "output_tokens": len(deltas), "total_tokens": inputTokens + len(deltas)})},
	)
	var b bytes.Buffer
	for i, ev := range evs {
		ev["sequence_number"] = i
		data, err := json.Marshal(ev)
		if err != nil {
			panic("streamtest: marshal event: " + err.Error()) // maps of strings and ints always marshal
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", ev["type"], data)
	}
	return b.Bytes()
}

// jsonError is a reply with an OpenAI-shaped error body.
func jsonError(status int, message, typ, code string) Reply {
	return jsonErrorParam(status, message, typ, code, "")
}

func jsonErrorParam(status int, message, typ, code, param string) Reply {
	nullable := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nullable(param), "code": nullable(code),
	}})
	return Reply{
		Status: status,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   body,
	}
}
