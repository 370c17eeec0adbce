package httppolicy

// This file is the redirect rule: a redirect is followed only within the
// origin of the request it answers. A request carries secrets and, for a
// POST, a whole conversation; a server that sends it elsewhere gets a
// RedirectError, and the other origin gets nothing at all.

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// RedirectError is a redirect to another origin that a client refused:
// nothing was sent there. From and To are scheme://host:port (To with its
// path), without user info, query or fragment (which may hold secrets), and
// sanitized.
type RedirectError struct {
	From, To string
	Hint     string // what to do; "" a general hint
}

func (e *RedirectError) Error() string {
	hint := e.Hint
	if hint == "" {
		hint = "if the server has moved, put its new address in the config"
	}
	return "the server at " + e.From + " redirected the request to " + e.To +
		", another origin, so runnel did not send it there — " + hint
}

// checkRedirect is every client's CheckRedirect. A redirect to another
// origin stops with a *RedirectError before anything is sent to it. Within
// the origin, it is followed unless it would change the method (a 301, 302
// or 303 turns a POST into a GET without its body: the redirect comes back
// as the response, and shows as such), at most MaxRedirects times.
func checkRedirect(hint string, refused func(error)) func(req *http.Request, via []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if !SameOrigin(first.URL, req.URL) {
			err := &RedirectError{From: Origin(first.URL), To: Origin(req.URL) + cleanPath(req.URL), Hint: hint}
			if refused != nil {
				refused(err)
			}
			return err
		}
		if req.Method != first.Method || len(via) >= MaxRedirects {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// SameOrigin reports whether a and b have the same scheme, host and port
// (a missing port is the scheme's default).
func SameOrigin(a, b *url.URL) bool {
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

// Origin is scheme://host:port, the port always written, sanitized.
func Origin(u *url.URL) string {
	return clean(strings.ToLower(u.Scheme)+"://"+net.JoinHostPort(u.Hostname(), portOf(u)), 200)
}

// cleanPath is u's path, sanitized and cut short, for a message.
func cleanPath(u *url.URL) string {
	p := clean(u.EscapedPath(), 120)
	if p == "" {
		return "/"
	}
	return p
}

// clean makes s safe for one line of a terminal: bytes outside printable
// ASCII are percent-escaped (as in a URL), and it is cut to at most n
// bytes with "…".
func clean(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > ' ' && c < 0x7f {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15]))
		}
		if b.Len() >= n {
			return b.String() + "…"
		}
	}
	return b.String()
}

// Cause returns the *RedirectError or *OriginError inside err, a failed
// request's error, or nil.
func Cause(err error) error {
	var re *RedirectError
	if errors.As(err, &re) {
		return re
	}
	var oe *OriginError
	if errors.As(err, &oe) {
		return oe
	}
	return nil
}
