package session

// This file is how runnel learns that a server keeps no conversation state:
// it ignores previous_response_id (Ollama answers previous_response_id null
// and store false, llama.cpp echoes no previous_response_id at all), or
// refuses it (Groq, OpenRouter), or loses the responses it just gave (vLLM
// without its store). The turn is then sent again with the history
// (Conversation.Rebuild), and the provider is remembered on disk
// (ProviderMemory), so later turns, and later runs, send the history from
// the start (Conversation.Stateless). The turn engine (engine.go) applies
// these rules; the provider's record (memory.go) remembers.

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"runnel/stream"
)

// ChainIgnored reports whether the server ignored the chain req asked for:
// req carried previous_response_id, and the response object the server sent
// (s, as of its first lifecycle event) says previous_response_id null, says
// nothing of it, or says store false when req asked to store. A request that
// did not chain, and a snapshot with no response object yet, say nothing.
func ChainIgnored(req stream.Request, s *stream.Snapshot) bool {
	if req.PreviousResponseID == "" || s == nil || !s.Echoed {
		return false
	}
	if !s.EchoedPrevious || s.PreviousResponseID == "" {
		return true
	}
	asked := req.Store == nil || *req.Store
	return asked && s.EchoedStore != nil && !*s.EchoedStore
}

// ChainLost reports whether err is the server's answer that it cannot
// continue the request's chain (stream.APIError.PreviousResponseNotFound):
// the turn is then sent again from local history.
func ChainLost(err error) bool {
	var apiErr *stream.APIError
	return errors.As(err, &apiErr) && apiErr.PreviousResponseNotFound()
}

// KeepsNoState reports whether a lost chain (ChainLost) shows that the
// provider keeps no state at all, rather than that one response expired:
// the server refused previous_response_id itself, answered 404 (vLLM
// without its store), or lost a response it gave in this run (a server that stores responses keeps them for days; one
// loaded from the history may have expired). t is the turn that failed, as
// sent (before Rebuild).
func (c *Conversation) KeepsNoState(t *Turn, err error) bool {
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || !apiErr.PreviousResponseNotFound() {
		return false
	}
	if apiErr.ChainUnsupported() || apiErr.Status == http.StatusNotFound {
		// refused, or vLLM's 404: it keeps responses in memory, if at all,
		// so a response it does not have it never kept
		return true
	}
	id := t.Request.PreviousResponseID
	if id == "" {
		return false
	}
	for _, earlier := range c.Turns {
		if earlier == t {
			break
		}
		for _, s := range earlier.Responses {
			if s.ID == id {
				return earlier.Stored == ""
			}
		}
	}
	return false
}

// ResendStateless rebuilds t (the last turn) to carry the whole
// conversation, and marks the conversation stateless: its later turns send
// the history from the start.
func (c *Conversation) ResendStateless(t *Turn) stream.Request {
	c.Stateless = true
	return c.Rebuild(t)
}

// Why a provider is taken for one that keeps no state (StatelessNotice).
const (
	WhyIgnored = "it ignored previous_response_id"
	WhyRefused = "it refused previous_response_id"
	WhyLost    = "it lost the response it gave"
)

// StatelessNotice is the one line that says a provider keeps no state, and
// why (WhyIgnored…).
func StatelessNotice(provider, why string) string {
	return stream.SanitizeLine(provider) + " keeps no conversation state (" + why + ") — sending the history with each turn from now on"
}

// StatelessWhy is why a lost chain (KeepsNoState) shows that a provider
// keeps no state.
func StatelessWhy(err error) string {
	var apiErr *stream.APIError
	if errors.As(err, &apiErr) && apiErr.ChainUnsupported() {
		return WhyRefused
	}
	return WhyLost
}

// ProviderKey is how a provider is known to its record (ProviderMemory): its base URL
// ("" is OpenAI's), without credentials, query or trailing slash.
func ProviderKey(baseURL string) string {
	base := strings.TrimSpace(baseURL)
	if base == "" {
		base = stream.DefaultBaseURL()
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		base = u.String()
	}
	return strings.TrimRight(base, "/")
}

// ProviderName is the host of a provider key, for notices ("localhost:11434").
func ProviderName(key string) string {
	if u, err := url.Parse(key); err == nil && u.Host != "" {
		return u.Host
	}
	return key
}

// StatelessTTL is how long what a provider refuses is remembered: a
// server may be restarted with a store (vLLM), or upgraded, and then take
// it again.
const StatelessTTL = 30 * 24 * time.Hour
