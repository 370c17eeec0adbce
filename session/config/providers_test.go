package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadText writes doc to a config file in a temporary directory and loads
// it; name is the file's base name, which messages start with.
func loadText(t *testing.T, doc string) (Config, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(path, true)
	return c, path, err
}

func mustResolve(t *testing.T, doc string, env map[string]string, o Overrides) Settings {
	t.Helper()
	c, _, err := loadText(t, doc)
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	s, err := c.Resolve(envOf(env), o)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return s
}

// Every preset, chosen with nothing else written, gets its server's URL,
// key variable and store; a keyless local one is no demo.
func TestPresetDefaults(t *testing.T) {
	keys := map[string]string{"OPENAI_API_KEY": "sk-o", "OPENROUTER_API_KEY": "sk-r", "XAI_API_KEY": "sk-x", "GROQ_API_KEY": "sk-g"}
	tests := []struct {
		name, url, key, source string
		store                  bool
	}{
		{"openai", "https://api.openai.com/v1", "sk-o", "env OPENAI_API_KEY", true},
		{"openrouter", "https://openrouter.ai/api/v1", "sk-r", "env OPENROUTER_API_KEY", false},
		{"xai", "https://api.x.ai/v1", "sk-x", "env XAI_API_KEY", true},
		{"groq", "https://api.groq.com/openai/v1", "sk-g", "env GROQ_API_KEY", false},
		{"ollama", "http://localhost:11434/v1", "", "", false},
		{"lmstudio", "http://localhost:1234/v1", "", "", true},
		{"vllm", "http://localhost:8000/v1", "", "", false},
		{"llamacpp", "http://localhost:8080/v1", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustResolve(t, `provider = "`+tt.name+`"`, keys, Overrides{})
			if s.Provider != tt.name || s.BaseURL != tt.url || s.APIKey != tt.key || s.KeySource != tt.source || s.Store != tt.store {
				t.Errorf("got provider %q url %q key %q (%s) store %t; want %q %q %q (%s) %t",
					s.Provider, s.BaseURL, s.APIKey, s.KeySource, s.Store, tt.name, tt.url, tt.key, tt.source, tt.store)
			}
			if s.Demo() {
				t.Error("a chosen provider runs the demo")
			}
			if s.Model != DefaultModel {
				t.Errorf("model %q, want the default %q", s.Model, DefaultModel)
			}
		})
	}
}

// Keys never cross providers: ollama gets no OPENAI_API_KEY, and the
// OPENAI_BASE_URL of the default provider does not move a preset.
func TestPresetTakesNoOtherKey(t *testing.T) {
	s := mustResolve(t, `provider = "ollama"`, map[string]string{"OPENAI_API_KEY": "sk-secret", "OPENAI_BASE_URL": "https://elsewhere.test/v1"}, Overrides{})
	if s.APIKey != "" || s.BaseURL != "http://localhost:11434/v1" {
		t.Errorf("ollama got key %q and url %q", s.APIKey, s.BaseURL)
	}
}

// A [providers.NAME] table with a preset's name changes only what it
// writes; the top-level keys fill what neither says.
func TestPresetOverrides(t *testing.T) {
	doc := `provider = "ollama"
model = "top-model"
store = true
[timeouts]
idle = "2m"
max_retries = 5
[providers.ollama]
base_url = "http://gpu-box:11434/v1/"
model = "qwen3:8b"
headers = { "X-Box" = "gpu" }
[providers.ollama.timeouts]
idle = "20m"
`
	s := mustResolve(t, doc, nil, Overrides{})
	if s.BaseURL != "http://gpu-box:11434/v1" || s.Model != "qwen3:8b" || s.Headers["X-Box"] != "gpu" {
		t.Errorf("got url %q model %q headers %v", s.BaseURL, s.Model, s.Headers)
	}
	if s.Store {
		t.Error("store = true at the top level turned store on for ollama, which keeps no state")
	}
	if s.IdleTimeout != 20*time.Minute || s.MaxRetries != 5 || s.ConnectTimeout != DefaultConnectTimeout {
		t.Errorf("timeouts idle %s retries %d connect %s; want 20m (profile), 5 (top level), 30s (default)", s.IdleTimeout, s.MaxRetries, s.ConnectTimeout)
	}
	on := mustResolve(t, "provider = \"vllm\"\n[providers.vllm]\nstore = true\n", nil, Overrides{})
	if !on.Store {
		t.Error("[providers.vllm] store = true left store off")
	}
	off := mustResolve(t, "provider = \"openai\"\nstore = false\n", map[string]string{"OPENAI_API_KEY": "k"}, Overrides{})
	if off.Store {
		t.Error("store = false at the top level did not reach the openai preset")
	}
}

// A table of the user's own: its URL, its key variable, nothing else's key.
func TestCustomProvider(t *testing.T) {
	doc := `provider = "work"
[providers.work]
base_url = "https://gw.example.test/v1"
api_key_env = "WORK_KEY"
background = true
`
	s := mustResolve(t, doc, map[string]string{"WORK_KEY": "sk-work", "OPENAI_API_KEY": "sk-o"}, Overrides{})
	if s.Provider != "work" || s.BaseURL != "https://gw.example.test/v1" || s.APIKey != "sk-work" || !s.Store || !s.Background {
		t.Errorf("got %v background %t", s, s.Background)
	}
	keyless := mustResolve(t, "provider = \"box\"\n[providers.box]\nbase_url = \"http://127.0.0.1:9/v1\"\n", map[string]string{"OPENAI_API_KEY": "sk-o"}, Overrides{})
	if keyless.APIKey != "" || keyless.Demo() {
		t.Errorf("a table naming no key variable got key %q (demo %t)", keyless.APIKey, keyless.Demo())
	}
}

// The older [provider] table is the provider named "default", and runs
// unless --provider names another; --provider and -c provider=NAME choose.
func TestLegacyTableAndSelection(t *testing.T) {
	doc := `[provider]
base_url = "https://legacy.test/v1"
api_key_env = "LEGACY_KEY"
[providers.ollama]
model = "llama3"
`
	env := map[string]string{"LEGACY_KEY": "sk-l"}
	s := mustResolve(t, doc, env, Overrides{})
	if s.Provider != DefaultProvider || s.BaseURL != "https://legacy.test/v1" || s.APIKey != "sk-l" {
		t.Errorf("legacy table: %v", s)
	}
	s = mustResolve(t, doc, env, Overrides{Provider: "ollama"})
	if s.Provider != "ollama" || s.BaseURL != "http://localhost:11434/v1" || s.APIKey != "" || s.Model != "llama3" {
		t.Errorf("--provider ollama: %v", s)
	}
	s = mustResolve(t, doc, env, Overrides{Provider: "ollama", Model: "flag-model", BaseURL: "http://127.0.0.1:1/v1"})
	if s.Model != "flag-model" || s.BaseURL != "http://127.0.0.1:1/v1" {
		t.Errorf("flags over the profile: model %q url %q", s.Model, s.BaseURL)
	}
	c, _, err := loadText(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err = c.Override([]string{"provider=ollama"}, "")
	if err != nil {
		t.Fatalf("-c provider=ollama: %v", err)
	}
	if s, err := c.Resolve(envOf(env), Overrides{}); err != nil || s.Provider != "ollama" {
		t.Errorf("-c provider=ollama: provider %q, %v", s.Provider, err)
	}
	if _, err := c.Override([]string{"provider=olama"}, ""); err == nil || !strings.Contains(err.Error(), `unknown provider "olama" (did you mean "ollama"?)`) {
		t.Errorf("-c provider=olama: %v", err)
	}
	if got := c.ProviderNames(); strings.Join(got, ",") != "default,openai,azure,openrouter,xai,groq,ollama,lmstudio,vllm,llamacpp" {
		t.Errorf("ProviderNames = %v", got)
	}
}

// Each bad input is one line naming the file, the line and the key.
func TestProviderErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"unknown name", "model = \"x\"\n\nprovider = \"olama\"\n",
			`:3: key "provider": unknown provider "olama" (did you mean "ollama"?); known: default, openai, azure, openrouter, xai, groq, ollama, lmstudio, vllm, llamacpp — or add a [providers.olama] table with its base_url`},
		{"azure without its URL", "provider = \"azure\"\n",
			`:1: key "provider": provider "azure" needs your resource's URL: write base_url = "https://RESOURCE.openai.azure.com/openai/v1" in [providers.azure]`},
		{"azure table without its URL", "model = \"x\"\n[providers.azure]\napi_key_env = \"AZ\"\n",
			`:2: key "providers.azure.base_url": provider "azure" needs your resource's URL: write base_url = "https://RESOURCE.openai.azure.com/openai/v1" in [providers.azure]`},
		{"own table without a URL", "[providers.box]\nmodel = \"m\"\n",
			`:1: key "providers.box.base_url": provider "box" has no base_url: a provider that is not built in needs one, like "http://localhost:8000/v1"`},
		{"profile is a string", "[providers]\nollama = \"http://x\"\n",
			`:2: key "providers.ollama": want a table, got a string`},
		{"store is a string", "[providers.ollama]\nstore = \"yes\"\n",
			`:2: key "providers.ollama.store": want true or false, got a string`},
		{"providers is a number", "providers = 3\n",
			`:1: key "providers": want a table, got an integer`},
		{"provider is a number", "model = \"m\"\nprovider = 5\n",
			`:2: key "provider": want a provider name like "ollama", or a [provider] table, got an integer`},
		{"provider is an array", "provider = [\"ollama\"]\n",
			`:1: key "provider": want a provider name like "ollama", or a [provider] table, got an array`},
		{"bad profile URL", "[providers.ollama]\nbase_url = \"localhost:11434\"\n",
			`:2: key "providers.ollama.base_url": "localhost:11434" must start with http:// or https://`},
		{"bad timeout", "[providers.ollama.timeouts]\nidle = 30\n",
			`:2: key "providers.ollama.timeouts.idle": want a duration string like "30s", got an integer`},
		{"unknown profile key", "[providers.ollama]\nbase_ur = \"http://x/v1\"\n",
			`:2: unknown key "providers.ollama.base_ur" (did you mean "providers.ollama.base_url"?) — see config.example.toml`},
		{"both default tables", "[provider]\nbase_url = \"http://a.test/v1\"\n[providers.default]\nbase_url = \"http://b.test/v1\"\n",
			`:3: key "providers.default": the [provider] table is already the provider named default; keep one of the two`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, err := loadText(t, tt.doc)
			if err == nil {
				t.Fatal("LoadConfig succeeded; want an error")
			}
			if got, want := err.Error(), path+tt.want; got != want {
				t.Errorf("error\n got %s\nwant %s", got, want)
			}
		})
	}
}

// Choosing on the command line: an unknown name and a provider whose key
// is missing are one line each, never the demo.
func TestResolveProviderErrors(t *testing.T) {
	tests := []struct {
		o    Overrides
		doc  string
		want string
	}{
		{Overrides{Provider: "nope"}, "", `--provider nope: unknown provider "nope"; known: default, openai`},
		{Overrides{Provider: "azure"}, "", `--provider azure: provider "azure" needs your resource's URL: write base_url = "https://RESOURCE.openai.azure.com/openai/v1" in [providers.azure]`},
		{Overrides{Provider: "openai"}, "", `provider "openai": no API key: set $OPENAI_API_KEY (or providers.openai.api_key_command in the config)`},
		{Overrides{}, "provider = \"work\"\n[providers.work]\nbase_url = \"https://w.test/v1\"\napi_key_command = \"exit 3\"\n",
			`providers.work.api_key_command failed (exit status 3); its output is hidden`},
	}
	for _, tt := range tests {
		c, _, err := loadText(t, tt.doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Resolve(envOf(nil), tt.o)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Resolve(%+v) = %v; want %q", tt.o, err, tt.want)
		}
	}
}

// Profiles list where a key comes from, never the key.
func TestProfileKeySource(t *testing.T) {
	c, _, err := loadText(t, "[providers.work]\nbase_url = \"https://w.test/v1\"\napi_key_command = \"pass show work\"\n")
	if err != nil {
		t.Fatal(err)
	}
	env := envOf(map[string]string{"OPENAI_API_KEY": "sk-visible"})
	for name, want := range map[string]string{"openai": "$OPENAI_API_KEY (set)", "xai": "$XAI_API_KEY (not set)", "ollama": "no key", "work": "api_key_command", "default": "$OPENAI_API_KEY (set)"} {
		p, err := c.Profile(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.KeySource(env); got != want {
			t.Errorf("%s: key source %q, want %q", name, got, want)
		}
	}
}
