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
