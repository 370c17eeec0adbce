// Package streamtest is a fake OpenAI Responses server on loopback, for tests
// of anything that talks to POST /v1/responses: the stream client, the session
// layer, and end-to-end runs of the real binary.
//
// A test queues replies (real recorded .sse fixtures, hand-built events, or
// ready-made HTTP faults), points a client at Server.URL, and afterwards
// inspects what the client sent. Replies can be paced, gated one event at a
// time through a channel, cut off mid-stream, or stalled, so timeouts,
// cancellation and partial streams are tested deterministically.
//
// By default it does not understand requests: it never checks models or
// chains, never invents output from input, and serves only what it is given
// (SetHandler is where a test scripts multi-turn behaviour), except that the
// response objects it serves to a chained request echo the request's
// previous_response_id where they name none, as OpenAI's do (echo.go). Stateful turns
// on a memory of served responses, as OpenAI keeps them: chaining, store,
// context limits and /responses/compact (see state.go), background
// responses: resumed streams, fetches and cancels (see background.go), and
// server-side conversations (/conversations, conversations.go). In
// personality mode (Server.As, personality.go) it plays a real server,
// OpenAI, Ollama, vLLM, llama.cpp, LM Studio or a gateway: a scripted Model
// answers from the conversation the server reconstructed, the personality
// sends it in that server's wire shape and applies its rule for store and
// previous_response_id, and every request is kept as an Exchange with what
// the model saw. Refuses and WithResponse (knobs.go) serve what the
// request knobs meet: a 400 refusing a parameter, and response objects
// that report a service tier. It does not import package stream, so
// stream's own tests can use it.
//
// Flow: request → recorded → queue (FIFO) or handler → reply written event by
// event.
package streamtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is a fake Responses API listening on a loopback port.
//
// Invariants:
//   - every request is appended to requests before any reply byte is written,
//     so a client that saw a reply can always find its request in Requests;
//   - queue, handler and requests are only touched with mu held;
//   - done is closed exactly once, by Close, and wakes every gated or stalled
//     reply so Close never waits on a client that does not go away.
type Server struct {
	// URL is the base URL to give a client, ending in /v1
	// (e.g. "http://127.0.0.1:41234/v1").
	URL string

	srv       *httptest.Server
	done      chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	queue    []Reply              // FIFO, one per POST /v1/responses
	handler  func(Recorded) Reply // used when queue is empty
	requests []Recorded
	state    *state   // nil until Stateful
	persona  *persona // nil until As
	models   []string // GET /v1/models answers these ids; nil: 404, as a server without the route
}

// SetModels makes GET /v1/models answer a model list with these ids (the
// OpenAI shape: {"object":"list","data":[{"id":…,"object":"model"}]}).
// Without it the route answers 404, like a server that has none.
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string{}, ids...)
}

// Recorded is one request the server received.
type Recorded struct {
	Method string
	Path   string
	Query  string // the raw query, without '?'
	Header http.Header
	Body   []byte
}

// JSON returns the decoded request body, or nil if it is not a JSON object.
func (r Recorded) JSON() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		return nil
	}
	return m
}

// PreviousResponseID returns the body's previous_response_id, or "".
func (r Recorded) PreviousResponseID() string {
	s, _ := r.JSON()["previous_response_id"].(string)
	return s
}

// New starts a server that is closed when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	s := NewServer()
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a server for use outside tests (an end-to-end harness, a
// demo). The caller must Close it.
func NewServer() *Server {
	s := &Server{done: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server: gated and stalled replies are released, client
// connections are closed, and Close waits for every handler to return. It is
// safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Enqueue adds replies to the queue; each POST /v1/responses takes the next.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetHandler sets the function that decides the reply when the queue is
// empty: the place to script a multi-turn conversation from the requests
// themselves. It is called on the server's goroutine, one request at a time
// per connection; it must be safe for concurrent use if clients are.
func (s *Server) SetHandler(h func(Recorded) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Recorded, len(s.requests))
	copy(out, s.requests)
	return out
}

// maxRequestBody caps what the server reads of one request body.
const maxRequestBody = 64 << 20

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	rec := Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	reply, ok, stateful := s.record(rec)
	reply = s.echoChain(rec, reply) // as OpenAI's response objects do (echo.go)
	switch {
	case err != nil:
		reply = jsonError(http.StatusBadRequest, "streamtest: read request body: "+err.Error(), "invalid_request_error", "")
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet && s.modelList() != nil:
		reply = Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: s.modelList()}
	case stateful: // the stateful mode answered
	case r.URL.Path != "/v1/responses":
		reply = jsonError(http.StatusNotFound, fmt.Sprintf("streamtest: no route for %s %s", r.Method, r.URL.Path), "invalid_request_error", "unknown_url")
	case r.Method != http.MethodPost:
		reply = jsonError(http.StatusMethodNotAllowed, fmt.Sprintf("streamtest: %s %s: only POST is served", r.Method, r.URL.Path), "invalid_request_error", "")
	case !ok:
		reply = jsonError(http.StatusInternalServerError, "streamtest: no reply queued", "server_error", "")
	}
	s.write(w, r, reply)
}

// modelList is the body GET /v1/models answers, nil without SetModels.
func (s *Server) modelList() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.models == nil {
		return nil
	}
	data := make([]map[string]string, len(s.models))
	for i, id := range s.models {
		data[i] = map[string]string{"id": id, "object": "model", "owned_by": "streamtest"}
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": data})
	return b
}

// record appends rec to the log and picks the reply for it: in stateful
// mode, the mode's (stateful is then true); else the head of the queue, else
// the handler's answer. ok is false when there is none. Only a POST to
// /v1/responses consumes a reply.
func (s *Server) record(rec Recorded) (reply Reply, ok, stateful bool) {
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	if reply, ok := s.personaReply(rec); ok {
		s.mu.Unlock()
		return reply, true, true
	}
	if reply, ok := s.statefulReply(rec); ok {
		s.mu.Unlock()
		return reply, true, true
	}
	if rec.Method != http.MethodPost || rec.Path != "/v1/responses" {
		s.mu.Unlock()
		return Reply{}, false, false
	}
	if len(s.queue) > 0 {
		reply = s.queue[0]
		s.queue[0] = Reply{}
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return reply, true, false
	}
	h := s.handler
	s.mu.Unlock()
	if h == nil {
		return Reply{}, false, false
	}
	return h(rec), true, false
}
