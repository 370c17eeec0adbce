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
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/httppolicy"
)

// LoginOptions say how to log in to one server.
type LoginOptions struct {
	Name, URL string
	Store     Store
	// Open opens a URL in the browser; nil is OpenBrowser with Hidden.
	// The URL is printed to Out as well, whatever Open does.
	Open func(url string) error
	Out  io.Writer
	// Hidden are the variables the browser does not see (the config's
	// secret variables: it runs in tools.ChildEnv).
	Hidden []string
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
		open = func(url string) error { return OpenBrowser(url, o.Hidden) }
	}
	fetched := 0
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if fetched++; fetched > 1 { // the server refused what the first one gave: never wait for a second
			return nil, fmt.Errorf("mcp server %s asked for a second authorization after the first one (it refused the token it gave); nothing was opened — check the server, then run `runnel mcp login %s` again", o.Name, o.Name)
		}
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
	var tokenErr error // a token refused by checkToken
	var refusedMu sync.Mutex
	var refused error // the first request or body the HTTP policy refused: its line is the one to show
	refuse := func(err error) {
		refusedMu.Lock()
		defer refusedMu.Unlock()
		if refused == nil {
			refused = err
		}
	}
	client := discoveryClient(ctx, o.URL, refuse)
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
			if err := checkToken(o.Name, tok); err != nil {
				tokenErr = err
				return nil, err
			}
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
	probe := httppolicy.New(httppolicy.Options{Origin: o.URL, Hint: "if the server has moved, set its url in [[mcp_servers]]", OnRefuse: refuse})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: o.URL, HTTPClient: probe, OAuthHandler: h, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		refusedMu.Lock()
		r := refused
		refusedMu.Unlock()
		switch {
		case tokenErr != nil:
			return nil, tokenErr
		case r != nil:
			return nil, fmt.Errorf("mcp server %s: login failed: %v", o.Name, r)
		}
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
// Windows); without a display on Linux it opens nothing and says so. The
// opener (and so the browser it starts) gets the one child environment,
// tools.ChildEnv, without the variables in hidden.
func OpenBrowser(url string, hidden []string) error {
	cmd, err := browserCommand(runtime.GOOS, url, os.Getenv, hidden)
	if err != nil {
		return err
	}
	return cmd.Start()
}

// browserCommand is the command that opens url on goos.
func browserCommand(goos, url string, getenv func(string) string, hidden []string) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	switch goos {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
			return nil, errors.New("no display")
		}
		cmd = exec.Command("xdg-open", url)
	}
	cmd.Env = tools.ChildEnv(hidden)
	return cmd, nil
}
