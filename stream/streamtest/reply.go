package streamtest

import (
	"bytes"
	"net/http"
	"os"
	"time"
)

// Reply is what the server sends for one request. Set SSE or File for a
// stream, Body for anything else (error replies). With none of them the
// reply is the status and headers alone.
type Reply struct {
	SSE    []byte      // raw SSE body, sent event by event
	File   string      // path of an .sse file to send (read when the reply is served)
	Status int         // default 200
	Header http.Header // extra headers; Content-Type defaults from the body kind
	Body   []byte      // non-SSE body, sent in one write

	// Pace is the delay before each SSE event after the first; 0 sends at
	// full speed. Each event is flushed on its own either way.
	Pace time.Duration
	// Gate, if non-nil, must yield one receive before each event is sent:
	// the test decides exactly when each event goes out.
	Gate <-chan struct{}
	// DropAfter > 0 aborts the connection abruptly after that many events
	// (or after all of them, if there are fewer), without ending the chunked
	// body, so the client sees an unexpected EOF. The status and headers are
	// always sent first.
	DropAfter int
	// StallAfter > 0 stops writing after that many events (or after all of
	// them, if there are fewer) and blocks until the client goes away or the
	// server closes: a stuck upstream.
	StallAfter int
	// Hangup closes the connection before any response at all: the client's
	// request fails as a connection error.
	Hangup bool
}

// write serves reply on w. Events are split on blank lines so each one can
// be flushed, paced, gated, dropped after or stalled after; the bytes written
// are exactly the input's.
func (s *Server) write(w http.ResponseWriter, r *http.Request, reply Reply) {
	if reply.Hangup {
		panic(http.ErrAbortHandler)
	}
	sse := reply.SSE
	if reply.File != "" {
		data, err := os.ReadFile(reply.File)
		if err != nil {
			reply = jsonError(http.StatusInternalServerError, "streamtest: read fixture: "+err.Error(), "server_error", "")
		} else {
			sse = data
		}
	}
	stream := sse != nil || reply.File != ""

	h := w.Header()
	for k, vs := range reply.Header {
		h[k] = append([]string(nil), vs...)
	}
	if h.Get("Content-Type") == "" {
		switch {
		case stream:
			h.Set("Content-Type", "text/event-stream; charset=utf-8")
			h.Set("Cache-Control", "no-cache")
		case len(bytes.TrimSpace(reply.Body)) > 0 && bytes.TrimSpace(reply.Body)[0] == '{':
			h.Set("Content-Type", "application/json")
		case len(reply.Body) > 0:
			h.Set("Content-Type", "text/plain; charset=utf-8")
		}
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	rc := http.NewResponseController(w)
	_ = rc.Flush()

	if len(reply.Body) > 0 {
		if _, err := w.Write(reply.Body); err != nil {
			return
		}
		_ = rc.Flush()
	}

	events := SplitEvents(sse)
	ctx := r.Context()
	for i, ev := range events {
		if reply.DropAfter > 0 && i == reply.DropAfter {
			panic(http.ErrAbortHandler)
		}
		if reply.StallAfter > 0 && i == reply.StallAfter {
			break
		}
		if reply.Gate != nil {
			select {
			case <-reply.Gate:
			case <-ctx.Done():
				return
			case <-s.done:
				return
			}
		}
		if reply.Pace > 0 && i > 0 {
			t := time.NewTimer(reply.Pace)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return
			case <-s.done:
				t.Stop()
				return
			}
		}
		if _, err := w.Write(ev); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
	if reply.DropAfter > 0 {
		panic(http.ErrAbortHandler)
	}
	if reply.StallAfter > 0 {
		select {
		case <-ctx.Done():
		case <-s.done:
		}
	}
}

// SplitEvents cuts SSE bytes into events, each ending after its blank line
// ("\n\n", "\r\n\r\n", or any mix of LF, CRLF and CR line ends). Trailing
// bytes without a closing blank line form a last event. Joining the result
// gives back the input exactly.
func SplitEvents(sse []byte) [][]byte {
	var events [][]byte
	start, lineStart := 0, 0
	for i := 0; i < len(sse); i++ {
		c := sse[i]
		if c != '\n' && c != '\r' {
			continue
		}
		end := i + 1
		if c == '\r' && end < len(sse) && sse[end] == '\n' {
			end++
		}
		if i == lineStart && i > start { // an empty line closes the event
			events = append(events, sse[start:end])
			start = end
		}
		lineStart = end
		i = end - 1
	}
	if start < len(sse) {
		events = append(events, sse[start:])
	}
	return events
}

// readFileOrNil is the file's bytes, nil when it cannot be read (write then
// answers with the error).
func readFileOrNil(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return data
}
