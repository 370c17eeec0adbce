package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestOverrideAppliesOverTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte("model = \"gpt-4.1\"\ntheme = \"dark\"\n[reasoning]\nsummary = \"concise\"\n"), 0o600)
	c, err := LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err = c.Override([]string{"model=gpt-5", "reasoning.effort=high", "store=false", "max_tool_rounds=3", "timeouts.idle=\"30s\"", "provider.headers.X-Team=blue"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "gpt-5" || c.Reasoning.Effort != "high" || *c.Reasoning.Summary != "concise" || c.Theme != "dark" ||
		c.Store == nil || *c.Store || *c.MaxToolRounds != 3 || c.Timeouts.Idle.Seconds() != 30 || c.Provider.Headers["X-Team"] != "blue" || c.Path != path {
		t.Fatalf("overrides not applied over the file: %+v", c)
	}
}

func TestOverrideErrorsMatchTheFile(t *testing.T) {
	for _, tc := range []struct{ override, file, want string }{
		{"modle=x", "modle = \"x\"", `-c modle: unknown key "modle" (did you mean "model"?) — see config.example.toml`},
		{"store=yes", "store = \"yes\"", `-c store: key "store": want true or false, got a string`},
		{"max_tool_rounds=many", "max_tool_rounds = \"many\"", `-c max_tool_rounds: key "max_tool_rounds": want an integer, got a string`},
		{"reasoning.effort=huge", "reasoning.effort = \"huge\"", `-c reasoning.effort: key "reasoning.effort": "huge" is not allowed; use one of`},
		{"theme=../neon", "theme = \"../neon\"", `-c theme: key "theme": "../neon" is not a theme name; use one of "auto", "dark", "light"`},
		{"timeouts.idle=5", "timeouts.idle = 5", `-c timeouts.idle: key "timeouts.idle": want a duration string like "30s", got an integer`},
	} {
		_, err := Config{}.Override([]string{tc.override}, "")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("-c %s: got %v, want %s", tc.override, err, tc.want)
			continue
		}
		// the file's message is the same after its place
		_, ferr := parseConfig([]byte(tc.file), "f.toml")
		_, fileMsg, _ := strings.Cut(ferr.Error(), ": ")
		if _, ours, _ := strings.Cut(err.Error(), ": "); ours != fileMsg {
			t.Errorf("-c %s: %q, the file says %q", tc.override, ours, fileMsg)
		}
	}
}

func TestOverrideIsOneKey(t *testing.T) {
	c, err := Config{}.Override([]string{"model=a\nstore = false"}, "")
	if err != nil || c.Model != "a\nstore = false" || c.Store != nil {
		t.Fatalf("a newline in a value set another key: %+v %v", c, err)
	}
	if _, err := (Config{}).Override([]string{"no equals"}, ""); err == nil || !strings.Contains(err.Error(), "want key=value") {
		t.Fatalf("got %v", err)
	}
}

func TestExpandOverrides(t *testing.T) {
	takes := pflag.NewFlagSet("runnel", pflag.ContinueOnError)
	takes.StringP("prompt", "p", "", "")
	takes.StringP("resume", "r", "", "")
	takes.String("model", "", "")
	takes.BoolP("continue", "c", false, "")
	for _, tc := range []struct{ in, want string }{
		{"-c", "-c"},
		{"-c -p hi", "-c -p hi"},
		{"-c model=gpt-5 -c reasoning.effort=high -p hi", "--override=model=gpt-5 --override=reasoning.effort=high -p hi"},
		{"-c -c model=x", "-c --override=model=x"},
		{"-p -c model=x", "-p -c model=x"}, // -c is the prompt
		{"-p a=b -c", "-p a=b -c"},
		{"-c x=1 -- -c y=2", "--override=x=1 -- -c y=2"},
		{"-c hello", "-c hello"},
		{"--model -c -c m=1", "--model -c --override=m=1"},
		{"-r x=y -c", "-r x=y -c"},
	} {
		got := strings.Join(ExpandOverrides(strings.Fields(tc.in), takes), " ")
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
	if !reflect.DeepEqual(ExpandOverrides(nil, takes), []string{}) {
		t.Error("nil args")
	}
}

// TestOverrideAppliesToTheProviderInUse: a [provider] key, or another
// provider's, cannot change a run on provider "fake": it is refused in one
// line naming the key that would, and suggestions name that key too.
func TestOverrideAppliesToTheProviderInUse(t *testing.T) {
	c := Config{Provider: ProviderConfig{Name: "fake"}, Providers: map[string]ProfileConfig{"fake": {BaseURL: "http://127.0.0.1:1/v1"}}}
	for _, tt := range []struct {
		over  []string
		flag  string
		want  string
		works bool
	}{
		{over: []string{"provider.base_url=http://x/v1"}, want: `-c provider.base_url: the [provider] table is the "default" provider's, and "fake" is in use; use -c providers.fake.base_url=…`},
		{over: []string{"providers.ollama.base_url=http://x/v1"}, want: `provider "ollama" is not in use ("fake" is)`},
		{over: []string{"base_url=http://x/v1"}, want: `did you mean "providers.fake.base_url"?`},
		{over: []string{"providers.fake.base_url=http://x/v1"}, works: true},
		{over: []string{"providers.ollama.base_url=http://x/v1", "provider=ollama"}, works: true},
		{over: []string{"provider.base_url=http://x/v1"}, flag: "default", works: true},
	} {
		got, err := c.Override(tt.over, tt.flag)
		switch {
		case tt.works && err != nil:
			t.Errorf("%q: %v", tt.over, err)
		case tt.works && tt.over[0] == "providers.fake.base_url=http://x/v1" && got.Providers["fake"].BaseURL != "http://x/v1":
			t.Errorf("%q: base_url %q", tt.over, got.Providers["fake"].BaseURL)
		case !tt.works && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: %v, want %q", tt.over, err, tt.want)
		}
	}
}
