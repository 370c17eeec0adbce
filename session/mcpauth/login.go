package mcpauth

// This file is `runnel mcp login`: the browser, the loopback redirect, and
// the SDK's authorization code flow, whose token is saved.

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"runnel/stream"
)

// LoginOptions say how to log in to one server.
type LoginOptions struct {
	Name, URL string
	Store     Store
	// Open opens a URL in the browser; nil is OpenBrowser. The URL is
	// printed to Out as well, whatever Open does.
	Open func(url string) error
	Out  io.Writer
	// Client reaches the server, its metadata and its token endpoint (nil:
	// the default).
	Client *http.Client
}

// LogIn runs the authorization code flow with the server at o.URL and
// saves the login. It returns the saved login.
func LogIn(ctx context.Context, o LoginOptions) (*Login, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the login's redirect on 127.0.0.1: %v", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	results := make(chan *auth.AuthorizationResult, 1)
	srv := &http.Server{Handler: callback(results), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	open := o.Open
	if open == nil {
		open = OpenBrowser
	}
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		// the URL is the authorization server's (its metadata named the
		// endpoint): only a web page is opened or shown, never a file or
		// another program's scheme, and never an escape sequence
		if u, err := url.Parse(args.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || stream.SanitizeLine(args.URL) != args.URL {
			return nil, fmt.Errorf("mcp server %s: its authorization server gave a login URL that is not a web page (%s); nothing was opened", o.Name, stream.SanitizeLine(clipURL(args.URL)))
		}
		fmt.Fprintf(o.Out, "Log in to mcp server %s in your browser. If it does not open, visit:\n\n  %s\n\n", o.Name, args.URL)
		if err := open(args.URL); err != nil {
			fmt.Fprintf(o.Out, "(no browser opened: %s; open the URL above in one)\n", stream.SanitizeLine(err.Error()))
		}
		select {
		case r := <-results:
			return r, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var saved *Login
	client := o.Client
	if client == nil {
		client = discoveryClient(ctx, o.URL)
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "runnel", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetch,
		RequestRefreshToken:      true,
		Client:                   client,
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			saved = &Login{
				ServerURL: o.URL, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, AuthURL: cfg.Endpoint.AuthURL,
				TokenURL: cfg.Endpoint.TokenURL, AuthStyle: int(cfg.Endpoint.AuthStyle), Scopes: cfg.Scopes,
			}
			saved.setToken(tok)
			return cfg.TokenSource(ctx, tok), nil
		},
	})
	if err != nil {
		return nil, err
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "runnel", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: o.URL, HTTPClient: client, OAuthHandler: h, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		if saved == nil {
			return nil, fmt.Errorf("mcp server %s: login failed: %v", o.Name, err)
		}
		return nil, fmt.Errorf("mcp server %s: logged in, but the server then refused the token: %v", o.Name, err)
	}
	_ = cs.Close()
	if saved == nil {
		return nil, fmt.Errorf("mcp server %s answered without asking for a login: nothing to save", o.Name)
	}
	if err := o.Store.Save(saved); err != nil {
		return nil, fmt.Errorf("save the login to mcp server %s: %v", o.Name, err)
	}
	return saved, nil
}

// callback serves the redirect: the first answer with a code (or an error)
// goes to results.
func callback(results chan<- *auth.AuthorizationResult) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		if e := q.Get("error"); e != "" {
			fmt.Fprintf(w, "<p>runnel: the login failed: %s. You can close this tab.</p>", html.EscapeString(e+" "+q.Get("error_description")))
			return
		}
		select {
		case results <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
		default:
		}
		fmt.Fprint(w, "<p>runnel is logged in. You can close this tab.</p>")
	})
}

// clipURL is u cut to 80 bytes for a message.
func clipURL(u string) string {
	if len(u) > 80 {
		return u[:80] + "…"
	}
	return u
}

// OpenBrowser opens url with xdg-open (open on macOS, rundll32 on
// Windows); without a display on Linux it opens nothing and says so.
func OpenBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", url)
	}
	return cmd.Start()
}

// discoveryClient is the client a login uses. The SDK refuses to fetch
// metadata from non-public addresses (its guard against requests steered
// at a private network); a server the config itself places on one (an
// intranet host name that resolves to 10.x or 192.168.x) opts out of that
// guard, as the user chose that network. (The SDK still refuses metadata
// URLs written as a private IP address.)
func discoveryClient(ctx context.Context, serverURL string) *http.Client {
	u, err := url.Parse(serverURL)
	if err != nil {
		return http.DefaultClient
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return http.DefaultClient
	}
	for _, ip := range ips {
		if ip = ip.Unmap(); ip.IsPrivate() || ip.IsLinkLocalUnicast() {
			return &http.Client{Transport: http.DefaultTransport} // a transport of our own: the SDK's guard stays off
		}
	}
	return http.DefaultClient
}
