package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"runnel/session/tools"
)

// configFile is the path of a test input under testdata/config.
func configFile(name string) string { return filepath.Join("testdata", name) }

// exampleFile is the documented example config at the repository root.
const exampleFile = "../../config.example.toml"

func ptr[T any](v T) *T { return &v }

func TestLoadConfigValid(t *testing.T) {
	tests := []struct {
		file string
		want Config
	}{
		{"empty.toml", Config{}},
		{"full.toml", Config{
			Model:        "gpt-5",
			Instructions: "Answer briefly.\nUse British spelling.",
			Store:        ptr(false),
			Theme:        "dark",
			Reasoning:    ReasoningConfig{Effort: "high", Summary: ptr("detailed")},

			MaxResponseBytes: ptr(1 << 20),

			Provider: ProviderConfig{
				BaseURL:       "https://example.test/v1/",
				APIKeyEnv:     "RUNNEL_TEST_KEY",
				APIKeyCommand: Command{"printf", "%s", "sk-from-command"},
				Headers:       map[string]string{"OpenAI-Organization": "org_123", "X-Trace": "on"},
			},
			Timeouts: TimeoutsConfig{
				Idle:       Duration{90 * time.Second},
				Connect:    Duration{5 * time.Second},
				MaxRetries: ptr(0),
			},
			Context: ContextConfig{CompactThreshold: 150000, Truncation: "auto"},
		}},
		{"inline_tables.toml", Config{
			Reasoning: ReasoningConfig{Effort: "low", Summary: ptr("")},
			Provider: ProviderConfig{
				BaseURL: "http://localhost:11434/v1",
				Headers: map[string]string{"X-A": "1"},
			},
			Timeouts: TimeoutsConfig{Idle: Duration{10 * time.Minute}},
		}},
		{"headers_table.toml", Config{Provider: ProviderConfig{
			Headers: map[string]string{"OpenAI-Organization": "org_123", "OpenAI-Project": "proj_456"},
		}}},
		{"command_string.toml", Config{Provider: ProviderConfig{
			APIKeyCommand: Command{"sh", "-c", `printf "  sk-shell-key\n"`},
		}}},
		{"summary_off.toml", Config{Reasoning: ReasoningConfig{Summary: ptr("")}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := configFile(tt.file)
			got, err := LoadConfig(path, true)
			if err != nil {
				t.Fatalf("LoadConfig: %v", err)
			}
			tt.want.Path = path
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LoadConfig(%s)\n got %+v\nwant %+v", tt.file, got, tt.want)
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		file string
		at   string   // "line" or "line:col" right after the file name
		want []string // substrings of the message
	}{
		{"unknown_top.toml", "2", []string{`unknown key "modle"`, `did you mean "model"`, "config.example.toml"}},
		{"unknown_nested.toml", "7", []string{`unknown key "provider.base_ur"`, `did you mean "provider.base_url"`}},
		{"unknown_table.toml", "3", []string{`unknown table "provder"`, `did you mean "provider"`}},
		{"misplaced.toml", "1", []string{`unknown key "base_url"`, `did you mean "provider.base_url"`}},
		{"api_key_literal.toml", "3", []string{`unknown key "provider.api_key"`, "api_key_env", "api_key_command"}},
		{"syntax.toml", "2:14", []string{"invalid TOML", "new lines"}},
		{"duplicate.toml", "2:1", []string{"model", "already defined"}},
		{"bad_duration.toml", "3", []string{`"timeouts.idle"`, `"5 minutes"`, `"30s"`}},
		{"int_duration.toml", "2", []string{`"timeouts.idle"`, "duration", "got an integer"}},
		{"zero_duration.toml", "2", []string{`"timeouts.connect"`, `"0s"`, "positive"}},
		{"bad_theme.toml", "2", []string{`"theme"`, `"../solarized"`, `"auto", "dark", "light"`}},
		{"bad_effort.toml", "3", []string{`"reasoning.effort"`, `"extreme"`, `"minimal", "low", "medium", "high"`}},
		{"bad_summary.toml", "1", []string{`"reasoning.summary"`, `"verbose"`, `"auto", "concise", "detailed"`}},
		{"bad_truncation.toml", "3", []string{`"context.truncation"`, `"middle"`, `"auto", "disabled"`}},
		{"bad_threshold.toml", "3", []string{`"context.compact_threshold"`, "-5", "must not be negative"}},
		{"wrong_type.toml", "2", []string{`"store"`, "want true or false, got a string"}},
		{"wrong_table.toml", "1", []string{`"reasoning"`, "want a table, got a string"}},
		{"scalar_as_table.toml", "1", []string{`"model"`, "want a string, got a table"}},
		{"command_int.toml", "2", []string{`"provider.api_key_command"`, "got an integer"}},
		{"command_mixed.toml", "2", []string{`"provider.api_key_command"`, "array holding an integer"}},
		{"header_int.toml", "2", []string{`"provider.headers.X-Retries"`, "want a string"}},
		{"header_crlf.toml", "2", []string{`"X-Note"`, "line break"}},
		{"negative_retries.toml", "2", []string{`"timeouts.max_retries"`, "-1"}},
		{"bad_base_url.toml", "2", []string{`"provider.base_url"`, "http://"}},
		{"bad_env_name.toml", "2", []string{`"provider.api_key_env"`, `"$OPENAI_API_KEY"`}},

		{"tools_bad_type.toml", "2", []string{`"tools.type"`, `"web_browse"`, `"web_search", "file_search"`}},
		{"tools_missing_type.toml", "4", []string{`"tools.type"`, "missing"}},
		{"tools_wrong_key.toml", "7", []string{`"tools.vector_store_ids"`, `applies to type "file_search", not "web_search"`}},
		{"tools_require_approval.toml", "5", []string{`"tools.require_approval"`, `"sometimes"`, `{ never = ["read"]`}},
		{"tools_require_approval_table.toml", "5", []string{`"tools.require_approval"`, `key "maybe"`}},
		{"tools_mcp_no_url.toml", "2", []string{`"tools.server_url"`, "missing"}},
		{"tools_unknown_key.toml", "3", []string{`unknown key "tools.search_contxt_size"`, `did you mean "tools.search_context_size"`}},
		{"tools_as_table.toml", "1", []string{`"tools"`, "want an array of tables (write [[tools]])"}},
		{"tools_max_results.toml", "4", []string{`"tools.max_num_results"`, "500", "1 to 50"}},
		{"tools_headers_secret.toml", "5", []string{`"tools.headers_env"`, "not an environment variable name", "never the secret itself"}},
		{"functions_duplicate.toml", "6", []string{`"functions.name"`, `"status" is taken by [[functions]] entry 1`}},
		{"functions_bad_approval.toml", "4", []string{`"functions.approval"`, `"sometimes"`, `"once-per-session"`}},
		{"functions_string_no_shell.toml", "3", []string{`"functions.command"`, "shell = true", `["git", "status"]`}},
		{"functions_shell_array.toml", "3", []string{`"functions.command"`, "one string"}},
		{"functions_empty_command.toml", "3", []string{`"functions.command"`, "empty"}},
		{"functions_bad_timeout.toml", "4", []string{`"functions.timeout"`, `"0s"`, "positive"}},
		{"functions_bad_schema.toml", "4", []string{`"functions.parameters"`, "JSON"}},
		{"functions_bad_name.toml", "2", []string{`"functions.name"`, `"git status"`, "letters, digits"}},
		{"functions_no_command.toml", "1", []string{`"functions.command"`, "missing"}},
		{"mcp_missing_command.toml", "1", []string{`"mcp_servers.command"`, "missing"}},
		{"mcp_name_clash.toml", "6", []string{`"mcp_servers.name"`, `"files" is taken by [[functions]] entry 1`}},
		{"mcp_args_string.toml", "4", []string{`"mcp_servers.args"`, "want an array of strings, got a string"}},
		{"mcp_bad_approval.toml", "4", []string{`"mcp_servers.approval"`, `"ask"`}},
		{"max_rounds_zero.toml", "2", []string{`"max_tool_rounds"`, "at least 1"}},
		{"response_limit_small.toml", "2", []string{`"max_response_bytes"`, "100 is too small", "at least 1024"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := configFile(tt.file)
			_, err := LoadConfig(path, true)
			if err == nil {
				t.Fatal("LoadConfig succeeded; want an error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			if prefix := path + ":" + tt.at + ": "; !strings.HasPrefix(msg, prefix) {
				t.Errorf("error %q does not start with %q", msg, prefix)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// Secret-looking values in a config file never reach its error messages.
func TestLoadConfigErrorsHideSecrets(t *testing.T) {
	for file, secret := range map[string]string{
		"api_key_literal.toml":      "sk-proj-SECRETSECRETSECRET",
		"header_crlf.toml":          "sk-header-secret",
		"tools_headers_secret.toml": "sk-literal-secret",
	} {
		_, err := LoadConfig(configFile(file), true)
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: error %v; want one without %q", file, err, secret)
		}
	}
}

func TestLoadConfigReportsEveryUnknownKey(t *testing.T) {
	path := configFile("unknown_many.toml")
	_, err := LoadConfig(path, true)
	if err == nil {
		t.Fatal("LoadConfig succeeded; want an error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		path + `:1: unknown key "colour"`,
		path + `:4: unknown key "timeouts.retries" (did you mean "timeouts.max_retries"?)`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d: %q", len(lines), len(want), lines)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d = %q; want prefix %q", i, lines[i], want[i])
		}
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel", "config.toml")

	c, err := LoadConfig(path, false)
	if err != nil || !reflect.DeepEqual(c, Config{}) {
		t.Errorf("missing default file: got %+v, %v; want zero Config, nil", c, err)
	}

	_, err = LoadConfig(path, true)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing explicit file: got %v; want a not-found error naming %s", err, path)
	}

	if c, err := LoadConfig("", false); err != nil || !reflect.DeepEqual(c, Config{}) {
		t.Errorf("no default path: got %+v, %v; want zero Config, nil", c, err)
	}
	if _, err := LoadConfig("", true); err == nil {
		t.Error("empty explicit path: got nil error")
	}
	if _, err := LoadConfig(configFile(""), true); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("directory as config: got %v; want a one-line error", err)
	}
}

func TestDefaultConfigPath(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	tests := []struct{ xdg, want string }{
		{"/etc/xdg-ada", "/etc/xdg-ada/runnel/config.toml"},
		{"", "/home/ada/.config/runnel/config.toml"},
		{"relative/dir", "/home/ada/.config/runnel/config.toml"}, // ignored, per the XDG spec
	}
	for _, tt := range tests {
		t.Setenv("XDG_CONFIG_HOME", tt.xdg)
		if got := DefaultConfigPath(); got != tt.want {
			t.Errorf("XDG_CONFIG_HOME=%q: DefaultConfigPath() = %q, want %q", tt.xdg, got, tt.want)
		}
	}
}

func TestDisplayPathShortensHome(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	if got, want := displayPath("/home/ada/.config/runnel/config.toml"), "~/.config/runnel/config.toml"; got != want {
		t.Errorf("displayPath = %q, want %q", got, want)
	}
	if got := displayPath("/home/adam/x.toml"); got != "/home/adam/x.toml" {
		t.Errorf("displayPath of a sibling of home = %q", got)
	}
}

// The example file parses cleanly, documents every key, and its values are
// the defaults: loading it changes nothing.
func TestExampleConfig(t *testing.T) {
	c, err := LoadConfig(exampleFile, true)
	if err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	set := docKeys(t, data)
	for key := range set { // [providers.NAME] documents every profile's keys
		if parts := strings.SplitN(key, ".", 3); len(parts) == 3 && parts[0] == "providers" {
			set["providers.*."+parts[2]] = true
		}
	}
	for _, key := range knownKeys {
		if inArrayOfTables(key) {
			continue // documented by the tool examples (TestExampleToolBlocks)
		}
		if !set[key] {
			t.Errorf("config.example.toml does not set key %q", key)
		}
	}

	env := func(string) string { return "" }
	got, err := c.Resolve(env, Overrides{})
	if err != nil {
		t.Fatalf("Resolve example: %v", err)
	}
	want, err := Config{}.Resolve(env, Overrides{})
	if err != nil {
		t.Fatalf("Resolve zero config: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("example values differ from defaults:\n got %#v\nwant %#v", fields(got), fields(want))
	}
}

// inArrayOfTables reports whether key is an array of tables or inside one.
func inArrayOfTables(key string) bool {
	for _, k := range []string{"tools", "functions", "mcp_servers"} {
		if key == k || strings.HasPrefix(key, k+".") {
			return true
		}
	}
	return false
}

// docKeys is every dotted key a document sets, with no index for entries
// of an array of tables ("tools.type").
func docKeys(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("decode: %v", err)
	}
	set := map[string]bool{}
	var walk func(v any, key string)
	walk = func(v any, key string) {
		if key != "" {
			set[key] = true
		}
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				walk(sub, strings.TrimPrefix(key+"."+k, "."))
			}
		case []any:
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					walk(m, key)
				}
			}
		}
	}
	walk(doc, "")
	return set
}

// fields shows every field of Settings (its String hides some).
func fields(s Settings) map[string]any {
	m := map[string]any{}
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		m[v.Type().Field(i).Name] = v.Field(i).Interface()
	}
	return m
}

// Every provider example in config.example.toml is a valid config once its
// "#   " prefixes are removed.
func TestExampleProviderBlocks(t *testing.T) {
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	_, examples, ok := strings.Cut(string(data), "# Provider examples.")
	if !ok {
		t.Fatal(`config.example.toml has no "# Provider examples." section`)
	}
	blocks := commentedBlocks(examples)
	if len(blocks) < 6 {
		t.Fatalf("found %d provider examples, want at least 6 (Azure, OpenRouter, xAI, LM Studio, Ollama, vLLM)", len(blocks))
	}
	for i, b := range blocks {
		c, err := parseConfig([]byte(b), "example")
		if err != nil {
			t.Errorf("example %d: %v\n%s", i, err, b)
			continue
		}
		if c.Provider.BaseURL == "" || c.Model == "" {
			t.Errorf("example %d sets no base_url or model:\n%s", i, b)
		}
	}
}

// commentedBlocks returns the runs of "#   "-prefixed lines in text, with
// the prefixes removed: the examples, ready to parse.
func commentedBlocks(text string) []string {
	var blocks []string
	var cur strings.Builder
	for _, line := range strings.Split(text+"\n", "\n") {
		if rest, ok := strings.CutPrefix(line, "#   "); ok {
			cur.WriteString(rest + "\n")
			continue
		}
		if cur.Len() > 0 {
			blocks = append(blocks, cur.String())
			cur.Reset()
		}
	}
	return blocks
}

func TestDurationText(t *testing.T) {
	var d Duration
	if err := d.UnmarshalText([]byte("1h30m")); err != nil || d.Duration != 90*time.Minute {
		t.Fatalf("UnmarshalText(1h30m) = %v, %v", d.Duration, err)
	}
	b, _ := d.MarshalText()
	var back Duration
	if err := back.UnmarshalText(b); err != nil || back != d {
		t.Errorf("round trip through %q gave %v, %v", b, back, err)
	}
	for _, bad := range []string{"", "5", "-1s", "0", "5 minutes"} {
		if err := d.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) succeeded", bad)
		}
	}
}

// Bad input never panics, and errors carry no raw control bytes.
func FuzzParseConfig(f *testing.F) {
	files, _ := filepath.Glob(configFile("*.toml"))
	files = append(files, exampleFile)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := parseConfig(data, "fuzz.toml")
		if err == nil {
			return
		}
		for _, r := range err.Error() {
			if r < ' ' && r != '\n' || r == 0x7f {
				t.Fatalf("error holds control byte %q: %q", r, err)
			}
		}
	})
}

// Every tool example in config.example.toml is a valid config of one tool
// once its "#   " prefixes are removed, and together the examples set every
// key of [[tools]], [[functions]] and [[mcp_servers]].
func TestExampleToolBlocks(t *testing.T) {
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "# Tool examples.")
	if !ok {
		t.Fatal(`config.example.toml has no "# Tool examples." section`)
	}
	section, _, _ := strings.Cut(rest, "# Provider examples.")
	blocks := commentedBlocks(section)
	if len(blocks) < 12 {
		t.Fatalf("found %d tool examples, want at least 12", len(blocks))
	}
	set := map[string]bool{}
	kinds := map[string]bool{}
	for i, b := range blocks {
		c, err := parseConfig([]byte(b), "example")
		if err != nil {
			t.Errorf("example %d: %v\n%s", i, err, b)
			continue
		}
		if n := len(c.Tools) + len(c.Functions) + len(c.MCPServers); n != 1 {
			t.Errorf("example %d defines %d tools, want 1:\n%s", i, n, b)
		}
		tc, err := c.ToolSet()
		if err != nil {
			t.Errorf("example %d: ToolSet: %v", i, err)
		}
		for _, info := range tc.List() {
			kinds[info.Kind.String()+":"+info.Detail] = true
		}
		for _, h := range c.Tools {
			kinds["type:"+h.Type] = true
		}
		for k := range docKeys(t, []byte(b)) {
			set[k] = true
		}
	}
	for _, key := range knownKeys {
		if inArrayOfTables(key) && !set[key] {
			t.Errorf("no tool example sets key %q", key)
		}
	}
	for _, typ := range hostedTypes {
		if !kinds["type:"+typ] {
			t.Errorf("no tool example of type %q", typ)
		}
	}
}

func TestLoadToolsConfig(t *testing.T) {
	c, err := LoadConfig(configFile("tools_full.toml"), true)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := c.ToolSet()
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"web_search", "file_search", "code_interpreter", "image_generation", "deepwiki", "git_status", "grep", "word_count", "files", "git"}
	if got := tc.Names(); !reflect.DeepEqual(got, wantNames) {
		t.Errorf("Names = %q, want %q", got, wantNames)
	}
	// Local tools never see the hosted MCP tool's token and header
	// variables, nor any provider's key variable.
	if tc.MaxRounds != 5 || !reflect.DeepEqual(tc.SecretEnv, []string{"OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "OPENROUTER_API_KEY", "XAI_API_KEY", "GROQ_API_KEY", "DEEPWIKI_TOKEN", "DEEPWIKI_KEY"}) ||
		!reflect.DeepEqual(tc.APIKeyEnv, []string{"OPENAI_API_KEY"}) {
		t.Errorf("MaxRounds %d, SecretEnv %q, APIKeyEnv %q", tc.MaxRounds, tc.SecretEnv, tc.APIKeyEnv)
	}

	env := map[string]string{"DEEPWIKI_KEY": "key-1", "DEEPWIKI_TOKEN": "token-2"}
	raws, err := tc.RequestTools(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	got := make([]any, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &got[i]); err != nil {
			t.Fatal(err)
		}
	}
	var want []any
	if err := json.Unmarshal([]byte(`[
		{"type": "web_search", "search_context_size": "low",
		 "user_location": {"type": "approximate", "country": "GB", "city": "London"},
		 "filters": {"allowed_domains": ["go.dev", "pkg.go.dev"]}},
		{"type": "code_interpreter", "container": {"type": "auto"}},
		{"type": "image_generation", "size": "1024x1024", "quality": "low"},
		{"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
		 "allowed_tools": ["ask_question"],
		 "require_approval": {"never": {"tool_names": ["ask_question"]}, "always": {"tool_names": ["read_wiki"]}},
		 "headers": {"X-Api-Key": "key-1"}, "authorization": "token-2"},
		{"type": "function", "name": "git_status", "description": "Show the working tree status", "strict": false,
		 "parameters": {"type": "object", "properties": {}, "additionalProperties": false}},
		{"type": "function", "name": "grep", "description": "Search files", "strict": false,
		 "parameters": {"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]}},
		{"type": "function", "name": "word_count", "strict": false,
		 "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}}
	]`), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Errorf("RequestTools (file_search is disabled):\n%s", g)
	}

	grep := tc.Functions[1]
	if !grep.Shell || len(grep.Command) != 1 || grep.Approval != tools.ApproveOnce || grep.Dir != "/tmp" || !grep.PassAPIKey || grep.Timeout != 0 {
		t.Errorf("grep = %+v", grep)
	}
	if gs := tc.Functions[0]; gs.Timeout != 10*time.Second || gs.Approval != tools.ApproveNever || strings.Join(gs.Command, " ") != "git status --short" {
		t.Errorf("git_status = %+v", gs)
	}
	wantServers := []tools.Server{
		{Name: "files", Command: "mcp-server-filesystem", Args: []string{"/home/me/notes"}, Env: map[string]string{"LOG_LEVEL": "warn"},
			AllowedTools: []string{"read_file"}, Approval: tools.ApproveNever},
		{Name: "git", Command: "uvx", Args: []string{"mcp-server-git"}, Approval: tools.ApproveAlways},
	}
	if !reflect.DeepEqual(tc.Servers, wantServers) {
		t.Errorf("Servers = %+v", tc.Servers)
	}
}

// The configured key variable is hidden from tools as well as
// OPENAI_API_KEY and every provider's (a preset's, a [providers.NAME]'s);
// a config without tools gives an empty set.
func TestToolSetSecrets(t *testing.T) {
	tc, err := Config{Provider: ProviderConfig{APIKeyEnv: "MY_KEY"}, Providers: map[string]ProfileConfig{"box": {BaseURL: "http://box:8000/v1", APIKeyEnv: "BOX_KEY"}}}.ToolSet()
	if err != nil || !reflect.DeepEqual(tc.SecretEnv, []string{"OPENAI_API_KEY", "MY_KEY", "AZURE_OPENAI_API_KEY", "OPENROUTER_API_KEY", "XAI_API_KEY", "GROQ_API_KEY", "BOX_KEY"}) ||
		!reflect.DeepEqual(tc.APIKeyEnv, []string{"OPENAI_API_KEY", "MY_KEY"}) {
		t.Errorf("SecretEnv = %q, %v", tc.SecretEnv, err)
	}
	if len(tc.Names()) != 0 || tc.Rounds() != tools.DefaultMaxRounds {
		t.Errorf("empty config: names %q, rounds %d", tc.Names(), tc.Rounds())
	}
}

// Inline arrays of tables work too, and errors in them point at the array.
func TestInlineToolArray(t *testing.T) {
	c, err := parseConfig([]byte(`functions = [{ name = "a", command = ["true"] }, { name = "b", command = ["false"], approval = "never" }]`+"\n"), "inline.toml")
	if err != nil || len(c.Functions) != 2 || c.Functions[1].Approval != "never" {
		t.Fatalf("got %+v, %v", c.Functions, err)
	}
	_, err = parseConfig([]byte("\n"+`functions = [{ name = "a", command = ["true"] }, { name = "a", command = ["false"] }]`+"\n"), "inline.toml")
	if err == nil || !strings.HasPrefix(err.Error(), `inline.toml:2: key "functions.name": the name "a" is taken`) {
		t.Errorf("duplicate in an inline array: %v", err)
	}
	_, err = parseConfig([]byte(`functions = [{ name = "a", command = ["true"], timeout = 5 }]`+"\n"), "inline.toml")
	if err == nil || !strings.Contains(err.Error(), `inline.toml:1: key "functions.timeout"`) {
		t.Errorf("wrong type in an inline array: %v", err)
	}
}

// Every position comes from go-toml: type errors from its DecodeError,
// unknown keys from StrictMissingError, and keys that fail validation (or
// that go-toml reports without a position) from the strict decoder's
// report on a shadow of Config. The second entry of an array of tables
// points at its own lines, not the first entry's.
func TestPositionsFromGoToml(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"type error in an entry", "[[functions]]\nname = \"a\"\ncommand = [\"x\"]\n\n[[functions]]\nname = \"b\"\ncommand = [\"y\"]\nshell = \"yes\"\n",
			`doc.toml:8: key "functions.shell": want true or false, got a string`},
		{"integer duration in the second entry", "[[functions]]\nname = \"a\"\ncommand = [\"x\"]\ntimeout = \"5s\"\n\n[[functions]]\nname = \"b\"\ncommand = [\"y\"]\ntimeout = 5\n",
			`doc.toml:9: key "functions.timeout": want a duration string like "30s", got an integer`},
		{"enum in the second entry", "[[mcp_servers]]\nname = \"a\"\ncommand = \"x\"\napproval = \"never\"\n[[mcp_servers]]\nname = \"b\"\ncommand = \"y\"\n\napproval = \"ask\"\n",
			`doc.toml:9: key "mcp_servers.approval": "ask" is not an approval policy`},
		{"missing key: the entry's header", "[[tools]]\ntype = \"web_search\"\n\n[[tools]]\nenabled = false\n",
			`doc.toml:4: key "tools.type": missing`},
		{"dotted key", "reasoning.effort = \"loud\"\n", `doc.toml:1: key "reasoning.effort": "loud" is not allowed`},
		{"nested table", "\n\n[timeouts]\n\nconnect = \"-1s\"\n", `doc.toml:5: key "timeouts.connect": duration "-1s" must be positive`},
		{"integer command", "[provider]\napi_key_command = 42\n", `doc.toml:2: key "provider.api_key_command": want a string or an array of strings, got an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tt.doc), "doc.toml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v\nwant prefix %s", err, tt.want)
			}
		})
	}
}
