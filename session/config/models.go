package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"runnel/session/models"
	"runnel/stream"
)

// ModelConfig is one [models."NAME"] table: figures that override or add
// to the built-in table of package session/models. Prices are US dollars
// per million tokens. nil is "not set": the built-in figure stays.
type ModelConfig struct {
	ContextWindow    *int64   `toml:"context_window"`
	InputPrice       *float64 `toml:"input_price"`
	CachedInputPrice *float64 `toml:"cached_input_price"`
	OutputPrice      *float64 `toml:"output_price"`
}

// maxModelPrice bounds a price per million tokens: far above any model's,
// low enough that a typo (a price per token given per thousand) is caught.
const maxModelPrice = 10_000

// validateModels checks every [models."NAME"] entry: a name, a positive
// window, prices from 0 to maxModelPrice.
func (c *Config) validateModels(name string, pos *positions) error {
	for _, model := range slices.Sorted(maps.Keys(c.Models)) {
		m := c.Models[model]
		k := "models." + keyString([]string{model})
		at := func(sub string) string { return pos.at(name, "", 0, k+"."+sub) }
		if model == "" {
			return fmt.Errorf("%s: key \"models\": a model needs a name, as in [models.\"gpt-5\"]", pos.at(name, "", 0, "models"))
		}
		if w := m.ContextWindow; w != nil && *w <= 0 {
			return fmt.Errorf("%s: key %q: %d must be a positive number of tokens", at("context_window"), k+".context_window", *w)
		}
		for _, p := range []struct {
			key string
			v   *float64
		}{{"input_price", m.InputPrice}, {"cached_input_price", m.CachedInputPrice}, {"output_price", m.OutputPrice}} {
			if p.v != nil && (*p.v < 0 || *p.v > maxModelPrice || *p.v != *p.v) {
				return fmt.Errorf("%s: key %q: %v is not a price in dollars per million tokens (0 to %d)", at(p.key), k+"."+p.key, *p.v, maxModelPrice)
			}
		}
	}
	return nil
}

// ModelTable is the built-in table of context windows and prices with the
// file's [models."NAME"] entries applied.
func (c Config) ModelTable() models.Table {
	if len(c.Models) == 0 {
		return models.Table{}
	}
	over := make(map[string]models.Override, len(c.Models))
	for name, m := range c.Models {
		over[name] = models.Override{ContextWindow: m.ContextWindow, InputPrice: m.InputPrice, CachedInputPrice: m.CachedInputPrice, OutputPrice: m.OutputPrice}
	}
	src := "config"
	if c.Path != "" {
		src = displayPath(c.Path)
	}
	return models.NewTable(over, src)
}

// ModelLister lists the models of the provider client talks to, caching
// the list beside the history database (DIR/models/, see models.Lister).
// The demo (label "demo") has no list; a data dir that could not be found
// (dbErr) means no cache.
func ModelLister(client *stream.Client, label, dbPath string, dbErr error) models.Lister {
	l := models.Lister{Client: client}
	if label == "demo" {
		l.Client = nil
	}
	if dbErr == nil && dbPath != "" {
		l.CacheDir = filepath.Dir(dbPath)
	}
	return l
}

// ModelLister is the package function for the settings' provider: the
// list is cached per provider ("default" keeps the cache of a base URL
// alone, as before providers were named).
func (s Settings) ModelLister(client *stream.Client, label, dbPath string, dbErr error) models.Lister {
	l := ModelLister(client, label, dbPath, dbErr)
	if s.Provider != DefaultProvider && label != "demo" {
		l.Provider = s.Provider
	}
	return l
}
