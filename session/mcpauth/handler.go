package mcpauth

// This file gives a session the saved login to a server: the token for
// every request, refreshed when it has expired and saved again, and one
// line when the server refuses it.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/httppolicy"
)

// Handler is a session's auth.OAuthHandler for one server: it never opens
// a browser; a refused or missing login is a *tools.LoginError.
//
// Invariants: login and base are nil when there is no saved login (or it
// could not be read: loadErr says why); base refreshes from login's
// refresh token; every token Token returns is in secrets before it leaves.
type Handler struct {
	name    string
	store   Store
	secrets *stream.Redactor

	mu         sync.Mutex
	login      *Login
	loadErr    error
	base       oauth2.TokenSource
	refreshErr error // the last refresh the token endpoint refused
	refused    error // what the HTTP policy last refused the token endpoint
}

var _ auth.OAuthHandler = (*Handler)(nil)

// NewHandler reads the saved login to serverURL for the server called
// name; its secrets join secrets. The token endpoint is reached with the
// HTTP policy's OAuth client.
func NewHandler(name, serverURL string, store Store, secrets *stream.Redactor) *Handler {
	h := &Handler{name: name, store: store, secrets: secrets}
	h.login, h.loadErr = store.Load(serverURL)
	if h.login != nil {
		secrets.Add(h.login.Secrets()...)
		refuse := func(err error) { h.refused = err }                                                 // called within Token, under mu
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, oauthClient(false, refuse)) // the token URL was checked at login
		h.base = h.login.config().TokenSource(ctx, h.login.token())
	}
	return h
}

// TokenSource gives the saved login's token, or nil without a login.
func (h *Handler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.base == nil {
		return nil, nil
	}
	return h, nil
}

// Token is the current token; a refreshed one is added to the secrets and
// saved.
func (h *Handler) Token() (*oauth2.Token, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.refused = nil
	t, err := h.base.Token()
	if err != nil && h.refused != nil { // its line, not oauth2's wrapping of it
		return nil, fmt.Errorf("mcp server %s: renewing the saved login: %v", h.name, h.refused)
	}
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) { // the server will refuse us: say so now, in one line
			h.refreshErr = err
			return nil, &tools.LoginError{Server: h.name, What: "refused to renew the saved login (" + refusal(err) + ")"}
		}
		return nil, err
	}
	if t.AccessToken != h.login.AccessToken {
		if err := checkToken(h.name, t); err != nil {
			h.refreshErr = err
			return nil, &tools.LoginError{Server: h.name, What: "sent a renewed token over " + stream.FormatBytes(httppolicy.MaxToken) + ", which runnel refused"}
		}
		h.secrets.Add(t.AccessToken, t.RefreshToken)
		h.login.setToken(t)
		_ = h.store.Save(h.login) // unsaved, the next run refreshes again
	}
	return t, nil
}

// Authorize is called when the server answers 401 or 403: it says which
// and what to run, in one line.
func (h *Handler) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	what := "needs a login"
	switch {
	case h.loadErr != nil:
		what = "has an unreadable saved login (" + h.loadErr.Error() + ")"
	case h.refreshErr != nil:
		what = "refused to renew the saved login (" + refusal(h.refreshErr) + ")"
	case h.login != nil:
		what = "refused the saved login (" + challengeError(resp) + ")"
	}
	return &tools.LoginError{Server: h.name, What: what}
}

// challengeError is the error a 401's WWW-Authenticate names, else the
// status.
func challengeError(resp *http.Response) string {
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if e := c.Params["error"]; e != "" {
			return stream.SanitizeLine(e)
		}
	}
	return "HTTP " + http.StatusText(resp.StatusCode)
}

func refusal(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode != "" {
		return stream.SanitizeLine(re.ErrorCode)
	}
	return "the token endpoint refused it"
}
