package mcpauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/tools"
	"runnel/stream"
)

// authServer is an MCP server behind OAuth and its authorization server, in
// one httptest server: protected resource metadata (RFC 9728), server
// metadata (RFC 8414), registration (RFC 7591), authorize with PKCE, and a
// token endpoint for codes and refresh tokens.
type authServer struct {
	ts *httptest.Server

	mu         sync.Mutex
	registered []string // client ids
	challenge  string   // the last code_challenge
	pkceOK     bool     // a code was exchanged with the verifier of its challenge
	codes      map[string]bool
	access     map[string]bool // tokens the MCP server accepts
	refresh    map[string]bool // refresh tokens the token endpoint accepts
	n          int
	seen       []string // bearer tokens the MCP endpoint saw
	authorize  string   // the authorization_endpoint advertised; "" for the server's own
	authorized int      // the authorizations asked for
	bigToken   int      // when set, the size of every access token the token endpoint gives
}

func newAuthServer(t *testing.T) *authServer {
	return newAuthServerWrapped(t, func(h http.Handler) http.Handler { return h })
}

// newAuthServerWrapped is newAuthServer with its handler wrapped.
func newAuthServerWrapped(t *testing.T, wrap func(http.Handler) http.Handler) *authServer {
	a := &authServer{codes: map[string]bool{}, access: map[string]bool{}, refresh: map[string]bool{}}
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "secure", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
		})
		return s
	}, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		ok := a.access[tok]
		a.seen = append(a.seen, tok)
		a.mu.Unlock()
		if !ok {
			c := fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, a.ts.URL)
			if tok != "" {
				c += `, error="invalid_token"`
			}
			w.Header().Set("WWW-Authenticate", c)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpH.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": a.ts.URL + "/mcp", "authorization_servers": []string{a.ts.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		endpoint := a.ts.URL + "/authorize"
		if a.authorize != "" {
			endpoint = a.authorize
		}
		writeJSON(w, map[string]any{
			"issuer": a.ts.URL, "authorization_endpoint": endpoint, "token_endpoint": a.ts.URL + "/token",
			"registration_endpoint": a.ts.URL + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{"mcp", "offline_access"},
		})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		a.mu.Lock()
		id := fmt.Sprintf("client-%d", len(a.registered)+1)
		a.registered = append(a.registered, id)
		a.mu.Unlock()
		md["client_id"] = id
		writeStatusJSON(w, http.StatusCreated, md)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "PKCE S256 required", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.challenge = q.Get("code_challenge")
		a.authorized++
		a.n++
		code := fmt.Sprintf("code-%d", a.n)
		a.codes[code] = true
		a.mu.Unlock()
		u, _ := url.Parse(q.Get("redirect_uri"))
		u.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		defer a.mu.Unlock()
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if !a.codes[r.Form.Get("code")] || base64.RawURLEncoding.EncodeToString(sum[:]) != a.challenge {
				writeStatusJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
				return
			}
			a.pkceOK = true
			delete(a.codes, r.Form.Get("code"))
		case "refresh_token":
			if !a.refresh[r.Form.Get("refresh_token")] {
				writeStatusJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
				return
			}
		default:
			writeStatusJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
			return
		}
		a.n++
		at, rt := fmt.Sprintf("access-token-%d", a.n), fmt.Sprintf("refresh-token-%d", a.n)
		if a.bigToken > 0 {
			at = strings.Repeat("t", a.bigToken)
		}
		a.access[at], a.refresh[rt] = true, true
		writeJSON(w, map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": 3600})
	})
	a.ts = httptest.NewServer(wrap(mux))
	t.Cleanup(a.ts.Close)
	return a
}

func writeJSON(w http.ResponseWriter, v any) { writeStatusJSON(w, http.StatusOK, v) }

func writeStatusJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (a *authServer) url() string { return a.ts.URL + "/mcp" }

// follow is a browser: it follows the authorization URL to the redirect.
func follow(u string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// startWith starts a Manager for the server with the saved login in store.
func startWith(t *testing.T, a *authServer, store Store, secrets *stream.Redactor) (*tools.Manager, chan error) {
	t.Helper()
	errs := make(chan error, 8)
	srv := tools.Server{Name: "secure", URL: a.url(), OAuth: NewHandler("secure", a.url(), store, secrets)}
	m := tools.NewMCP(tools.Config{Servers: []tools.Server{srv}}, tools.StartHooks{Report: func(err error) { errs <- err }, Secrets: secrets})
	m.Start(t.Context())
	t.Cleanup(func() { m.Close() })
	return m, errs
}

// A login discovers the authorization server from the 401's
// resource_metadata, registers runnel, sends the user to authorize with a
// PKCE S256 challenge, exchanges the code with its verifier, and saves the
// login in a 0600 file; a session then uses the token.
func TestLoginDiscoversRegistersAndSaves(t *testing.T) {
	a := newAuthServer(t)
	store := StoreIn(t.TempDir())
	var out strings.Builder
	l, err := LogIn(t.Context(), LoginOptions{Name: "secure", URL: a.url(), Store: store, Open: follow, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	pkce, reg := a.pkceOK, a.registered
	a.mu.Unlock()
	if !pkce || len(reg) != 1 || l.ClientID != reg[0] {
		t.Fatalf("pkce %v, registered %v, client %q", pkce, reg, l.ClientID)
	}
	if !strings.Contains(out.String(), a.ts.URL+"/authorize?") {
		t.Fatalf("the URL is not printed: %q", out.String())
	}
	fi, err := os.Stat(store.Path(a.url()))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	if di, _ := os.Stat(string(store)); di.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v", di.Mode().Perm())
	}
	if filepath.Dir(store.Path(a.url())) != string(store) {
		t.Fatal("the login is not in the store")
	}
	secrets := stream.NewRedactor()
	m, errs := startWith(t, a, store, secrets)
	select {
	case err := <-errs:
		t.Fatalf("report: %v", err)
	default:
	}
	if s := m.Summary(); s != "mcp: 1 server, 1 tool" {
		t.Fatalf("summary %q", s)
	}
	if got := secrets.String("token " + l.AccessToken); strings.Contains(got, l.AccessToken) {
		t.Fatalf("the access token is not a secret: %q", got)
	}
}

// An expired token is refreshed with the refresh_token grant before it is
// used; the new one is saved and becomes a secret.
func TestExpiredTokenIsRefreshed(t *testing.T) {
	a := newAuthServer(t)
	store := StoreIn(t.TempDir())
	a.refresh["refresh-token-0"] = true
	if err := store.Save(&Login{ServerURL: a.url(), ClientID: "client-1", TokenURL: a.ts.URL + "/token",
		AccessToken: "access-token-old", RefreshToken: "refresh-token-0", Expiry: time.Now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	secrets := stream.NewRedactor()
	m, _ := startWith(t, a, store, secrets)
	if s := m.Summary(); s != "mcp: 1 server, 1 tool" {
		t.Fatalf("summary %q", s)
	}
	l, err := store.Load(a.url())
	if err != nil || l.AccessToken == "access-token-old" || !a.access[l.AccessToken] {
		t.Fatalf("saved after refresh: %+v %v", l, err)
	}
	for _, tok := range []string{"access-token-old", l.AccessToken, l.RefreshToken} {
		if strings.Contains(secrets.String("x "+tok), tok) {
			t.Fatalf("%s is not a secret", tok)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.seen {
		if s == "access-token-old" {
			t.Fatal("the expired token was sent")
		}
	}
}

// A revoked token, a refused refresh and no login at all each give one
// line naming the server and `runnel mcp login`.
func TestRefusedLoginOneLine(t *testing.T) {
	cases := []struct {
		name  string
		login *Login
		want  string
	}{
		{"none", nil, "mcp server secure needs a login: run `runnel mcp login secure`"},
		{"revoked", &Login{AccessToken: "access-token-revoked", Expiry: time.Now().Add(time.Hour)},
			"mcp server secure refused the saved login (invalid_token): run `runnel mcp login secure`"},
		{"refresh refused", &Login{AccessToken: "access-token-old", RefreshToken: "refresh-token-revoked", Expiry: time.Now().Add(-time.Hour)},
			"mcp server secure refused to renew the saved login (invalid_grant): run `runnel mcp login secure`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAuthServer(t)
			store := StoreIn(t.TempDir())
			if c.login != nil {
				c.login.ServerURL, c.login.ClientID, c.login.TokenURL = a.url(), "client-1", a.ts.URL+"/token"
				if err := store.Save(c.login); err != nil {
					t.Fatal(err)
				}
			}
			m, errs := startWith(t, a, store, stream.NewRedactor())
			select {
			case err := <-errs:
				if err.Error() != c.want {
					t.Fatalf("report %q\nwant   %q", err, c.want)
				}
			default:
				t.Fatalf("no report; summary %q", m.Summary())
			}
		})
	}
}

// A saved login that is not one (another server's, or not JSON) is one
// line naming the file; logout removes a login once.
func TestStoreLoadRemove(t *testing.T) {
	store := StoreIn(t.TempDir())
	if l, err := store.Load("https://a.example/mcp"); l != nil || err != nil {
		t.Fatalf("no login: %v %v", l, err)
	}
	if err := store.Save(&Login{ServerURL: "https://a.example/mcp", AccessToken: "tok-123456789"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.Path("https://b.example/mcp"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Load("https://b.example/mcp")
	if err == nil || !strings.Contains(err.Error(), "not a saved login to https://b.example/mcp; remove it and log in again") {
		t.Fatalf("corrupt: %v", err)
	}
	if ok, err := store.Remove("https://a.example/mcp"); !ok || err != nil {
		t.Fatalf("remove: %v %v", ok, err)
	}
	if ok, _ := store.Remove("https://a.example/mcp"); ok {
		t.Fatal("removed twice")
	}
	if _, err := Store("").Load("x"); err != nil {
		t.Fatal("the zero store finds nothing")
	}
}

// A login to a server on a private or loopback address fetches its
// metadata without the guard against non-public addresses; a public one
// keeps it.
func TestDiscoveryGuardPrivateServer(t *testing.T) {
	for u, want := range map[string]bool{"http://10.1.2.3/mcp": false, "http://127.0.0.1:9/mcp": false, "https://8.8.8.8/mcp": true} {
		if got := publicOnly(t.Context(), u); got != want {
			t.Errorf("%s: public only %v, want %v", u, got, want)
		}
	}
}

// TestLoginOpensOnlyWebPages: an authorization server whose metadata names
// a login URL that is not http(s) (a file, another program's scheme) gets
// one line, and nothing is opened or printed as a link.
func TestLoginOpensOnlyWebPages(t *testing.T) {
	for _, endpoint := range []string{"file:///etc/passwd", "vscode://evil/run"} {
		a := newAuthServer(t)
		a.authorize = endpoint
		opened := false
		var out strings.Builder
		_, err := LogIn(t.Context(), LoginOptions{Name: "secure", URL: a.url(), Store: StoreIn(t.TempDir()), Open: func(string) error { opened = true; return nil }, Out: &out})
		if err == nil || opened || strings.Contains(out.String(), endpoint) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: opened %v, err %v, printed %q", endpoint, opened, err, out.String())
		}
	}
}

// A saved login ten times the table's login_file_bytes is refused in one
// line naming the key, without reading it.
func TestStoreLoadBounded(t *testing.T) {
	store := StoreIn(t.TempDir())
	path := store.Path("https://a.example/mcp")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, int64(10*stream.DefaultBounds.LoginFile)); err != nil {
		t.Fatal(err)
	}
	_, err := store.Load("https://a.example/mcp")
	if err == nil || !strings.Contains(err.Error(), "the saved login passed 1 MiB, the most runnel takes — raise [limits] login_file_bytes") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v", err)
	}
}
