package httppolicy

// This file is the round trip every client's request makes: the origin
// check, the secrets for the origin, the bounds on the response body.

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
)

// policy is the http.RoundTripper of a client from New.
//
// Invariants: origin is nil when Options.Origin is empty; bad is set when
// Options.Origin was given but is not a URL with a host (then nothing is
// sent); base is never nil.
type policy struct {
	o      Options
	origin *url.URL
	bad    bool
	base   http.RoundTripper
}

// OriginError is a request for another origin than the one a client is
// bound to: nothing was sent.
type OriginError struct {
	Origin, To string
}

func (e *OriginError) Error() string {
	return "runnel sends this client's requests only to " + e.Origin + ", not to " + e.To +
		" — the server named an address on another origin; nothing was sent there"
}

func (p *policy) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.bad {
		closeBody(req)
		return nil, errors.New("the server address " + clean(p.o.Origin, 120) + " is not an http(s) URL — check the config")
	}
	if p.origin != nil {
		if !SameOrigin(p.origin, req.URL) {
			closeBody(req)
			err := &OriginError{Origin: Origin(p.origin), To: Origin(req.URL) + cleanPath(req.URL)}
			p.refused(err)
			return nil, err
		}
		if len(p.o.Secrets) > 0 {
			req = req.Clone(req.Context()) // a RoundTripper must not change the caller's request
			for k, vs := range p.o.Secrets {
				req.Header.Del(k)
				for _, v := range vs {
					req.Header.Add(k, v)
				}
			}
		}
	}
	resp, err := p.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if p.o.OnResponse != nil {
		p.o.OnResponse(req, resp)
	}
	resp.Body = p.bound(req, resp)
	return resp, nil
}

// bound wraps resp's body in the client's size and idle bounds.
func (p *policy) bound(req *http.Request, resp *http.Response) *body {
	b := &body{rc: resp.Body, host: clean(req.URL.Host, 80), refused: p.refused}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		b.event = true
		b.limit = p.o.MaxEvent
		if b.limit == 0 {
			b.limit = DefaultMaxEvent
		}
	} else {
		b.limit = p.o.MaxBody
		if b.limit <= 0 {
			b.limit = DefaultMaxBody
		}
	}
	if p.o.Idle > 0 {
		b.arm(p.o.Idle)
	}
	return b
}

// refused tells Options.OnRefuse, if any.
func (p *policy) refused(err error) {
	if p.o.OnRefuse != nil {
		p.o.OnRefuse(err)
	}
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}
