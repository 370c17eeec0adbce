package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"runnel/session/mcpauth"
)

// runnel mcp list names each server, where it runs and how it logs in;
// logout forgets a saved login; login refuses a local server in one line.
func TestMCPCommandListLogout(t *testing.T) {
	cfg := providerConfig(t, `
[[mcp_servers]]
name = "local"
command = "my-server"

[[mcp_servers]]
name = "net"
url = "https://mcp.example.com/mcp"

[[mcp_servers]]
name = "keyed"
url = "https://other.example.com/mcp"
bearer_token_env = "RUNNEL_TEST_MCP_TOKEN"
`)
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "")
	data := t.TempDir()
	store := mcpauth.StoreIn(data)
	if err := store.Save(&mcpauth.Login{ServerURL: "https://mcp.example.com/mcp", ClientID: "c", TokenURL: "https://mcp.example.com/token",
		AccessToken: "access-token-secret-1", RefreshToken: "refresh-token-secret-1", Expiry: time.Now().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runnel(t, "", "mcp", "list", "--config", cfg, "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"local  my-server",
		"net    https://mcp.example.com/mcp    logged in (token expired; renewed on next use)",
		"keyed  https://other.example.com/mcp  bearer token from $RUNNEL_TEST_MCP_TOKEN (not set)",
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
	if _, err := os.Stat(store.Path("https://mcp.example.com/mcp")); !os.IsNotExist(err) {
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
