package tools

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"runnel/stream"
)

// A local function tool that prints its environment sees none of the
// variables runnel reads secrets from (the API key's, hosted MCP tools'
// authorization_env and headers_env), unless it opts in: pass_api_key for
// the API key's, env_passthrough by name for any.
func TestFunctionEnvHidesHostedMCPSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai-0123456789")
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "mcp-token-0123456789")
	t.Setenv("RUNNEL_TEST_MCP_HEADER", "mcp-header-0123456789")
	f := Function{Command: []string{"env"}}
	out := runOne(t, f, "{}", Hooks{}).Output
	for _, v := range []string{"OPENAI_API_KEY=", "RUNNEL_TEST_MCP_TOKEN=", "RUNNEL_TEST_MCP_HEADER="} {
		if strings.Contains(out, v) {
			t.Errorf("the tool's environment holds %s", v)
		}
	}
	f.PassAPIKey = true
	out = runOne(t, f, "{}", Hooks{}).Output
	if !strings.Contains(out, "OPENAI_API_KEY=") || strings.Contains(out, "RUNNEL_TEST_MCP_TOKEN=") {
		t.Errorf("pass_api_key must pass the API key and only it:\n%s", out)
	}
	f.PassAPIKey, f.EnvPassthrough = false, []string{"RUNNEL_TEST_MCP_TOKEN"}
	out = runOne(t, f, "{}", Hooks{}).Output
	if !strings.Contains(out, "RUNNEL_TEST_MCP_TOKEN=mcp-token-0123456789") || strings.Contains(out, "RUNNEL_TEST_MCP_HEADER=") || strings.Contains(out, "OPENAI_API_KEY=") {
		t.Errorf("env_passthrough must pass the named variable and only it:\n%s", out)
	}
}

// A local MCP server does not see hosted MCP secrets either.
func TestMCPServerEnvHidesHostedMCPSecrets(t *testing.T) {
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "mcp-token-0123456789")
	for _, pass := range []bool{false, true} {
		s := Server{Name: "test", Command: mcpServerBinary(t), Approval: ApproveNever}
		if pass {
			s.EnvPassthrough = []string{"RUNNEL_TEST_MCP_TOKEN"}
		}
		m := StartMCP(context.Background(), Config{Servers: []Server{s}, SecretEnv: []string{"OPENAI_API_KEY", "RUNNEL_TEST_MCP_TOKEN"}}, nil)
		r := NewRunner(Config{}, m, Hooks{})
		res := r.Run(context.Background(), []Call{{CallID: "c", Name: "test__env", Arguments: `{"text":"RUNNEL_TEST_MCP_TOKEN"}`}})[0]
		m.Close()
		if got := strings.HasSuffix(res.Output, "set=true"); got != pass {
			t.Errorf("env_passthrough %v: %q", pass, res.Output)
		}
	}
}

// Whatever a tool prints, the secrets runnel knows are hidden in the
// output for the model, stderr, the notice and the live output, also when
// split across writes.
func TestToolOutputRedacted(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	sec := stream.NewRedactor(key)
	var mu sync.Mutex
	var live strings.Builder
	h := Hooks{Secrets: sec, Output: func(_ Call, chunk string, _ bool) {
		mu.Lock()
		live.WriteString(chunk)
		mu.Unlock()
	}}
	res := runOne(t, Function{Command: []string{"sh", "-c", `printf 'key sk-live-0123'; sleep 0; printf '456789abcdef ok\n'; echo "err sk-live-0123456789abcdef" >&2; exit 3`}}, "{}", h)
	mu.Lock()
	defer mu.Unlock()
	for what, s := range map[string]string{"output": res.Output, "stderr": res.Stderr, "live": live.String()} {
		if strings.Contains(s, "0123456789abcdef") {
			t.Errorf("%s holds the key: %q", what, s)
		}
	}
	if !strings.Contains(res.Output, "key [redacted] ok") || !strings.Contains(res.Stderr, "err [redacted]") {
		t.Errorf("output %q stderr %q", res.Output, res.Stderr)
	}
}

// RequestTools adds the hosted MCP tokens it read to the secrets, so a tool
// printing one has it hidden.
func TestRequestToolsAddsHostedSecrets(t *testing.T) {
	sec := stream.NewRedactor()
	c := Config{Hosted: []Hosted{{Name: "docs", Type: "mcp", Enabled: true, AuthorizationEnv: "TOK", HeadersEnv: map[string]string{"X-Key": "HDR"}}}}
	r := NewRunner(c, nil, Hooks{Secrets: sec})
	env := map[string]string{"TOK": "oauth-token-0123456789", "HDR": "header-value-0123456789"}
	if _, err := r.RequestTools(nil, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if got := sec.String("a oauth-token-0123456789 b header-value-0123456789"); got != "a [redacted] b [redacted]" {
		t.Errorf("after RequestTools: %q", got)
	}
	vals := Config{SecretEnv: []string{"TOK"}, Servers: []Server{{Name: "s", Env: map[string]string{"GITHUB_TOKEN": "ghp_0123456789", "LOG_DIR": "/var/log/thing"}}}}.SecretValues(func(k string) string { return env[k] })
	slices.Sort(vals)
	if !slices.Equal(vals, []string{"ghp_0123456789", "oauth-token-0123456789"}) {
		t.Errorf("SecretValues = %q", vals)
	}
}

// A hosted tool's authorization_command runs in the one child environment:
// it sees no secret variable, its own included.
func TestAuthorizationCommandEnvHidesSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai-0123456789")
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "mcp-token-0123456789")
	c := Config{
		Hosted:    []Hosted{{Name: "mcp", Type: "mcp", Enabled: true, Fields: map[string]any{}, AuthorizationCommand: []string{"sh", "-c", `echo "tok-${OPENAI_API_KEY:-none}-${RUNNEL_TEST_MCP_TOKEN:-none}"`}}},
		SecretEnv: []string{"OPENAI_API_KEY", "RUNNEL_TEST_MCP_TOKEN"},
	}
	raws, err := c.RequestTools(nil, nil)
	if err != nil || len(raws) != 1 || !strings.Contains(string(raws[0]), `"authorization":"tok-none-none"`) {
		t.Fatalf("%v: %s", err, raws)
	}
}
