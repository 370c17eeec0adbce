package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// configFile is the path of a test input under testdata/config.
func configFile(name string) string { return filepath.Join("testdata", "config", name) }

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
		{"bad_theme.toml", "2", []string{`"theme"`, `"solarized"`, `"auto", "dark", "light"`}},
		{"bad_effort.toml", "3", []string{`"reasoning.effort"`, `"extreme"`, `"minimal", "low", "medium", "high"`}},
		{"bad_summary.toml", "1", []string{`"reasoning.summary"`, `"verbose"`, `"auto", "concise", "detailed"`}},
		{"wrong_type.toml", "2", []string{`"store"`, "want true or false, got a string"}},
		{"wrong_table.toml", "1", []string{`"provider"`, "want a table, got a string"}},
		{"scalar_as_table.toml", "1", []string{`"model"`, "want a string, got a table"}},
		{"command_int.toml", "2", []string{`"provider.api_key_command"`, "got an integer"}},
		{"command_mixed.toml", "2", []string{`"provider.api_key_command"`, "array holding an integer"}},
		{"header_int.toml", "2", []string{`"provider.headers.X-Retries"`, "want a string"}},
		{"header_crlf.toml", "2", []string{`"X-Note"`, "line break"}},
		{"negative_retries.toml", "2", []string{`"timeouts.max_retries"`, "-1"}},
		{"bad_base_url.toml", "2", []string{`"provider.base_url"`, "http://"}},
		{"bad_env_name.toml", "2", []string{`"provider.api_key_env"`, `"$OPENAI_API_KEY"`}},
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
		"api_key_literal.toml": "sk-proj-SECRETSECRETSECRET",
		"header_crlf.toml":     "sk-header-secret",
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
	c, err := LoadConfig("config.example.toml", true)
	if err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
	data, err := os.ReadFile("config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := newDocScan(data)
	if ok, err := s.run(); !ok || err != nil {
		t.Fatalf("scan: ok=%t err=%v", ok, err)
	}
	for key := range schema {
		if _, ok := s.lines[key]; !ok {
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
	data, err := os.ReadFile("config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, examples, ok := strings.Cut(string(data), "# Provider examples.")
	if !ok {
		t.Fatal(`config.example.toml has no "# Provider examples." section`)
	}
	var blocks []string
	var cur strings.Builder
	for _, line := range strings.Split(examples+"\n", "\n") {
		if rest, ok := strings.CutPrefix(line, "#   "); ok {
			cur.WriteString(rest + "\n")
			continue
		}
		if cur.Len() > 0 {
			blocks = append(blocks, cur.String())
			cur.Reset()
		}
	}
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
	files = append(files, "config.example.toml")
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
