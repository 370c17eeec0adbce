package stream

// This file is the redirect policy of every request the client makes: a
// redirect is followed only within the origin (scheme, host and port) of
// the request it answers. A request carries the API key, the configured
// secret headers and, for a POST, the whole conversation; a server that
// sends it elsewhere gets a RedirectError instead, and the other origin
// gets nothing at all.

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is how many redirects within the origin one request follows.
const maxRedirects = 5

// RedirectError is a redirect to another origin that the client refused:
// nothing was sent there. From and To are scheme://host:port/path, without
// user info, query or fragment (which may hold secrets), and sanitized.
type RedirectError struct {
	From, To string
}

func (e *RedirectError) Error() string {
	return "the server at " + e.From + " redirected the request to " + e.To +
		", another origin, so runnel did not send it there — if the API has moved, set base_url to it"
}

// checkRedirect is every client's CheckRedirect (see Client.httpClient). A
// redirect to another origin stops with a *RedirectError before anything
// is sent to it. Within the origin, it is followed unless it would change
// the method (a 301, 302 or 303 turns a POST into a GET without its body:
// the redirect comes back as the response, and shows as such), at most
// maxRedirects times.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	if !sameOrigin(first.URL, req.URL) {
		return &RedirectError{From: originOf(first.URL), To: originOf(req.URL) + cleanPath(req.URL)}
	}
	if req.Method != first.Method || len(via) >= maxRedirects {
		return http.ErrUseLastResponse
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (a missing port is the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

// portOf is u's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// originOf is scheme://host:port, the port always written, sanitized.
func originOf(u *url.URL) string {
	host := u.Hostname()
	return SanitizeLine(strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(host, portOf(u)))
}

// cleanPath is u's path, sanitized and cut short, for a message.
func cleanPath(u *url.URL) string {
	p := SanitizeLine(u.EscapedPath())
	if p == "" {
		return "/"
	}
	return truncateRunes(p, 120)
}

// redirectCause returns the *RedirectError inside err, a failed request's
// error, or nil.
func redirectCause(err error) *RedirectError {
	var re *RedirectError
	if errors.As(err, &re) {
		return re
	}
	return nil
}
