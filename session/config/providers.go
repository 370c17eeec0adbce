package config

// This file is providers and profiles: the [providers.NAME] tables, the
// built-in presets they start from (presets.go), and which one runs.
//
// The top-level key "provider" has two forms, and TOML allows only one of
// them in a file:
//   - provider = "NAME" chooses the provider: a [providers.NAME] table, a
//     built-in preset, or "default";
//   - a [provider] table (the older form) is the provider named "default",
//     and it runs unless --provider names another.
// With neither, "default" runs: $OPENAI_BASE_URL or OpenAI, the key from
// $OPENAI_API_KEY, and the demo when there is no key and no URL.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// DefaultProvider is the name of the provider the [provider] table (or
// nothing) describes.
const DefaultProvider = "default"

// ProfileConfig is one [providers.NAME] table. A key left out keeps the
// preset's value (for a preset's name), else the top-level one.
type ProfileConfig struct {
	BaseURL       string            `toml:"base_url"`
	APIKeyEnv     string            `toml:"api_key_env"`     // "" = the preset's variable, else no key
	APIKeyCommand Command           `toml:"api_key_command"` // empty = not set
	Headers       map[string]string `toml:"headers"`
	Model         string            `toml:"model"`
	Store         *bool             `toml:"store"`      // nil = the preset's, else the top-level store
	Background    *bool             `toml:"background"` // nil = the top-level background
	Timeouts      TimeoutsConfig    `toml:"timeouts"`   // zero fields = the top-level [timeouts]
}

// UnmarshalText reads the string form of the top-level "provider" key: the
// name of the provider to use. go-toml hands it the text of a number or
// boolean too; those are refused.
func (p *ProviderConfig) UnmarshalText(b []byte) error {
	s := string(b)
	if _, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64); err == nil || s == "true" || s == "false" {
		return fmt.Errorf("%q is not a provider name", s)
	}
	p.Name = strings.TrimSpace(s)
	return nil
}

// written reports whether the file has a [provider] table with something in
// it.
func (p ProviderConfig) written() bool {
	return p.BaseURL != "" || p.APIKeyEnv != "" || len(p.APIKeyCommand) > 0 || len(p.Headers) > 0
}

// Profile is one provider as the config describes it: a preset with the
// user's table over it, a table of the user's own, or "default".
type Profile struct {
	Name          string
	BaseURL       string // "" : none given (default: $OPENAI_BASE_URL, else OpenAI's)
	APIKeyEnv     string // "" : no key from the environment
	APIKeyCommand Command
	Headers       map[string]string
	Model         string // "" : the top-level model
	Store         *bool  // as written in the table; see StoreFor
	Background    *bool
	Timeouts      TimeoutsConfig
	Preset        *Preset // the built-in it starts from; nil for none
	Configured    bool    // the file has a table for it
	Default       bool    // the [provider] table (or nothing): may fall back to the demo
}

// NeedsKey reports whether requests to the provider carry a key.
func (p Profile) NeedsKey() bool { return p.APIKeyEnv != "" || len(p.APIKeyCommand) > 0 }

// KeySource says where the key comes from, never what it is: "$OPENAI_API_KEY
// (set)", "$X (not set)", "api_key_command" or "no key". env nil: not looked
// at ("$X").
func (p Profile) KeySource(env func(string) string) string {
	switch {
	case len(p.APIKeyCommand) > 0:
		return "api_key_command"
	case p.APIKeyEnv == "":
		return "no key"
	case env == nil:
		return "$" + p.APIKeyEnv
	case strings.TrimSpace(env(p.APIKeyEnv)) != "":
		return "$" + p.APIKeyEnv + " (set)"
	}
	return "$" + p.APIKeyEnv + " (not set)"
}

// keyName is the config key that sets the profile's key command, for
// messages.
func (p Profile) keyName() string {
	if p.Default {
		return "provider.api_key_command"
	}
	return "providers." + keyString([]string{p.Name}) + ".api_key_command"
}

// keyHint says what to check when the provider's server rejects its key:
// its own key command or variable, with the provider's name.
func (p Profile) keyHint() string {
	switch {
	case len(p.APIKeyCommand) > 0 && p.Default:
		return p.keyName()
	case len(p.APIKeyCommand) > 0:
		return p.keyName() + ` (provider ` + strconv.Quote(p.Name) + `)`
	case p.Default && p.APIKeyEnv != "":
		return "$" + p.APIKeyEnv + " (or api_key_env / api_key_command in config)"
	case p.APIKeyEnv != "":
		return "$" + p.APIKeyEnv + ` (provider ` + strconv.Quote(p.Name) + `'s key)`
	}
	return `provider ` + strconv.Quote(p.Name) + `: it sends no key; set api_key_env or api_key_command in its table`
}

// DefaultProviderName is the provider that runs without --provider.
func (c Config) DefaultProviderName() string { return first(c.Provider.Name, DefaultProvider) }

// ProviderNames lists every provider the config can use: "default", the
// user's own tables (sorted), then the presets in table order.
func (c Config) ProviderNames() []string {
	out := []string{DefaultProvider}
	for _, n := range slices.Sorted(maps.Keys(c.Providers)) {
		if _, preset := LookupPreset(n); !preset && n != DefaultProvider {
			out = append(out, n)
		}
	}
	for _, p := range presets {
		out = append(out, p.Name)
	}
	return out
}

// Profile returns the provider named name, or an error saying it is
// unknown. It reads no environment and runs nothing.
func (c Config) Profile(name string) (Profile, error) {
	user, configured := c.Providers[name]
	if name == DefaultProvider && !configured {
		return Profile{
			Name: DefaultProvider, BaseURL: c.Provider.BaseURL, APIKeyEnv: c.APIKeyEnv(),
			APIKeyCommand: c.Provider.APIKeyCommand, Headers: c.Provider.Headers,
			Configured: c.Provider.written(), Default: true,
		}, nil
	}
	p := Profile{Name: name, Configured: configured}
	if pre, ok := LookupPreset(name); ok {
		p.Preset, p.BaseURL, p.APIKeyEnv = &pre, pre.BaseURL, pre.KeyEnv
	} else if !configured {
		return Profile{}, c.unknownProvider(name)
	}
	p.BaseURL = first(user.BaseURL, p.BaseURL)
	p.APIKeyEnv = first(user.APIKeyEnv, p.APIKeyEnv)
	if len(user.APIKeyCommand) > 0 {
		p.APIKeyCommand = user.APIKeyCommand
	}
	p.Headers, p.Model, p.Store, p.Background, p.Timeouts = user.Headers, user.Model, user.Store, user.Background, user.Timeouts
	return p, nil
}

// StoreFor is store for the profile: its table's store, else false for a
// server that keeps no state (a preset says so), else the top-level store
// (true by default).
func (c Config) StoreFor(p Profile) bool {
	switch {
	case p.Store != nil:
		return *p.Store
	case p.Preset != nil && !p.Preset.Store:
		return false
	}
	return c.Store == nil || *c.Store
}

// unknownProvider is the error for a name no table or preset has.
func (c Config) unknownProvider(name string) error {
	names := c.ProviderNames()
	msg := fmt.Sprintf("unknown provider %q", name)
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return fmt.Errorf("%s; known: %s — or add a [providers.%s] table with its base_url", msg, strings.Join(names, ", "), keyString([]string{name}))
}

// needsURL is the error for a provider with no base URL (azure before its
// resource URL is written, or a table of the user's own without one).
func needsURL(name string, pre *Preset) error {
	if pre != nil {
		return fmt.Errorf("provider %q needs your resource's URL: write base_url = %q in [providers.%s]", name, pre.URLHint, name)
	}
	return fmt.Errorf("provider %q has no base_url: a provider that is not built in needs one, like \"http://localhost:8000/v1\"", name)
}

// validateProviders checks the [providers.NAME] tables and the provider the
// top-level key names. The name is checked only in a whole config: an
// override alone (-c provider=NAME) may name a table of the file.
func (c *Config) validateProviders(name string, pos *positions) error {
	for _, pn := range slices.Sorted(maps.Keys(c.Providers)) {
		p := c.Providers[pn]
		k := "providers." + keyString([]string{pn})
		at := func(sub string) string { return pos.at(name, "", 0, strings.TrimSuffix(k+"."+sub, ".")) }
		switch pre, preset := LookupPreset(pn); {
		case strings.TrimSpace(pn) == "":
			return fmt.Errorf("%s: key \"providers\": a provider needs a name, as in [providers.ollama]", pos.at(name, "", 0, "providers"))
		case pn == DefaultProvider && c.Provider.written():
			return fmt.Errorf("%s: key %q: the [provider] table is already the provider named default; keep one of the two", at(""), k)
		case p.BaseURL != "":
			if _, err := checkBaseURL(p.BaseURL); err != nil {
				return fmt.Errorf("%s: key %q: %w", at("base_url"), k+".base_url", err)
			}
		case preset && pre.BaseURL == "":
			return fmt.Errorf("%s: key %q: %w", at(""), k+".base_url", needsURL(pn, &pre))
		case !preset:
			return fmt.Errorf("%s: key %q: %w", at(""), k+".base_url", needsURL(pn, nil))
		}
		if env := p.APIKeyEnv; env != "" && !validEnvName(env) {
			return fmt.Errorf("%s: key %q: %q is not an environment variable name (letters, digits and _)", at("api_key_env"), k+".api_key_env", env)
		}
		for _, h := range slices.Sorted(maps.Keys(p.Headers)) {
			if err := checkHeader(h, p.Headers[h]); err != nil {
				return fmt.Errorf("%s: key %q: %w", at("headers."+keyString([]string{h})), k+".headers", err)
			}
		}
		if n := p.Timeouts.MaxRetries; n != nil && *n < 0 {
			return fmt.Errorf("%s: key %q: %d must not be negative (0 means never retry)", at("timeouts.max_retries"), k+".timeouts.max_retries", *n)
		}
	}
	pn := c.Provider.Name
	if pn == "" || name == fragmentName {
		return nil
	}
	p, err := c.Profile(pn)
	if err == nil && p.BaseURL == "" && !p.Default {
		err = needsURL(pn, p.Preset)
	}
	if err != nil {
		return fmt.Errorf("%s: key \"provider\": %w", pos.at(name, "", 0, "provider"), err)
	}
	return nil
}
