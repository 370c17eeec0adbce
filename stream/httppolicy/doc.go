// Package httppolicy builds every HTTP client runnel uses: the Responses
// API and its /models, /conversations and background polling, MCP servers
// over streamable HTTP and SSE, and OAuth discovery, registration and
// tokens. Nothing else in runnel builds an http.Client or an http.Transport
// (guard_test.go fails the build's tests if something does).
//
// A client from New:
//   - follows a redirect only within the origin (scheme, host and port) of
//     the request it answers; a redirect to another origin stops with a
//     *RedirectError, whose one line names where the server tried to send
//     the request (without user info or query), and nothing is sent there;
//   - when bound to an origin (Options.Origin), sends nothing to any other
//     origin, and attaches the secrets (Options.Secrets: the API key,
//     configured headers, bearer tokens) itself, to requests for that
//     origin only: the caller never puts them on a request, so no hop and
//     no other host can carry them;
//   - reads every response body with a bound (Options.MaxBody for a body,
//     Options.MaxEvent for each event of an event stream): past it the read
//     fails with a *BodyLimitError, one line;
//   - bounds the time to connect (dial and TLS), to the first byte (the
//     response headers) and between bytes of a body (idle), as its Options
//     say; the defaults are in bounds.go, the one table of HTTP bounds.
//
// What it does not do: retries, backoff, decoding, or telling a user's
// mistake from a server's (package stream does that); it holds no state
// between clients but the shared connection pools.
package httppolicy
