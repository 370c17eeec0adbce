package tools

// This file connects to MCP servers on the network ([[mcp_servers]] with a
// url): streamable HTTP first, SSE for older servers (when the first POST
// is refused with a 4xx other than 401/403, or when the config says sse),
// with the configured headers on every request and an OAuth login's token
// when there is one.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// headerTransport adds a server's headers to every request and remembers
// the status of the first POST, which decides the SSE fallback.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string

	mu        sync.Mutex
	firstPost int // the status of the first POST; 0 before it
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			if req.Header.Get(k) == "" { // an OAuth token set by the SDK wins
				req.Header.Set(k, v)
			}
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost {
		t.mu.Lock()
		if t.firstPost == 0 {
			t.firstPost = resp.StatusCode
		}
		t.mu.Unlock()
	}
	return resp, err
}

func (t *headerTransport) firstStatus() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.firstPost
}

// startHTTP opens the session with a network server. The caller records
// the result.
func (s *server) startHTTP(ctx context.Context) (*conn, error) {
	ht := &headerTransport{base: http.DefaultTransport, headers: s.cfg.Headers}
	client := &http.Client{Transport: ht}
	var transport mcp.Transport
	if s.cfg.SSE {
		transport = sseTransport{&mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: client}}
	} else {
		transport = &mcp.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, OAuthHandler: s.cfg.OAuth} // the event stream reconnects (5 tries), as the SDK does
	}
	cs, err := s.m.client.Connect(ctx, transport, nil)
	if err != nil && !s.cfg.SSE && ctx.Err() == nil {
		if st := ht.firstStatus(); st >= 400 && st < 500 && st != http.StatusUnauthorized && st != http.StatusForbidden {
			ht = &headerTransport{base: http.DefaultTransport, headers: s.cfg.Headers}
			sse := sseTransport{&mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: &http.Client{Transport: ht}}}
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
		if st := ht.firstStatus(); st == http.StatusUnauthorized || st == http.StatusForbidden {
			if s.cfg.OAuth != nil {
				return nil, &LoginError{Server: s.cfg.Name, What: fmt.Sprintf("refused runnel's login (HTTP %d)", st)}
			}
			return nil, fmt.Errorf("mcp server %s refused the configured credentials (HTTP %d): check its headers or bearer_token_env", s.cfg.Name, st)
		}
		return nil, fmt.Errorf("mcp server %s: %s", s.cfg.Name, connectLine(s.cfg.URL, err))
	}
	c := &conn{cs: cs, done: make(chan struct{})}
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
