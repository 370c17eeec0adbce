package config

import (
	"context"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestResolveAPIKeyFromEnv(t *testing.T) {
	tests := []struct {
		name      string
		keyEnv    string
		env       map[string]string
		key, from string
	}{
		{"default variable", "", map[string]string{"OPENAI_API_KEY": " sk-default \n"}, "sk-default", "env OPENAI_API_KEY"},
		{"custom variable", "MY_KEY", map[string]string{"MY_KEY": "sk-mine", "OPENAI_API_KEY": "sk-default"}, "sk-mine", "env MY_KEY"},
		{"custom variable unset", "MY_KEY", map[string]string{"OPENAI_API_KEY": "sk-default"}, "", ""},
		{"nothing set", "", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Config{Provider: ProviderConfig{APIKeyEnv: tt.keyEnv}}
			s, err := c.Resolve(envOf(tt.env), Overrides{})
			if err != nil {
				t.Fatal(err)
			}
			if s.APIKey != tt.key || s.KeySource != tt.from {
				t.Errorf("got key %q from %q; want %q from %q", s.APIKey, s.KeySource, tt.key, tt.from)
			}
		})
	}
}

func TestAPIKeyCommand(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	c, err := LoadConfig(configFile("command_string.toml"), true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Resolve(envOf(map[string]string{"OPENAI_API_KEY": "sk-env"}), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if s.APIKey != "sk-shell-key" || s.KeySource != "api_key_command" {
		t.Errorf("got key %q from %q; want sk-shell-key from api_key_command", s.APIKey, s.KeySource)
	}

	var cmd Command
	if err := cmd.UnmarshalText([]byte("printf key")); err != nil {
		t.Fatal(err)
	}
	if key, err := runKeyCommand(context.Background(), cmd, 5*time.Second, nil); err != nil || key != "key" {
		t.Errorf("printf key: got %q, %v", key, err)
	}
}

// A failing command's error names the command and how it ended, never what
// it printed; the key is never in any error.
func TestAPIKeyCommandFailures(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	const secret = "sk-leaked-0123456789"
	t.Setenv("RUNNEL_TEST_SECRET", secret)
	sh := func(script string) Command { return Command{"sh", "-c", script} }
	tests := []struct {
		name string
		cmd  Command
		want []string
	}{
		{"exit status", sh(`printf %s "$RUNNEL_TEST_SECRET"; echo "$RUNNEL_TEST_SECRET" >&2; exit 3`),
			[]string{"provider.api_key_command failed (exit status 3)", "output is hidden"}},
		{"key inline", Command{"sh", "-c", "echo sk-inline-SECRET >&2; exit 1"}, []string{"provider.api_key_command failed (exit status 1)"}},
		{"not executable", Command{"/dev/null", "sk-inline-SECRET"}, []string{"provider.api_key_command could not start", "permission denied"}},
		{"no output", sh("true"), []string{"printed nothing"}},
		{"two lines", sh(`printf '%s\nuser: ada\n' "$RUNNEL_TEST_SECRET"`), []string{"more than one line", "head -n1"}},
		{"space inside", sh(`printf 'sk-a %s' "$RUNNEL_TEST_SECRET"`), []string{"spaces or control characters"}},
		{"too much output", sh(`i=0; while [ $i -lt 3000 ]; do printf '%s%s' "$RUNNEL_TEST_SECRET" "$RUNNEL_TEST_SECRET"; i=$((i+1)); done`),
			[]string{"more than 64 KiB"}},
		{"not found", Command{"runnel-no-such-command-xyz"}, []string{"runnel-no-such-command-xyz", "not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, err := runKeyCommand(context.Background(), tt.cmd, 5*time.Second, nil)
			if err == nil {
				t.Fatalf("got a key of %d bytes; want an error", len(key))
			}
			msg := err.Error()
			if strings.Contains(msg, secret) || strings.Contains(msg, "\n") || strings.Contains(msg, "sk-inline") || strings.Contains(msg, "RUNNEL_TEST_SECRET") {
				t.Errorf("error leaks output or spans lines: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func TestAPIKeyCommandTimeout(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep on PATH")
	}
	start := time.Now()
	_, err := runKeyCommand(context.Background(), Command{"sleep", "30"}, 50*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 50ms") {
		t.Errorf("got %v; want a timeout error", err)
	}
	if d := time.Since(start); d > 10*time.Second { // a guard against hanging, not a timing assertion
		t.Errorf("runKeyCommand took %s after its deadline", d)
	}
}

// A command that exits but leaves a background child holding stdout still
// yields its key (after WaitDelay), rather than hanging.
func TestAPIKeyCommandBackgroundChild(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	key, err := runKeyCommand(context.Background(), Command{"sh", "-c", "sleep 5 & printf sk-bg"}, 5*time.Second, nil)
	if err != nil || key != "sk-bg" {
		t.Errorf("got %q, %v; want sk-bg", key, err)
	}
}

// The key never appears in errors or in printed Settings.
func TestSecretsStaySecret(t *testing.T) {
	const key = "sk-proj-topsecret-42"
	bad := []struct {
		name string
		c    Config
		env  map[string]string
		o    Overrides
	}{
		{"key with a line break", Config{}, map[string]string{"OPENAI_API_KEY": key + "\nX-Evil: 1"}, Overrides{}},
		{"key with a space", Config{Provider: ProviderConfig{APIKeyEnv: "K"}}, map[string]string{"K": key + " " + key}, Overrides{}},
		{"bad base URL flag", Config{}, map[string]string{"OPENAI_API_KEY": key}, Overrides{BaseURL: "ftp://x"}},
		{"bad base URL env", Config{}, map[string]string{"OPENAI_API_KEY": key, "OPENAI_BASE_URL": "::"}, Overrides{}},
		{"bad effort flag", Config{}, map[string]string{"OPENAI_API_KEY": key}, Overrides{ReasoningEffort: "maximal"}},
		{"bad theme", Config{Theme: "ne on"}, map[string]string{"OPENAI_API_KEY": key}, Overrides{}},
	}
	for _, tt := range bad {
		_, err := tt.c.Resolve(envOf(tt.env), tt.o)
		if err == nil {
			t.Errorf("%s: Resolve succeeded; want an error", tt.name)
			continue
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("%s: error leaks the key: %q", tt.name, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", tt.name, err)
		}
	}

	s, err := Config{}.Resolve(envOf(map[string]string{"OPENAI_API_KEY": key}), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(verb, s); strings.Contains(out, key) {
			t.Errorf("fmt %s of Settings leaks the key: %s", verb, out)
		}
	}
}

func TestCommandText(t *testing.T) {
	tests := []struct {
		text string
		want Command
		show string
	}{
		{"pass show openai", Command{"sh", "-c", "pass show openai"}, "pass show openai"},
		{"   ", nil, ""},
		{"", nil, ""},
	}
	for _, tt := range tests {
		var c Command
		if err := c.UnmarshalText([]byte(tt.text)); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, tt.want) || c.String() != tt.show {
			t.Errorf("UnmarshalText(%q) = %#v (%q); want %#v (%q)", tt.text, c, c.String(), tt.want, tt.show)
		}
	}
	if got := (Command{"pass", "show", "openai"}).String(); got != "pass show openai" {
		t.Errorf("argv String() = %q", got)
	}
}

// api_key_command (and whatever it starts) runs in the one child
// environment: an MCP server's bearer token variable, another provider's
// key, a hosted tool's token are not in it.
func TestAPIKeyCommandEnvHidesSecrets(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	t.Setenv("RUNNEL_TEST_BEARER", "bearer-0123456789")
	t.Setenv("OPENROUTER_API_KEY", "sk-or-0123456789")
	t.Setenv("RUNNEL_TEST_PLAIN", "plain")
	c := Config{
		Provider:   ProviderConfig{APIKeyCommand: Command{"sh", "-c", `printf 'sk-%s-%s-%s' "${RUNNEL_TEST_BEARER:-none}" "${OPENROUTER_API_KEY:-none}" "${RUNNEL_TEST_PLAIN:-none}"`}},
		MCPServers: []MCPServerConfig{{Name: "web", URL: "https://mcp.example/mcp", BearerTokenEnv: "RUNNEL_TEST_BEARER"}},
	}
	s, err := c.Resolve(func(string) string { return "" }, Overrides{})
	if err != nil || s.APIKey != "sk-none-none-plain" {
		t.Fatalf("key %q, %v", s.APIKey, err)
	}
}
