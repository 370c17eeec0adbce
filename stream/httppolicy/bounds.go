package httppolicy

import "time"

// The bounds on what runnel's HTTP clients send and read, which the config
// does not set. They are rows of the one table of bounds (stream.BoundTable
// and stream.FixedBounds, in stream/bounds.go, which the README's limits
// table follows); they stand here because package stream builds on this
// one. A caller may choose a tighter bound in Options; none goes without
// one.
const (
	// DefaultConnect bounds dialing and the TLS handshake (config:
	// timeouts.connect).
	DefaultConnect = 30 * time.Second

	// DefaultMaxBody bounds one response body that is not an event stream:
	// a JSON answer, an error page, a token.
	DefaultMaxBody = 16 << 20

	// DefaultMaxEvent bounds one event of an event stream (a long stream
	// is bounded event by event, not in total).
	DefaultMaxEvent = 16 << 20

	// MaxHeader bounds a response's headers.
	MaxHeader = 1 << 20

	// MaxRedirects is how many redirects within the origin one request
	// follows.
	MaxRedirects = 5

	// MaxToken bounds one OAuth token (access or refresh) runnel accepts,
	// from a token endpoint or a saved login: real ones are a few KiB.
	MaxToken = 64 << 10

	// OAuthMaxBody bounds a body of OAuth discovery, registration or a
	// token endpoint.
	OAuthMaxBody = 512 << 10

	// OAuthWait bounds the first byte of an OAuth answer and each gap
	// within its body.
	OAuthWait = 30 * time.Second

	// MCPProbeWait bounds the whole of the unauthenticated initialize
	// that `runnel mcp list` sends a network server to learn whether it
	// needs a login (connect, answer and body).
	MCPProbeWait = 3 * time.Second
)
