package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"runnel/session/attach"
)

// envOf is an environment holding only m.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolveDefaults(t *testing.T) {
	s, err := Config{}.Resolve(envOf(nil), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		Provider:         DefaultProvider,
		BaseURL:          DefaultBaseURL,
		Model:            DefaultModel,
		ReasoningSummary: "auto",
		Theme:            "auto",
		Headers:          map[string]string{},
		Store:            true,
		Truncation:       "disabled",
		IdleTimeout:      5 * time.Minute,
		ConnectTimeout:   30 * time.Second,
		MaxRetries:       3,
		MaxResponseBytes: 32 << 20,
		Attach:           attach.Limits{MaxFile: 20 << 20, MaxMessage: 50 << 20, Detail: "auto"},
		KeyHint:          "$OPENAI_API_KEY (or api_key_env / api_key_command in config)",
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Resolve of zero config:\n got %v\nwant %v", fields(s), fields(want))
	}
	if !s.Demo() {
		t.Error("Demo() = false with no key and no base URL")
	}
}

func TestResolveFullConfig(t *testing.T) {
	c, err := LoadConfig(configFile("full.toml"), true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Resolve(envOf(map[string]string{"RUNNEL_TEST_KEY": "sk-env-ignored"}), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		Provider:         DefaultProvider,
		BaseURL:          "https://example.test/v1",
		APIKey:           "sk-from-command",
		Model:            "gpt-5",
		Instructions:     "Answer briefly.\nUse British spelling.",
		ReasoningEffort:  "high",
		ReasoningSummary: "detailed",
		Theme:            "dark",
		Headers:          map[string]string{"OpenAI-Organization": "org_123", "X-Trace": "on"},
		Store:            false,
		CompactThreshold: 150000,
		Truncation:       "auto",
		IdleTimeout:      90 * time.Second,
		ConnectTimeout:   5 * time.Second,
		MaxRetries:       0,
		MaxResponseBytes: 1 << 20,
		KeySource:        "api_key_command",
		KeyHint:          "provider.api_key_command",
		BaseURLSet:       true,
		Attach:           attach.Limits{MaxFile: attach.DefaultMaxFile, MaxMessage: attach.DefaultMaxMessage, Detail: "auto"},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Resolve(full.toml):\n got %v\nwant %v", fields(s), fields(want))
	}
	s.Headers["X-Trace"] = "changed"
	if c.Provider.Headers["X-Trace"] != "on" {
		t.Error("Settings.Headers aliases Config.Provider.Headers")
	}
}

func TestResolvePrecedence(t *testing.T) {
	fileCfg := Config{Model: "file-model", Provider: ProviderConfig{BaseURL: "http://file.test/v1"}}
	env := map[string]string{"OPENAI_BASE_URL": "http://env.test/v1/"}
	flags := Overrides{Model: "flag-model", BaseURL: "http://flag.test/v1"}
	tests := []struct {
		name       string
		c          Config
		env        map[string]string
		o          Overrides
		baseURL    string
		model      string
		baseURLSet bool
	}{
		{"default", Config{}, nil, Overrides{}, DefaultBaseURL, DefaultModel, false},
		{"env", Config{}, env, Overrides{}, "http://env.test/v1", DefaultModel, true},
		{"file over env", fileCfg, env, Overrides{}, "http://file.test/v1", "file-model", true},
		{"flag over file", fileCfg, env, flags, "http://flag.test/v1", "flag-model", true},
		{"flag over default", Config{}, nil, flags, "http://flag.test/v1", "flag-model", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.c.Resolve(envOf(tt.env), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if s.BaseURL != tt.baseURL || s.Model != tt.model || s.BaseURLSet != tt.baseURLSet {
				t.Errorf("got BaseURL %q Model %q BaseURLSet %t; want %q %q %t",
					s.BaseURL, s.Model, s.BaseURLSet, tt.baseURL, tt.model, tt.baseURLSet)
			}
		})
	}
}

func TestResolveOtherOverrides(t *testing.T) {
	c := Config{Instructions: "file", Reasoning: ReasoningConfig{Effort: "low"}}
	s, err := c.Resolve(envOf(nil), Overrides{Instructions: "flag", ReasoningEffort: "high"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Instructions != "flag" || s.ReasoningEffort != "high" {
		t.Errorf("got Instructions %q ReasoningEffort %q; want the flags' values", s.Instructions, s.ReasoningEffort)
	}
	if s, err := c.Resolve(envOf(nil), Overrides{ReasoningEffort: "max"}); err != nil || s.ReasoningEffort != "max" {
		t.Errorf("--reasoning-effort max: got %q, %v; want it accepted (the OpenAI API lists max)", s.ReasoningEffort, err)
	}
	_, err = c.Resolve(envOf(nil), Overrides{ReasoningEffort: "maximal"})
	if err == nil || !strings.Contains(err.Error(), `"maximal"`) || !strings.Contains(err.Error(), `"medium"`) {
		t.Errorf("bad effort flag: got %v; want an error naming the value and the allowed ones", err)
	}
}

func TestDemo(t *testing.T) {
	local := Config{Provider: ProviderConfig{BaseURL: "http://localhost:1234/v1"}}
	tests := []struct {
		name string
		c    Config
		env  map[string]string
		o    Overrides
		demo bool
	}{
		{"nothing configured", Config{}, nil, Overrides{}, true},
		{"key only", Config{}, map[string]string{"OPENAI_API_KEY": "sk-x"}, Overrides{}, false},
		{"base URL in env", Config{}, map[string]string{"OPENAI_BASE_URL": "http://localhost:8000/v1"}, Overrides{}, false},
		{"local server in file, no key", local, nil, Overrides{}, false},
		{"base URL flag", Config{}, nil, Overrides{BaseURL: "http://localhost:11434/v1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.c.Resolve(envOf(tt.env), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if s.Demo() != tt.demo {
				t.Errorf("Demo() = %t, want %t (settings %v)", s.Demo(), tt.demo, s)
			}
		})
	}
	// A local server without a key sends no Authorization header.
	s, _ := local.Resolve(envOf(nil), Overrides{})
	if s.APIKey != "" || s.KeySource != "" {
		t.Errorf("local server: got key source %q; want none", s.KeySource)
	}
}

func TestResolveValidatesHandBuiltConfig(t *testing.T) {
	_, err := Config{Theme: "ne.on"}.Resolve(envOf(nil), Overrides{})
	if err == nil || !strings.HasPrefix(err.Error(), `config: key "theme": "ne.on"`) {
		t.Errorf("got %v; want an error naming the key and value", err)
	}
}
