package mcpauth

// This file is the HTTP client of OAuth discovery, registration and
// tokens (the HTTP policy's), and the bound on what a token may be.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"

	"golang.org/x/oauth2"

	"runnel/stream"
	"runnel/stream/httppolicy"
)

// oauthClient is the policy's client for OAuth: redirects only within an
// origin, each answer bounded in size (httppolicy.OAuthMaxBody) and time
// (httppolicy.OAuthWait for the first byte and each gap). publicOnly
// refuses addresses that are not public: see discoveryClient.
func oauthClient(publicOnly bool, refused func(error)) *http.Client {
	return httppolicy.New(httppolicy.Options{
		OnRefuse:   refused,
		FirstByte:  httppolicy.OAuthWait,
		Idle:       httppolicy.OAuthWait,
		MaxBody:    httppolicy.OAuthMaxBody,
		PublicOnly: publicOnly,
		Hint:       "the authorization server moved to another origin; check the server's url",
	})
}

// discoveryClient is the client a login uses for discovery, registration
// and the token: see publicOnly. refused is told what the policy refused.
func discoveryClient(ctx context.Context, serverURL string, refused func(error)) *http.Client {
	return oauthClient(publicOnly(ctx, serverURL), refused)
}

// publicOnly reports whether a login's OAuth requests must go to public
// addresses only. The metadata names URLs a server chose, so they must not
// steer requests at a private network; but when the config itself places
// the server on one (an intranet or loopback host), the user chose that
// network, and its authorization server is likely on it too.
func publicOnly(ctx context.Context, serverURL string) bool {
	u, err := url.Parse(serverURL)
	if err != nil {
		return true
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return true
	}
	for _, ip := range ips {
		if ip = ip.Unmap(); ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLoopback() {
			return false
		}
	}
	return true
}

// checkToken refuses a token whose access or refresh token is over
// httppolicy.MaxToken: one line naming the server, the size and what to do.
func checkToken(name string, t *oauth2.Token) error {
	for what, v := range map[string]string{"access": t.AccessToken, "refresh": t.RefreshToken} {
		if len(v) > httppolicy.MaxToken {
			return fmt.Errorf("mcp server %s: its %s token is %s, over the %s runnel accepts, so it was refused — ask the server's operator, then run `runnel mcp login %s` again",
				name, what, stream.FormatBytes(len(v)), stream.FormatBytes(httppolicy.MaxToken), name)
		}
	}
	return nil
}
