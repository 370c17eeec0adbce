package streamtest

// This file serves what the request knobs meet on real servers: a 400 that
// refuses a parameter, and response objects that report the service tier
// the response ran on.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// Refuses is OpenAI's 400 for a parameter the model or server does not take
// ("Unsupported parameter: 'service_tier' is not supported with this
// model.", code unsupported_parameter, param named).
func Refuses(param string) Reply {
	return jsonErrorParam(http.StatusBadRequest,
		fmt.Sprintf("Unsupported parameter: '%s' is not supported with this model.", param),
		"invalid_request_error", "unsupported_parameter", param)
}

// WithResponse returns sse with fields set on every event's response object
// (response.created, .in_progress, .completed…), as a server reports
// service_tier or usage details there. Events without one pass unchanged;
// sse must have LF line ends, as Text and Events write.
func WithResponse(sse []byte, fields map[string]any) []byte {
	var out bytes.Buffer
	for _, ev := range SplitEvents(sse) {
		for _, line := range bytes.SplitAfter(ev, []byte("\n")) {
			data, ok := bytes.CutPrefix(line, []byte("data: "))
			var m map[string]any
			if !ok || json.Unmarshal(data, &m) != nil {
				out.Write(line)
				continue
			}
			if r, ok := m["response"].(map[string]any); ok {
				for k, v := range fields {
					r[k] = v
				}
			}
			b, _ := json.Marshal(m)
			out.WriteString("data: ")
			out.Write(b)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}
