package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/session/mcpauth"
)

// runnel mcp list names each server, where it runs and how it logs in;
// logout forgets a saved login; login refuses a local server in one line.
func TestMCPCommandListLogout(t *testing.T) {
	// the server asks for a login: 401 to an initialize without one
	net := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer net.Close()
	netURL := net.URL + "/mcp"
	cfg := providerConfig(t, `
[[mcp_servers]]
name = "local"
command = "my-server"

[[mcp_servers]]
name = "net"
url = "`+netURL+`"

[[mcp_servers]]
name = "keyed"
url = "https://other.example.com/mcp"
bearer_token_env = "RUNNEL_TEST_MCP_TOKEN"
`)
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "")
	data := t.TempDir()
	store := mcpauth.StoreIn(data)
	if err := store.Save(&mcpauth.Login{ServerURL: netURL, ClientID: "c", TokenURL: net.URL + "/token",
		AccessToken: "access-token-secret-1", RefreshToken: "refresh-token-secret-1", Expiry: time.Now().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runnel(t, "", "mcp", "list", "--config", cfg, "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"local  my-server",
		"net    " + netURL,
		"logged in (token expired; renewed on next use)",
		"keyed  https://other.example.com/mcp",
		"bearer token from $RUNNEL_TEST_MCP_TOKEN (not set)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") {
		t.Fatalf("a token is shown:\n%s", out)
	}
	out, _, code = runnel(t, "", "mcp", "logout", "net", "--config", cfg, "--data-dir", data)
	if code != 0 || out != "logged out of mcp server net\n" {
		t.Fatalf("logout: %d %q", code, out)
	}
	if _, err := os.Stat(store.Path(netURL)); !os.IsNotExist(err) {
		t.Fatalf("the login file is still there: %v", err)
	}
	out, _, _ = runnel(t, "", "mcp", "list", "--config", cfg, "--data-dir", data)
	if !strings.Contains(out, "not logged in (runnel mcp login net)") {
		t.Fatalf("after logout:\n%s", out)
	}
	_, errOut, code = runnel(t, "", "mcp", "login", "local", "--config", cfg, "--data-dir", data)
	if code != 2 || !strings.Contains(errOut, "mcp server local runs here (command), not on the network: it needs no login") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("login to a local server: %d %q", code, errOut)
	}
}

// TestMCPListProbesServersWithNoLogin: a network server with no token, no
// Authorization header and no saved login is asked with an initialize: one
// that answers it needs no login, one that answers 401 is not logged in,
// one that is not there gets one connection line; the JSON rows say the
// same; the servers are asked at once, and nothing carries a credential.
func TestMCPListProbesServersWithNoLogin(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.Contains(string(body), `"method":"initialize"`) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"every","version":"1"}}}`)
	}))
	defer open.Close()
	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer locked.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL + "/mcp"
	gone.Close() // nothing listens there now: connection refused
	cfg := providerConfig(t, `
[[mcp_servers]]
name = "every"
url = "`+open.URL+`/mcp"

[[mcp_servers]]
name = "locked"
url = "`+locked.URL+`/mcp"

[[mcp_servers]]
name = "gone"
url = "`+goneURL+`"
`)
	data := t.TempDir()
	out, errOut, code := runnel(t, "", "mcp", "list", "--config", cfg, "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	if l := lines["every"]; !strings.HasSuffix(l, "no login needed") {
		t.Errorf("every: %q, want no login needed", l)
	}
	if l := lines["locked"]; !strings.HasSuffix(l, "not logged in (runnel mcp login locked)") {
		t.Errorf("locked: %q", l)
	}
	if l := lines["gone"]; !strings.Contains(l, "connection refused — is it running? check its url in [[mcp_servers]]") {
		t.Errorf("gone: %q, want the connection line", l)
	}
	for _, a := range auths {
		if a != "" {
			t.Errorf("the probe carried a credential: %q", a)
		}
	}
	out, _, _ = runnel(t, "", "mcp", "list", "--format", "json", "--config", cfg, "--data-dir", data)
	for _, want := range []string{`"name":"every","url":"` + open.URL + `/mcp","login":"no login needed"`, `"login":"not logged in (runnel mcp login locked)"`, `connection refused`} {
		if !strings.Contains(out, want) {
			t.Errorf("json lacks %q:\n%s", want, out)
		}
	}
}
