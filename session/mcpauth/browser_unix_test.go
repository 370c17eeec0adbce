//go:build unix

package mcpauth

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// The browser opener runs in the one child environment: the display and
// home reach it (a browser needs them), the config's secret variables do
// not, on every platform's opener.
func TestBrowserGetsTheChildEnvironment(t *testing.T) {
	bin := t.TempDir()
	dump := filepath.Join(t.TempDir(), "env.txt")
	script := "#!/bin/sh\nenv > \"" + dump + "\"\necho \"$1\" >> \"" + dump + "\"\n"
	// Written under syscall.ForkLock (read), so no child forked meanwhile
	// holds it open for writing when it runs ("text file busy").
	syscall.ForkLock.RLock()
	err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("OPENAI_API_KEY", "sk-browser-secret")
	t.Setenv("MCP_BEARER", "mcp-browser-secret")
	t.Setenv("DISPLAY", ":9")
	hidden := []string{"OPENAI_API_KEY", "MCP_BEARER"}
	getenv := func(k string) string { return map[string]string{"DISPLAY": ":9"}[k] }

	cmd, err := browserCommand("linux", "https://auth.example/authorize?x=1", getenv, hidden)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, s := range []string{"sk-browser-secret", "mcp-browser-secret"} {
		if strings.Contains(got, s) {
			t.Errorf("the browser opener saw the secret %q", s)
		}
	}
	for _, want := range []string{"DISPLAY=:9\n", "HOME=" + os.Getenv("HOME") + "\n", "https://auth.example/authorize?x=1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the browser opener did not get %q", want)
		}
	}

	for _, goos := range []string{"darwin", "windows"} {
		cmd, err := browserCommand(goos, "https://auth.example/", getenv, hidden)
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Env == nil || slices.ContainsFunc(cmd.Env, func(kv string) bool { return strings.Contains(kv, "secret") }) {
			t.Errorf("%s: the opener's environment is %v", goos, cmd.Env)
		}
	}
	if _, err := browserCommand("linux", "https://auth.example/", func(string) string { return "" }, hidden); err == nil {
		t.Error("with no display the opener was started")
	}
}
