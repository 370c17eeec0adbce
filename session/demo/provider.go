// Package demo is runnel's built-in scripted provider: with no API key
// configured, runnel points its real HTTP client at a demo.Provider, so a new
// user sees streaming, reasoning, tools, MCP, approvals and failures working
// without a network.
//
// The Provider is an http.RoundTripper. POST {BaseURL}/responses gets a 200
// text/event-stream whose body is byte-for-byte shaped like an OpenAI
// Responses stream (event:/data: lines, sequence numbers, full response
// objects, usage), written lazily by a goroutine and paced like a real model.
// The content is scripted showcases, chosen by keyword in the user's latest
// message or else in rotation.
//
// It deliberately does not open sockets, call any model, remember
// conversations beyond a rotation counter, or validate requests the way a
// real server would: any well-formed JSON body gets an answer. Its responses
// name the model Model, whatever the request asked for.
//
// Main flow: RoundTrip → readTurn (what was asked) → pick (which script) →
// builder (events) → paced (pipe) → http.Response.
package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"runnel/stream"
)

// BaseURL is the base URL to give the stream client with a Provider as its
// transport. The .invalid domain can never resolve, so a misrouted request
// fails instead of leaving the machine.
const BaseURL = "http://demo.invalid/v1"

// Model is the name the demo answers under: every response reports it,
// whatever model the request named, since no model answers. The chat's
// status line and /status show it, marked as the demo.
const Model = "runnel-demo"

// maxBody caps the request body the demo reads (long conversations resend
// their history; this is far above any of them).
const maxBody = 32 << 20

// Options configures a Provider.
type Options struct {
	Speed float64          // 1 = natural pacing; 2 = twice as fast; 0 = no delays (tests)
	Now   func() time.Time // clock for created_at; nil means time.Now
}

// Provider answers Responses API requests with scripted streams.
//
// Invariants:
//   - count is the number of responses started; the n-th is resp_demo_<n>,
//     so ids are unique per Provider.
//   - rotation counts prompts answered without a keyword; the next such prompt
//     gets showcases[rotation % len(showcases)].
//
// Concurrency: RoundTrip may be called from several goroutines; mu guards
// count and rotation. Each stream has its own goroutine and pipe.
type Provider struct {
	speed float64
	now   func() time.Time

	mu       sync.Mutex
	count    int
	rotation int
}

var _ http.RoundTripper = (*Provider)(nil)

// New returns a Provider. A negative Speed counts as 0.
func New(o Options) *Provider {
	p := &Provider{speed: max(o.Speed, 0), now: o.Now}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

// RoundTrip answers POST …/responses; any other method or path gets the 404
// a real server sends. It closes req.Body, as the RoundTripper contract asks.
func (p *Provider) RoundTrip(req *http.Request) (*http.Response, error) {
	raw, err := readBody(req)
	if err != nil {
		return nil, fmt.Errorf("demo provider: read request body: %w", err)
	}
	if req.Method != http.MethodPost || !strings.HasSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/responses") {
		return errorResponse(req, http.StatusNotFound, "invalid_request_error", "",
			fmt.Sprintf("Invalid URL (%s %s)", req.Method, req.URL.Path)), nil
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	var r stream.Request
	if err := json.Unmarshal(raw, &r); err != nil {
		return errorResponse(req, http.StatusBadRequest, "invalid_request_error", "",
			"We could not parse the JSON body of your request: "+err.Error()), nil
	}

	b := p.start(r, len(raw))
	if !r.Stream {
		return finalResponse(req, b), nil
	}
	resp := newResponse(req, http.StatusOK, "text/event-stream; charset=utf-8")
	resp.Header.Set("X-Request-Id", fmt.Sprintf("req_demo_%d", b.n))
	resp.Body = paced(req.Context(), b.events, p.speed)
	return resp, nil
}

// start picks the script for r and builds its events.
func (p *Provider) start(r stream.Request, bodyLen int) *builder {
	t := readTurn(r.Input)
	p.mu.Lock()
	p.count++
	n := p.count
	play := p.pick(t)
	p.mu.Unlock()

	b := &builder{n: n, speed: p.speed, obf: newObfuscator(uint64(n)), resp: baseResponse(r, n, p.now())}
	b.encrypt = slices.Contains(r.Include, "reasoning.encrypted_content")
	b.inputTokens = 24 + bodyLen/4
	if r.PreviousResponseID != "" {
		b.inputTokens += 640 // the stored earlier turns
		b.cachedTokens = 512
	}
	b.start()
	play(b)
	return b
}

// pick chooses what to play for t. Callers hold p.mu.
func (p *Provider) pick(t turn) func(*builder) {
	if a := t.approval; a != nil {
		if a.approve {
			return func(b *builder) { playApproved(b, a.requestID) }
		}
		return playDenied
	}
	if t.outputs != nil {
		return func(b *builder) { playToolResults(b, t.outputs) }
	}
	if sc, ok := byKeyword(t.text); ok {
		return sc.play
	}
	sc := showcases[p.rotation%len(showcases)]
	p.rotation++
	return sc.play
}

// baseResponse is the response object as created: request fields echoed,
// server defaults filled in.
func baseResponse(r stream.Request, n int, now time.Time) response {
	resp := response{
		ID: fmt.Sprintf("resp_demo_%d", n), Object: "response", CreatedAt: now.Unix(),
		FrequencyPenalty: "0.0", PresencePenalty: "0.0", Temperature: "1.0", TopP: "1.0",
		Model: Model, ParallelToolCalls: true, ServiceTier: "default", Store: true,
		ToolChoice: "auto", Tools: []json.RawMessage{}, Truncation: "disabled",
	}
	if r.Instructions != "" {
		resp.Instructions = &r.Instructions
	}
	if r.PreviousResponseID != "" {
		resp.PreviousResponseID = &r.PreviousResponseID
	}
	if r.Store != nil {
		resp.Store = *r.Store
	}
	if len(r.Tools) > 0 {
		resp.Tools = r.Tools
	}
	effort := "medium"
	resp.Reasoning.Effort = &effort
	if r.Reasoning != nil {
		if r.Reasoning.Effort != "" {
			resp.Reasoning.Effort = &r.Reasoning.Effort
		}
		if r.Reasoning.Summary != "" {
			resp.Reasoning.Summary = &r.Reasoning.Summary
		}
	}
	resp.Text.Format.Type = "text"
	resp.Text.Verbosity = "medium"
	return resp
}

// finalResponse answers a request with "stream": false: the finished
// response object, or the error a failed response carries.
func finalResponse(req *http.Request, b *builder) *http.Response {
	if e := b.resp.Error; e != nil {
		return errorResponse(req, http.StatusInternalServerError, e.Code, e.Code, e.Message)
	}
	resp := newResponse(req, http.StatusOK, "application/json")
	setBody(resp, encode(b.resp))
	return resp
}

// errorResponse is an OpenAI-shaped JSON error; code "" is sent as null.
func errorResponse(req *http.Request, status int, typ, code, message string) *http.Response {
	var c any
	if code != "" {
		c = code
	}
	resp := newResponse(req, status, "application/json")
	setBody(resp, encode(map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": c,
	}}))
	return resp
}

func newResponse(req *http.Request, status int, contentType string) *http.Response {
	return &http.Response{
		Status:     fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode: status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {contentType}},
		ContentLength: -1,
		Request:       req,
	}
}

func setBody(resp *http.Response, b []byte) {
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
}

// readBody reads and closes req.Body, up to maxBody bytes.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxBody {
		return nil, errors.New("larger than 32 MiB")
	}
	return raw, nil
}
