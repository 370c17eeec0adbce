package tools

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func testConfig() Config {
	return Config{
		Hosted: []Hosted{
			{Name: "web_search", Type: "web_search", Enabled: true, Fields: map[string]any{"search_context_size": "low"}},
			{Name: "code_interpreter", Type: "code_interpreter", Enabled: false, Fields: map[string]any{"container": map[string]any{"type": "auto"}}},
			{Name: "deepwiki", Type: "mcp", Enabled: true,
				Fields:           map[string]any{"server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp", "require_approval": "never"},
				HeadersEnv:       map[string]string{"X-Api-Key": "RUNNEL_TEST_HEADER"},
				AuthorizationEnv: "RUNNEL_TEST_TOKEN"},
		},
		Functions: []Function{{Name: "git_status", Description: "Show the working tree status", Command: []string{"git", "status"}}},
		Servers:   []Server{{Name: "files", Command: "mcp-server-filesystem"}},
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func decode(t *testing.T, raws []json.RawMessage) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatalf("tool %d: %v", i, err)
		}
	}
	return out
}

func TestRequestTools(t *testing.T) {
	c := testConfig()
	got, err := c.RequestTools(nil, env(map[string]string{"RUNNEL_TEST_HEADER": "hdr-secret", "RUNNEL_TEST_TOKEN": "tok-secret"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"type": "web_search", "search_context_size": "low"},
		{"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp", "require_approval": "never",
			"headers": map[string]any{"X-Api-Key": "hdr-secret"}, "authorization": "tok-secret"},
		{"type": "function", "name": "git_status", "description": "Show the working tree status",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{}}, "strict": false},
	}
	if d := decode(t, got); !reflect.DeepEqual(d, want) {
		t.Errorf("RequestTools\n got %v\nwant %v", d, want)
	}

	// Toggles: only what enabled says.
	only := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	got, _ = c.RequestTools(only("code_interpreter"), env(nil))
	if d := decode(t, got); len(d) != 1 || d[0]["type"] != "code_interpreter" {
		t.Errorf("only code_interpreter: %v", d)
	}

	// Redact keeps the shape and drops the secrets.
	got, _ = c.RequestTools(nil, env(map[string]string{"RUNNEL_TEST_HEADER": "hdr-secret", "RUNNEL_TEST_TOKEN": "tok-secret"}))
	red := Redact(got)
	for _, r := range red {
		if strings.Contains(string(r), "secret") {
			t.Errorf("Redact left a secret: %s", r)
		}
	}
	if d := decode(t, red); d[1]["authorization"] != "[redacted]" || d[1]["headers"].(map[string]any)["X-Api-Key"] != "[redacted]" || string(red[0]) != string(got[0]) {
		t.Errorf("Redact = %s", red)
	}
}

func TestRequestToolsMissingSecret(t *testing.T) {
	_, err := testConfig().RequestTools(nil, env(map[string]string{"RUNNEL_TEST_TOKEN": "tok"}))
	if err == nil || err.Error() != "tool deepwiki: header X-Api-Key: $RUNNEL_TEST_HEADER is not set; export it or remove the tool" {
		t.Errorf("err = %v", err)
	}
}

func TestAuthorizationCommand(t *testing.T) {
	c := Config{Hosted: []Hosted{{Name: "x", Type: "mcp", Enabled: true, Fields: map[string]any{"server_label": "x"},
		AuthorizationCommand: []string{"printf", "  tok-from-command\nsecond line\n"}}}}
	got, err := c.RequestTools(nil, env(nil))
	if err != nil || decode(t, got)[0]["authorization"] != "tok-from-command" {
		t.Errorf("got %s, %v", got, err)
	}
	c.Hosted[0].AuthorizationCommand = []string{"sh", "-c", "printf 'tok-secret-%s' output; exit 1"}
	_, err = c.RequestTools(nil, env(nil))
	if err == nil || strings.Contains(err.Error(), "tok-secret") || !strings.Contains(err.Error(), "tool x: authorization_command failed") {
		t.Errorf("failing command: %v", err)
	}
	// A token written inline in the command is not repeated either.
	c.Hosted[0].AuthorizationCommand = []string{"sh", "-c", "echo ghp_inline0123456789 >/dev/null; exit 2"}
	if _, err = c.RequestTools(nil, env(nil)); err == nil || strings.Contains(err.Error(), "ghp_inline") {
		t.Errorf("failing command with an inline token: %v", err)
	}
}

func TestNames(t *testing.T) {
	c := testConfig()
	if got, want := c.Names(), []string{"web_search", "code_interpreter", "deepwiki", "git_status", "files"}; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	if c.EnabledByDefault("code_interpreter") || !c.EnabledByDefault("files") || c.EnabledByDefault("nope") {
		t.Error("EnabledByDefault")
	}
}

func TestExposedName(t *testing.T) {
	used := map[string]bool{"files__read": true}
	tests := []struct{ server, tool, want string }{
		{"files", "read", "files__read_2"},
		{"files", "read", "files__read_3"},
		{"files", "list dir/with.dots", "files__list_dir_with_dots"},
		{"notes", "ünïcode", "notes___n_code"},
		{"s", strings.Repeat("x", 80), "s__" + strings.Repeat("x", 61)},
		{"s", strings.Repeat("x", 80), "s__" + strings.Repeat("x", 59) + "_2"},
	}
	for _, tt := range tests {
		got := exposedName(tt.server, tt.tool, used)
		if got != tt.want || !ValidName(got) {
			t.Errorf("exposedName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
}
