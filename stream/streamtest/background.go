package streamtest

// This file is the stateful mode's background responses: a POST with
// background: true runs "on the server" whatever happens to its stream, so
// its whole event list is kept (Stored.All) and can be served again.
//
//   GET  /v1/responses/{id}?stream=true&starting_after=N  events with sequence_number > N
//   GET  /v1/responses/{id}                               the response object
//   POST /v1/responses/{id}/cancel                        cancels it
//
// A POST's stream is dropped at a chosen event with Reply.DropAfter (and
// stalled with StallAfter); resumed streams with StateOptions.ResumeDropAfter.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// backgroundReply answers a request under /v1/responses/{id}. It runs with
// s.mu held.
func (s *Server) backgroundReply(rec Recorded) Reply {
	rest := strings.TrimPrefix(rec.Path, "/v1/responses/")
	id, action, _ := strings.Cut(rest, "/")
	r, found := s.state.responses[id]
	if !found {
		return jsonErrorParam(http.StatusNotFound, "No response found with id '"+id+"'.", "invalid_request_error", "", "")
	}
	q, _ := url.ParseQuery(rec.Query)
	switch {
	case action == "cancel" && rec.Method == http.MethodPost:
		if !r.Background {
			return jsonError(http.StatusBadRequest, "Only responses created with background=true can be cancelled.", "invalid_request_error", "")
		}
		r.Cancelled = true
		return jsonReply(responseObject(r, "cancelled"))
	case action != "" || rec.Method != http.MethodGet:
		return jsonError(http.StatusNotFound, "streamtest: no route for "+rec.Method+" "+rec.Path, "invalid_request_error", "unknown_url")
	case q.Get("stream") == "true":
		if s.state.opts.NoResume {
			return jsonError(http.StatusMethodNotAllowed, "streamtest: streaming a stored response is not supported", "invalid_request_error", "")
		}
		if !r.Background {
			return jsonError(http.StatusBadRequest, "This response cannot be streamed because it was not created with background=true.", "invalid_request_error", "")
		}
		after := int64(-1)
		if v := q.Get("starting_after"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return jsonErrorParam(http.StatusBadRequest, "Invalid 'starting_after': expected an integer.", "invalid_request_error", "invalid_type", "starting_after")
			}
			after = n
		}
		if s.state.opts.ResumeDropAfter < 0 {
			return Reply{Hangup: true}
		}
		from := len(r.All)
		for i, ev := range r.All {
			if ev.Seq > int(after) {
				from = i
				break
			}
		}
		from = max(0, from-s.state.opts.ResumeRepeat)
		if d := s.state.opts.ResumeDropAfter; d == 0 || len(r.All)-from <= d {
			r.Streamed = true
		}
		var b bytes.Buffer
		for _, ev := range r.All[from:] {
			b.Write(ev.Raw)
		}
		return Reply{SSE: b.Bytes(), DropAfter: s.state.opts.ResumeDropAfter}
	default:
		r.polls++
		running := s.state.opts.RunUntilStreamed && !r.Streamed
		if r.Background && (r.polls <= s.state.opts.PollsBeforeDone || running) {
			return jsonReply(responseObject(r, "in_progress"))
		}
		if r.Cancelled {
			return jsonReply(responseObject(r, "cancelled"))
		}
		if r.Final != nil {
			return jsonReply(r.Final)
		}
		return jsonReply(responseObject(r, r.Status))
	}
}

// responseObject is a bare response object with status.
func responseObject(r *Stored, status string) []byte {
	b, _ := json.Marshal(map[string]any{"id": r.ID, "object": "response", "created_at": 1700000000,
		"status": status, "background": r.Background, "model": "streamtest", "output": []any{}})
	return b
}

func jsonReply(body []byte) Reply {
	return Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
}

// terminalObject is the response object a terminal event's data carries.
func terminalObject(data []byte) json.RawMessage {
	var e struct {
		Response json.RawMessage `json:"response"`
	}
	if json.Unmarshal(data, &e) != nil {
		return nil
	}
	return e.Response
}

// Background returns the requests made under /v1/responses/{id}: resumes,
// fetches and cancels, in order.
func (s *Server) Background() []Recorded {
	var out []Recorded
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Path, "/v1/responses/") && r.Path != "/v1/responses/compact" {
			out = append(out, r)
		}
	}
	return out
}
