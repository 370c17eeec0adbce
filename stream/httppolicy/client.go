package httppolicy

// This file builds the clients: Options, New, and the shared network
// transports underneath.

import (
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"
	"time"
)

// Options say how a client from New behaves. The zero value is a client
// bound to no origin, with no secrets and the default bounds.
type Options struct {
	// Origin, when set, is a URL whose origin (scheme, host and port) is
	// the only one the client sends to: a request for another fails with
	// an *OriginError before anything is sent. Secrets are attached to
	// requests for it.
	Origin string

	// Secrets are headers (the API key's Authorization, configured
	// headers, a bearer token) the client sets on every request to Origin,
	// over what the request carries. They need an Origin: without one they
	// are never sent.
	Secrets http.Header

	// Connect bounds dialing and TLS; 0: DefaultConnect.
	Connect time.Duration
	// FirstByte bounds the wait for the response headers; 0: none (the
	// caller's context or idle timer bounds it).
	FirstByte time.Duration
	// Idle bounds each gap between bytes of a body; 0: none.
	Idle time.Duration

	// MaxBody bounds a body that is not an event stream; 0:
	// DefaultMaxBody. MaxEvent bounds each event of an event stream; 0:
	// DefaultMaxEvent, negative: none (the caller's decoder bounds them).
	MaxBody, MaxEvent int64

	// PublicOnly refuses to connect to an address that is not public
	// (loopback, private, link-local, shared, unspecified), for requests
	// whose URL a server chose (OAuth metadata).
	PublicOnly bool

	// Hint is what a *RedirectError tells the user to do; "" a general one.
	Hint string

	// OnRefuse, when set, is told each request the policy refused (a
	// *RedirectError or an *OriginError) and each body it cut (a
	// *BodyLimitError): a caller whose library words errors its own way
	// can say the policy's one line instead.
	OnRefuse func(err error)

	// OnResponse, when set, sees each response's request and status
	// (before the body is read).
	OnResponse func(req *http.Request, resp *http.Response)

	// Transport is what sends the requests (a test's, the built-in demo);
	// nil: a shared network transport with the Connect and FirstByte
	// bounds.
	Transport http.RoundTripper
}

// New returns a client with the policy of o. Its requests should carry no
// secret of their own: o.Secrets are attached where they belong.
func New(o Options) *http.Client {
	p := &policy{o: o}
	if o.Origin != "" {
		if u, err := url.Parse(o.Origin); err == nil && u.Host != "" {
			p.origin = u
		} else {
			p.bad = true // an origin that is not one: send nothing at all
		}
	}
	p.base = o.Transport
	if p.base == nil {
		p.base = network(netKey{connect: orDefault(o.Connect, DefaultConnect), firstByte: o.FirstByte, publicOnly: o.PublicOnly})
	}
	return &http.Client{Transport: p, CheckRedirect: checkRedirect(o.Hint, o.OnRefuse)}
}

// netKey is what tells shared network transports apart.
type netKey struct {
	connect, firstByte time.Duration
	publicOnly         bool
}

var (
	netMu         sync.Mutex
	netTransports = map[netKey]*http.Transport{}
)

// network is the shared transport for k: clients with the same bounds
// share its connections.
func network(k netKey) *http.Transport {
	netMu.Lock()
	defer netMu.Unlock()
	if t, ok := netTransports[k]; ok {
		return t
	}
	d := &net.Dialer{Timeout: k.connect, KeepAlive: 30 * time.Second}
	if k.publicOnly && !proxied() { // through a proxy, the dial is the proxy's, not the URL's
		d.Control = publicOnly
	}
	t := &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    k.connect,
		ExpectContinueTimeout:  time.Second,
		ResponseHeaderTimeout:  k.firstByte,
		MaxResponseHeaderBytes: MaxHeader,
		ReadBufferSize:         64 << 10, // a fast stream in fewer reads
	}
	netTransports[k] = t
	return t
}

// proxied reports whether the environment names a proxy for HTTPS.
func proxied() bool {
	req, err := http.NewRequest(http.MethodGet, "https://proxy-check.invalid/", nil)
	if err != nil {
		return false
	}
	u, err := http.ProxyFromEnvironment(req)
	return err == nil && u != nil
}

// publicOnly is a dialer's Control for Options.PublicOnly.
func publicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	ip := net.ParseIP(host)
	if ip == nil || !public(ip) {
		return &net.AddrError{Err: "not a public address (refused for a URL the server chose)", Addr: host}
	}
	return nil
}

// shared is 100.64.0.0/10, carrier-grade NAT: not public either.
var shared = &net.IPNet{IP: net.IPv4(100, 64, 0, 0), Mask: net.CIDRMask(10, 32)}

func public(ip net.IP) bool {
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() || shared.Contains(ip))
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
