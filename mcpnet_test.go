package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/mcpauth"
	"runnel/stream/streamtest"
)

// TestOneShotNetworkMCPSavedLogin: `runnel -p --yes` calls a tool of an MCP
// server on the network with the token of a saved login; the token, which
// the tool prints, is hidden from the model, the saved session and its
// export.
func TestOneShotNetworkMCPSavedLogin(t *testing.T) {
	const token = "access-token-e2e-secret-77"
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "secure", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "whoami"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you came with " + token}}}, nil, nil
		})
		return s
	}, nil)
	mcpSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(mcpSrv.Close)
	data := t.TempDir()
	if err := mcpauth.StoreIn(data).Save(&mcpauth.Login{ServerURL: mcpSrv.URL + "/mcp", ClientID: "c", TokenURL: mcpSrv.URL + "/token",
		AccessToken: token, Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[[mcp_servers]]\nname = \"secure\"\nurl = \""+mcpSrv.URL+"/mcp\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_call","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"secure__whoami","call_id":"call_1","arguments":"{}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_call","status":"completed","output":[]}}`,
	)}, streamtest.Reply{SSE: streamtest.Text("resp_answer", "done")})
	out, errOut, code := runnel(t, "", "-p", "who am I", "--yes", "--config", cfg, "--base-url", srv.URL, "--data-dir", data, "--format", "markdown")
	if code != exitOK || !strings.Contains(out, "done") {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "you came with [redacted]") {
		t.Fatalf("the tool's output did not reach the model, redacted: %d requests", len(reqs))
	}
	exp, _, _ := runnel(t, "", "sessions", "export", "--data-dir", data, "--format", "json", mustLastID(t, data))
	if !strings.Contains(exp, "you came with") || strings.Contains(exp, token) {
		t.Fatalf("export: %s", exp)
	}
	db, _ := os.ReadFile(filepath.Join(data, "runnel.db"))
	wal, _ := os.ReadFile(filepath.Join(data, "runnel.db-wal"))
	if strings.Contains(string(db)+string(wal), token) || strings.Contains(out+errOut, token) {
		t.Fatal("the token is in the store or the output")
	}
}

// mustLastID is the id of the most recent session in data.
func mustLastID(t *testing.T, data string) string {
	t.Helper()
	out, errOut, code := runnel(t, "", "sessions", "--data-dir", data, "--json")
	if code != exitOK {
		t.Fatalf("sessions: %d %s", code, errOut)
	}
	_, rest, ok := strings.Cut(out, `"id":"`)
	if !ok {
		t.Fatalf("no session: %s", out)
	}
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

// TestOneShotMCPRedirectedElsewhere: a network MCP server whose first
// request is redirected (307) to another port: `runnel -p` says so in one
// line naming where, sends nothing to the model or to the other origin,
// and exits 2. A server that merely fails to start (nothing listens) is a
// warning, and the prompt goes without its tools, exit 0.
func TestOneShotMCPRedirectedElsewhere(t *testing.T) {
	var elsewhere, token atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		if r.Header.Get("Authorization") != "" {
			token.Add(1)
		}
	}))
	t.Cleanup(other.Close)
	mcpSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(mcpSrv.Close)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // nothing listens there now
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_answer", "done")})
	cfgFile := func(url, extra string) string {
		cfg := filepath.Join(t.TempDir(), "config.toml")
		body := "[[mcp_servers]]\nname = \"moved\"\nurl = \"" + url + "/mcp\"\nbearer_token_env = \"MOVED_TOKEN\"\n" + extra
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	t.Setenv("MOVED_TOKEN", "tok-moved-secret")

	for _, transport := range []string{"", "transport = \"sse\"\n"} {
		out, errOut, code := runnel(t, "", "-p", "hi", "--config", cfgFile(mcpSrv.URL, transport), "--base-url", srv.URL, "--data-dir", t.TempDir())
		t.Logf("stderr: %s", errOut)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != exitUsage || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "runnel: mcp server moved: the server at "+mcpSrv.URL) ||
			!strings.Contains(lines[0], "redirected the request to "+other.URL+"/mcp") || !strings.HasSuffix(lines[0], " (nothing was sent to the model)") {
			t.Fatalf("%q: exit %d, out %q, stderr %q", transport, code, out, errOut)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model got %d requests", n)
	}
	if elsewhere.Load() != 0 || token.Load() != 0 {
		t.Errorf("the other origin got %d requests (%d with the token)", elsewhere.Load(), token.Load())
	}

	out, errOut, code := runnel(t, "", "-p", "hi", "--config", cfgFile(gone.URL, ""), "--base-url", srv.URL, "--data-dir", t.TempDir())
	t.Logf("stderr: %s", errOut)
	if code != exitOK || !strings.Contains(out, "done") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "mcp server moved") {
		t.Fatalf("a server that is not running: exit %d, out %q, stderr %q", code, out, errOut)
	}
}
