package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPConfigKeys: timeout, startup_timeout and env_passthrough reach
// package tools; a bad env_passthrough name is refused with its line.
func TestMCPConfigKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`[[mcp_servers]]
name = "s"
command = "x"
timeout = "90s"
startup_timeout = "3s"
env_passthrough = ["GITHUB_TOKEN"]
`)
	c, err := LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := c.ToolSet()
	if err != nil {
		t.Fatal(err)
	}
	s := tc.Servers[0]
	if s.Timeout != 90*time.Second || s.StartupTimeout != 3*time.Second || len(s.EnvPassthrough) != 1 || s.EnvPassthrough[0] != "GITHUB_TOKEN" {
		t.Errorf("server = %+v", s)
	}
	write(`[[functions]]
name = "f"
command = ["x"]
env_passthrough = ["NOT-A-NAME"]
`)
	if _, err := LoadConfig(path, true); err == nil || !strings.Contains(err.Error(), ":4: key \"functions.env_passthrough\"") {
		t.Errorf("bad env_passthrough: %v", err)
	}
}

// TestMCPCommandForms: [[mcp_servers]] takes command as [[functions]] do,
// an argv array, and still the program alone with args; a bad command is
// one line naming its key and line.
func TestMCPCommandForms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	load := func(doc string) (Config, error) {
		t.Helper()
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return LoadConfig(path, true)
	}
	for _, doc := range []string{
		"[[mcp_servers]]\nname = \"s\"\ncommand = [\"node\", \"x.js\"]\n",
		"[[mcp_servers]]\nname = \"s\"\ncommand = \"node\"\nargs = [\"x.js\"]\n",
		"[[mcp_servers]]\nname = \"s\"\ncommand = [\"node\"]\nargs = [\"x.js\"]\n",
	} {
		c, err := load(doc)
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		tc, err := c.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		if s := tc.Servers[0]; s.Command != "node" || len(s.Args) != 1 || s.Args[0] != "x.js" {
			t.Errorf("%q: server %q %q", doc, s.Command, s.Args)
		}
		if got := c.MCPServers[0].CommandLine(); got != "node x.js" {
			t.Errorf("CommandLine = %q", got)
		}
	}
	for _, tt := range []struct{ doc, want string }{
		{"[[mcp_servers]]\nname = \"s\"\ncommand = []\n", ":3: key \"mcp_servers.command\": the command is empty"},
		{"[[mcp_servers]]\nname = \"s\"\ncommand = [\"node\", 5]\n", ":3: key \"mcp_servers.command\": want an array of strings"},
		{"[[mcp_servers]]\nname = \"s\"\ncommand = 5\n", ":3: key \"mcp_servers.command\": want an array of strings"},
		{"[[mcp_servers]]\nname = \"s\"\n", "key \"mcp_servers.command\": missing"},
		{"[[mcp_servers]]\nname = \"s\"\ncommand = [\"x\"]\nurl = \"http://h/mcp\"\n", "not both"},
	} {
		_, err := load(tt.doc)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%q: %v, want %q", tt.doc, err, tt.want)
		}
	}
}
