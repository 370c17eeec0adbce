package stream

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"runnel/stream/httppolicy"
)

// Defaults for the zero values of Client's fields.
const (
	defaultBaseURL     = "https://api.openai.com/v1"
	defaultMaxRetries  = 3
	defaultIdleTimeout = 5 * time.Minute
	defaultBaseDelay   = 500 * time.Millisecond
	defaultMaxDelay    = 30 * time.Second
)

// Client opens Responses streams over HTTP. The zero value talks to OpenAI
// with no key; fields are read on every Open and must not change during one.
// A Client is safe for concurrent use.
type Client struct {
	BaseURL string            // default "https://api.openai.com/v1"; trailing slash tolerated
	APIKey  string            // sent as "Authorization: Bearer …" when non-empty
	Headers map[string]string // extra headers (from config); set last, so they override
	// Transport sends the requests (the built-in demo, a test's); nil:
	// the network. Either way the client is httppolicy's: see httpClient.
	Transport      http.RoundTripper
	ConnectTimeout time.Duration   // dialing and TLS; default httppolicy.DefaultConnect
	MaxRetries     int             // retries before the first byte; 0 means 3, negative means none
	IdleTimeout    time.Duration   // max gap between bytes, headers included; default 5m
	BaseDelay      time.Duration   // first backoff step, default 500ms
	MaxDelay       time.Duration   // cap on one backoff wait, default 30s
	OnRetry        func(RetryInfo) // optional: called before each wait

	// KeyHint is what to check when the server rejects the key, naming
	// the provider's own variable or command ("$FAKE_KEY (provider
	// \"fake\")"); "" says OPENAI_API_KEY and the config keys.
	KeyHint string

	// Secrets, when set, are hidden in everything the server sends (error
	// bodies, events): see Redactor. The API key, the header values and the
	// request's hosted MCP authorization and header values are added to it
	// on each request, so they are hidden even when it is nil.
	Secrets *Redactor

	// clock, when set, is the time, waits and jitter a background stream's
	// resuming and polling use (tests); nil: the real ones.
	clock *clock
}

// redactor is Secrets (a new set when nil) with the client's own secrets
// and those the request carries added.
func (c *Client) redactor(req *Request) *Redactor {
	r := c.Secrets
	if r == nil {
		r = NewRedactor()
	}
	r.Add(c.APIKey)
	for _, v := range c.Headers {
		r.Add(v)
	}
	if req != nil {
		r.Add(ToolSecrets(req.Tools)...)
	}
	return r
}

// ToolSecrets returns the secret values request tools carry: a hosted MCP
// tool's authorization and header values.
func ToolSecrets(tools []json.RawMessage) []string {
	var out []string
	for _, raw := range tools {
		var t struct {
			Type          string            `json:"type"`
			Authorization string            `json:"authorization"`
			Headers       map[string]string `json:"headers"`
		}
		if json.Unmarshal(raw, &t) != nil || t.Type != "mcp" {
			continue
		}
		out = append(out, t.Authorization)
		for _, v := range t.Headers {
			out = append(out, v)
		}
	}
	return out
}

// DefaultBaseURL is the base URL used when Client.BaseURL is empty.
func DefaultBaseURL() string { return defaultBaseURL }

// Open sends req (with Stream forced on) to POST {BaseURL}/responses and
// returns the event stream's body once its first bytes have arrived.
//
// Failures before the first byte are retried up to MaxRetries times with
// backoff (see RetryInfo): connection errors, 408/409/429/5xx, and a 2xx
// body that fails before any data. Other statuses return an *APIError at
// once. Nothing is retried after the first byte: a later failure surfaces
// from Read. Reads fail with an error wrapping ErrIdleTimeout when the
// server is silent for IdleTimeout, and with ctx's error when ctx is done.
// The caller must Close the stream.
func (c *Client) Open(ctx context.Context, req Request) (io.ReadCloser, error) {
	endpoint, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	header, err := c.header()
	if err != nil {
		return nil, err
	}
	req.Stream = true
	if req.Background {
		req.Store = new(true)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	return withRetries(ctx, c, "", func() (io.ReadCloser, error) {
		return c.attempt(ctx, http.MethodPost, endpoint, header, body, req.Model)
	})
}

// attempt sends the request once. The idle timer covers the wait for the
// headers and for the first bytes too.
func (c *Client) attempt(ctx context.Context, method string, endpoint *url.URL, header http.Header, body []byte, model string) (io.ReadCloser, error) {
	idle := orDefault(c.IdleTimeout, defaultIdleTimeout)
	actx, cancel, timer := armIdle(ctx, idle, endpoint.Host)
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	var water *lowWater // the connection's, once known (connTrace)
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(actx, connTrace(&water)), method, endpoint.String(), rd)
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, fmt.Errorf("build request: %w", err)
	}
	hreq.Header = header.Clone()
	resp, err := c.httpClient(endpoint).Do(hreq)
	if err != nil {
		timer.Stop()
		cause := context.Cause(actx)
		cancel(nil)
		if cause != nil {
			return nil, cause // idle timeout, or the caller's cancellation
		}
		return nil, newConnError(endpoint.Host, err)
	}
	r := &idleReader{body: resp.Body, ctx: actx, cancel: cancel, timer: timer, timeout: idle, host: endpoint.Host, water: water}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || !eventStream(resp.Header) {
		data, err := io.ReadAll(io.LimitReader(r, maxErrorBody))
		r.Close()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if errors.Is(err, ErrIdleTimeout) {
			return nil, err
		}
		return nil, c.apiError(resp, data, model)
	}
	if err := r.prime(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// eventStream reports whether a 2xx response may be an event stream. Only
// bodies that clearly are something else are refused (an HTML page from a
// proxy or captive portal, a JSON object from a server that ignored
// stream: true); servers that omit or misstate the SSE type still work.
func eventStream(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return true
	}
	return mt != "text/html" && mt != "application/json" && mt != "application/problem+json"
}

// endpoint is {BaseURL}/responses, checked to be an http(s) URL.
func (c *Client) endpoint() (*url.URL, error) {
	base := strings.TrimSpace(c.BaseURL)
	if base == "" {
		base = defaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/") + "/responses")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q is not an http(s) URL — check base_url / OPENAI_BASE_URL (e.g. %s)",
			SanitizeLine(base), defaultBaseURL)
	}
	return u, nil
}

// header builds the request headers that are not secret, after checking
// the secret ones (which the HTTP policy attaches: see secrets).
func (c *Client) header() (http.Header, error) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("User-Agent", userAgent())
	if key := strings.TrimSpace(c.APIKey); key != "" && !validHeaderValue(key) {
		return nil, errors.New("API key contains control characters — " + keyAdvice(c.KeyHint))
	}
	for k, v := range c.Headers {
		if !validHeaderName(k) || !validHeaderValue(v) {
			return nil, fmt.Errorf("header %q is not a valid HTTP header — fix headers in config", SanitizeLine(k))
		}
	}
	return h, nil
}

// secrets are the headers the policy attaches to requests for the base
// URL's origin, and to no other: the key, then the configured headers (so
// config can override).
func (c *Client) secrets() http.Header {
	h := http.Header{}
	if key := strings.TrimSpace(c.APIKey); key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	for k, v := range c.Headers {
		h.Set(k, v)
	}
	return h
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7F || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7F {
			return false
		}
	}
	return true
}

// userAgent is "runnel/<module version>", or "runnel/dev" in a dev build.
var userAgent = sync.OnceValue(func() string {
	v := "dev"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	return "runnel/" + v
})

// httpClient is the policy's client for the base URL's origin (u is a URL
// on it): redirects are followed only within it, nothing is sent to any
// other, and the key and configured headers are attached there by the
// policy, so neither they nor the conversation reach another origin. The
// time to connect is ConnectTimeout; the idle timer (armIdle) bounds the
// wait for headers and between bytes; each event of a stream is bounded by
// the Scanner, and a JSON body by its reader, so the policy's bound on a
// body is only past theirs.
func (c *Client) httpClient(u *url.URL) *http.Client {
	return httppolicy.New(httppolicy.Options{
		Origin:    u.String(),
		Secrets:   c.secrets(),
		Connect:   c.ConnectTimeout,
		MaxBody:   maxResponseJSON + 1,
		MaxEvent:  -1,
		Hint:      "if the API has moved, set base_url to it",
		Transport: c.Transport,
	})
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// connError is a request that got no HTTP response at all.
type connError struct {
	host         string
	reason, hint string
	retry        bool
	err          error
}

func (e *connError) Error() string {
	return e.Brief() + " — " + e.hint
}

// Brief is Error without the hint: what failed and where. The chat shows
// it while it retries; the hint comes with the failure, if the retries run
// out.
func (e *connError) Brief() string {
	return "connect to " + e.host + ": " + e.reason
}

func (e *connError) Unwrap() error   { return e.err }
func (e *connError) Retryable() bool { return e.retry }

// newConnError names the failure in words a user can act on. Mistakes that
// retrying cannot fix (unknown host, untrusted certificate, TLS to a plain
// HTTP server) are not retryable. A redirect to another origin that was
// refused comes back as its *RedirectError (not retryable either).
func newConnError(host string, err error) error {
	if re := httppolicy.Cause(err); re != nil {
		return re
	}
	if errors.Is(err, httppolicy.ErrBodyLimit) {
		return err
	}
	e := &connError{host: host, err: err, retry: true, hint: "check base_url / OPENAI_BASE_URL and your network"}
	var (
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		recErr  tls.RecordHeaderError
		netErr  net.Error
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		e.reason, e.hint = "connection refused", "is it running? check base_url" // short: the chat shows it in one line
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		e.reason, e.hint, e.retry = "no such host", "check base_url / OPENAI_BASE_URL", false
	case errors.As(err, &dnsErr):
		e.reason, e.hint = "DNS lookup failed ("+SanitizeLine(dnsErr.Err)+")", "check your network"
	case errors.As(err, &certErr):
		e.reason = "TLS certificate not trusted (" + SanitizeLine(certErr.Err.Error()) + ")"
		e.hint, e.retry = "check base_url, or install the server's CA certificate", false
	case errors.As(err, &recErr):
		e.reason, e.hint, e.retry = "the server does not speak TLS", "use http:// in base_url", false
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		e.reason, e.hint, e.retry = "the server speaks plain HTTP, not HTTPS", "use http:// in base_url", false
	case errors.Is(err, syscall.ECONNRESET):
		e.reason = "connection reset by the server"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		e.reason = "the server closed the connection without a response"
	case errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH):
		e.reason, e.hint = "network unreachable", "check your network"
	case errors.As(err, &netErr) && netErr.Timeout():
		e.reason, e.hint = "timed out", "check your network or proxy, and base_url"
	default:
		inner := err
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			inner = urlErr.Err
		}
		e.reason = truncateRunes(SanitizeLine(inner.Error()), maxMessageRunes)
	}
	return e
}
