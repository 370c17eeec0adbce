package config

import (
	"strings"
	"testing"

	"runnel/stream"
)

// A network server's keys are checked in one line each; a server has a
// command or a url, not both, and network keys need a url.
func TestMCPServerURLKeys(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"[[mcp_servers]]\nname = \"a\"\nurl = \"ftp://x\"\n", `"ftp://x" is not an http(s) URL`},
		{"[[mcp_servers]]\nname = \"a\"\nurl = \"https://x/mcp\"\ncommand = \"y\"\n", "either a command (run here) or a url"},
		{"[[mcp_servers]]\nname = \"a\"\nurl = \"https://x/mcp\"\ntransport = \"ws\"\n", `"ws" is not a transport`},
		{"[[mcp_servers]]\nname = \"a\"\ncommand = \"y\"\nbearer_token_env = \"T\"\n", "applies to a server on the network only"},
		{"[[mcp_servers]]\nname = \"a\"\nurl = \"https://x/mcp\"\nbearer_token_env = \"A-B\"\n", "not an environment variable name"},
		{"[[mcp_servers]]\nname = \"a\"\n", "or url to a server on the network"},
	} {
		_, err := parseConfig([]byte(c.doc), "c.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line with %q", c.doc, err, c.want)
		}
	}
}

// bearer_token_env becomes the Authorization header, its value a secret
// and its variable hidden from local tools; a server without one gets the
// saved OAuth login; an unset variable is one line.
func TestMCPNetworkAuth(t *testing.T) {
	c, err := parseConfig([]byte(`
[[mcp_servers]]
name = "keyed"
url = "https://x.example/mcp"
bearer_token_env = "RUNNEL_TEST_BEARER"
headers = { "X-Team" = "platform-team-7" }

[[mcp_servers]]
name = "oauth"
url = "https://y.example/mcp"
`), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	c.MCPAuthDir = t.TempDir()
	t.Setenv("RUNNEL_TEST_BEARER", "bearer-secret-value-42")
	k, err := c.toolKit(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := k.Config.Servers
	if s[0].Headers["Authorization"] != "Bearer bearer-secret-value-42" || s[0].OAuth != nil || s[1].OAuth == nil {
		t.Fatalf("servers %+v", s)
	}
	if got := k.Secrets.String("bearer-secret-value-42 platform-team-7"); got != stream.Redacted+" "+stream.Redacted {
		t.Fatalf("secrets: %q", got)
	}
	found := false
	for _, e := range k.Config.SecretEnv {
		found = found || e == "RUNNEL_TEST_BEARER"
	}
	if !found {
		t.Fatalf("local tools would see the bearer variable: %v", k.Config.SecretEnv)
	}
	t.Setenv("RUNNEL_TEST_BEARER", "")
	if _, err := c.toolKit(nil); err == nil || err.Error() != "mcp server keyed: bearer_token_env RUNNEL_TEST_BEARER is not set; export it or remove the key" {
		t.Fatalf("unset variable: %v", err)
	}
}
