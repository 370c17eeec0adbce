package config

import (
	"strings"
	"testing"
)

func TestModelOverrides(t *testing.T) {
	c, err := parseConfig([]byte(`
[models."gpt-5"]
input_price = 2

[models."my-local"]
context_window = 32000
input_price = 0.5
cached_input_price = 0.05
output_price = 1.5
`), "config.toml")
	if err != nil {
		t.Fatal(err)
	}
	tab := c.ModelTable()
	g, ok := tab.Lookup("gpt-5-2025-08-07")
	if !ok || g.Input != 2 || g.Output != 10 || g.ContextWindow != 400_000 {
		t.Fatalf("gpt-5 %+v %v", g, ok)
	}
	m, ok := tab.Lookup("my-local")
	if !ok || m.ContextWindow != 32000 || m.CachedInput != 0.05 || m.Output != 1.5 {
		t.Fatalf("my-local %+v %v", m, ok)
	}
}

func TestModelOverrideErrors(t *testing.T) {
	for doc, want := range map[string]string{
		"[models.\"x\"]\ncontext_window = -5\n":     `config.toml:2: key "models.x.context_window": -5 must be a positive number of tokens`,
		"[models.\"x\"]\ninput_price = \"cheap\"\n": `config.toml:2: key "models.x.input_price": want a number, got a string`,
		"[models.\"x\"]\n\ninptu_price = 1\n":       `config.toml:3: unknown key "models.x.inptu_price"`,
		"[models.\"x\"]\noutput_price = 1e9\n":      `config.toml:2: key "models.x.output_price": 1e+09 is not a price in dollars per million tokens (0 to 10000)`,
		"[models.\"gpt-5.1\"]\ninput_price = -1\n":  `config.toml:2: key "models.\"gpt-5.1\".input_price": -1 is not a price`,
	} {
		_, err := parseConfig([]byte(doc), "config.toml")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n got %v\nwant %s", doc, err, want)
		}
	}
}
