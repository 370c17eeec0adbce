package tools

// This file connects to MCP servers on the network ([[mcp_servers]] with a
// url): streamable HTTP first, SSE for older servers (when the first POST
// is refused with a 4xx other than 401/403, or when the config says sse),
// with the configured headers on every request to the server's origin (the
// HTTP policy attaches them; a redirect to another origin stops) and an
// OAuth login's token when there is one.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
	"runnel/stream/httppolicy"
)

// LoginError is a network server that refused runnel's credentials (or has
// none): one line naming the server, what happened and what to run.
type LoginError struct {
	Server string
	What   string // "needs a login", "refused the saved login (invalid_token)", …
}

func (e *LoginError) Error() string {
	return fmt.Sprintf("mcp server %s %s: run `runnel mcp login %s`", e.Server, e.What, e.Server)
}

// firstPost remembers the status of a connection's first POST, which
// decides the SSE fallback.
type firstPost struct {
	mu     sync.Mutex
	status int // 0 before the first POST
}

func (f *firstPost) see(req *http.Request, resp *http.Response) {
	if req.Method != http.MethodPost {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.status == 0 {
		f.status = resp.StatusCode
	}
}

func (f *firstPost) firstStatus() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// refusal is what the HTTP policy last refused a server (a redirect or
// request to another origin, a body over its bound): its one line says
// more than the SDK's wrapping of it, which also repeats the URL's query.
type refusal struct {
	mu  sync.Mutex
	err error
}

func (r *refusal) set(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = err
}

// peek returns the refusal and keeps it.
func (r *refusal) peek() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// take returns the refusal and forgets it.
func (r *refusal) take() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.err
	r.err = nil
	return err
}

// httpClient is the HTTP policy's client for the server: bound to its
// url's origin, with its headers (and bearer token) attached there by the
// policy and nowhere else; a redirect elsewhere stops with one line.
//
// Its bodies are read through a listingTransport: a listing's page is
// cut at its bound as it streams in, recorded in cuts.
func (s *server) httpClient(fp *firstPost, cuts *listingCuts) *http.Client {
	h := http.Header{}
	for k, v := range s.cfg.Headers {
		h.Set(k, v)
	}
	c := httppolicy.New(httppolicy.Options{
		Origin:     s.cfg.URL,
		Secrets:    h,
		Hint:       "if the server has moved, set its url in [[mcp_servers]]",
		OnResponse: fp.see,
		OnRefuse:   func(err error) { s.refused.set(messageRefusal(err)) },
		MaxBody:    int64(stream.Limits().MCPMessage),
		MaxEvent:   int64(stream.Limits().MCPMessage),
	})
	c.Transport = listingTransport{base: c.Transport, cuts: cuts}
	return c
}

// messageRefusal is the line for what the policy refused: a body or event
// past its bound is a message past mcp_message_bytes, the bound the
// client was given.
func messageRefusal(err error) error {
	var be *httppolicy.BodyLimitError
	if errors.As(err, &be) {
		return messageBoundError(be.Limit)
	}
	return err
}

// startHTTP opens the session with a network server. The caller records
// the result.
func (s *server) startHTTP(ctx context.Context) (*conn, error) {
	s.refused.take() // a refusal of an earlier connection is not this one's
	ht, cuts := &firstPost{}, &listingCuts{}
	client := s.httpClient(ht, cuts)
	var transport mcp.Transport
	if s.cfg.SSE {
		transport = sseTransport{&mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: client}}
	} else {
		transport = &mcp.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, OAuthHandler: s.cfg.OAuth} // the event stream reconnects (5 tries), as the SDK does
	}
	cs, err := s.m.client.Connect(ctx, transport, nil)
	if err != nil && !s.cfg.SSE && ctx.Err() == nil {
		if st := ht.firstStatus(); st >= 400 && st < 500 && st != http.StatusUnauthorized && st != http.StatusForbidden {
			ht = &firstPost{}
			sse := sseTransport{&mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.httpClient(ht, cuts)}}
			cs, err = s.m.client.Connect(ctx, sse, nil)
		}
	}
	if err != nil {
		var le *LoginError
		switch {
		case errors.As(err, &le):
			return nil, le
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return nil, s.startTimedOut("initialize")
		}
		if r := s.refused.take(); r != nil { // its line, not the SDK's wrapping of it
			return nil, fmt.Errorf("mcp server %s: %w", s.cfg.Name, r)
		}
		if st := ht.firstStatus(); st == http.StatusUnauthorized || st == http.StatusForbidden {
			if s.cfg.OAuth != nil {
				return nil, &LoginError{Server: s.cfg.Name, What: fmt.Sprintf("refused runnel's login (HTTP %d)", st)}
			}
			return nil, fmt.Errorf("mcp server %s refused the configured credentials (HTTP %d): check its headers or bearer_token_env", s.cfg.Name, st)
		}
		return nil, fmt.Errorf("mcp server %s: %s", s.cfg.Name, connectLine(s.cfg.URL, err))
	}
	c := &conn{cs: cs, done: make(chan struct{}), cuts: cuts}
	go s.watch(c)
	return c, nil
}

// sseTransport connects as mcp.SSEClientTransport does, but its event
// stream (a GET made with Connect's context) outlives the start's context:
// that context bounds only the connecting.
type sseTransport struct{ *mcp.SSEClientTransport }

func (t sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	live, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	c, err := t.SSEClientTransport.Connect(live)
	if !stop() || err != nil {
		cancel()
		if err == nil {
			c.Close()
			err = ctx.Err()
		}
		return nil, err
	}
	return cancelConn{c, cancel}, nil
}

// cancelConn ends its stream's context when closed.
type cancelConn struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c cancelConn) Close() error {
	defer c.cancel()
	return c.Connection.Close()
}
