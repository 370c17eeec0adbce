package streamtest

// This file makes the queued and scripted replies echo a chained request's
// previous_response_id, as OpenAI's response objects do: a client that
// checks the echo (a server that keeps no state answers null, or nothing)
// takes the fake server for a stateful one. Personalities (personality.go)
// echo by their own rules and are left alone.

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// echoChain returns reply with every response object of its stream that
// names no previous_response_id (none, or null: a recording of a request
// that did not chain) given rec's, when rec is a POST
// /v1/responses that chained; any other reply is returned as is. Events
// that are not JSON objects with a response object keep their bytes.
func (s *Server) echoChain(rec Recorded, reply Reply) Reply {
	s.mu.Lock()
	persona := s.persona != nil
	s.mu.Unlock()
	id := rec.PreviousResponseID()
	if persona || id == "" || rec.Method != http.MethodPost || rec.Path != "/v1/responses" ||
		(reply.Status != 0 && reply.Status != http.StatusOK) {
		return reply
	}
	sse := reply.SSE
	if reply.File != "" {
		if sse = readFileOrNil(reply.File); sse == nil {
			return reply // write reports the unreadable file
		}
	}
	if sse == nil {
		return reply
	}
	events := SplitEvents(sse)
	changed := false
	for i, ev := range events {
		if out, ok := echoIn(ev, id); ok {
			events[i], changed = out, true
		}
	}
	if !changed {
		return reply
	}
	reply.SSE, reply.File = bytes.Join(events, nil), ""
	return reply
}

// echoIn rewrites one event whose single data line holds a response object
// without previous_response_id (or with null); ok is false when there is nothing to do.
func echoIn(ev []byte, id string) ([]byte, bool) {
	lines := bytes.SplitAfter(ev, []byte("\n"))
	at := -1
	for i, line := range lines {
		if bytes.HasPrefix(line, []byte("data:")) {
			if at >= 0 {
				return nil, false // several data lines: left as sent
			}
			at = i
		}
	}
	if at < 0 {
		return nil, false
	}
	line := lines[at]
	body := bytes.TrimRight(bytes.TrimPrefix(line, []byte("data:")), "\r\n")
	end := line[len("data:")+len(body):]
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return nil, false
	}
	var resp map[string]json.RawMessage
	if json.Unmarshal(top["response"], &resp) != nil || resp == nil {
		return nil, false
	}
	if v, ok := resp["previous_response_id"]; ok && string(bytes.TrimSpace(v)) != "null" {
		return nil, false
	}
	resp["previous_response_id"], _ = json.Marshal(id)
	top["response"], _ = json.Marshal(resp)
	data, err := json.Marshal(top)
	if err != nil {
		return nil, false
	}
	lines[at] = append(append([]byte("data: "), data...), end...)
	return bytes.Join(lines, nil), true
}
