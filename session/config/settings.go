package config

// This file resolves a Config against the environment and command-line
// flags into Settings. It does not read the config file (config.go), find
// the key (apikey.go) nor make any HTTP request.
//
// Precedence, for each setting: flag > config file > environment > default.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"runnel/session/attach"
	"runnel/session/knob"
)

// Defaults for settings that nothing configured.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultModel          = "gpt-5-mini"
	DefaultAPIKeyEnv      = "OPENAI_API_KEY"
	DefaultIdleTimeout    = 5 * time.Minute
	DefaultConnectTimeout = 30 * time.Second
	DefaultMaxRetries     = 3

	baseURLEnv = "OPENAI_BASE_URL"
)

// Allowed values of the enumerated keys. "" means "not sent".
var (
	efforts   = append([]string{""}, knob.ReasoningEfforts...)
	summaries = []string{"", "auto", "concise", "detailed"}
)

// Overrides are the settings given as command-line flags; "" = not given.
type Overrides struct {
	BaseURL, Model, Instructions, ReasoningEffort string
	Provider                                      string // --provider NAME
	Background                                    bool   // --background
}

// Settings are the config resolved against flags and environment: every
// field holds the value to use.
//
// Invariants (as returned by Resolve):
//   - BaseURL is an http(s) URL with no trailing slash.
//   - APIKey is "" (send no Authorization header) or one line with no
//     spaces or control bytes. It never appears in errors or in String.
//   - KeySource is "" exactly when APIKey is "".
//   - Provider names a provider of the config; one that is not "default"
//     has BaseURLSet, and an APIKey unless it takes none.
//   - Headers is never nil and is not shared with the Config.
//   - Timeouts are positive; MaxRetries >= 0.
type Settings struct {
	Provider         string // the provider's name: "default", a [providers.NAME] table's or a preset's
	BaseURL          string
	APIKey           string
	Model            string
	Instructions     string
	ReasoningEffort  string // "" = server default
	ReasoningSummary string // "" = ask for no summary
	Theme            string
	Headers          map[string]string
	Store            bool
	CompactThreshold int64         // [context] compact_threshold: tokens; 0 = off
	Truncation       string        // [context] truncation: "", "auto" or "disabled"
	LLMTitle         bool          // titles sessions with one extra request after the first turn
	Background       bool          // background = true or --background: resumable streams
	State            string        // state: "", "chain" (the same) or "conversation"
	IdleTimeout      time.Duration // max silence between stream events
	ConnectTimeout   time.Duration // dial + TLS (the idle timeout bounds the wait for headers)
	MaxRetries       int           // retries before the first byte
	MaxResponseBytes int           // the most text one response may hold
	KeySource        string        // "env OPENAI_API_KEY", "api_key_command" or ""
	KeyHint          string        // what to check when the server rejects the key: the provider's own variable or command
	BaseURLSet       bool          // the base URL came from a flag, the file or the environment
	Attach           attach.Limits // [attachments]: limits and image detail
	ServiceTier      string        // service_tier: "" sends none
	Verbosity        string        // verbosity (text.verbosity): "" sends none
	PromptCacheKey   string        // prompt_cache_key as configured: "" = one per session, "off" = none, else this key
	// DemoSpeed is how fast the built-in demo answers (Client), over its
	// natural pace: 0 or 1 is natural. No file, flag or variable sets it;
	// in-process tests do, so they don't wait on the demo's pacing.
	DemoSpeed float64
}

// Demo reports whether nothing points runnel at a real provider: no API
// key and no base URL anywhere. The built-in demo provider runs then.
func (s Settings) Demo() bool { return s.APIKey == "" && !s.BaseURLSet }

// String describes the settings with the API key redacted, so that printing
// a Settings by accident cannot leak the key.
func (s Settings) String() string {
	key := "none"
	if s.APIKey != "" {
		key = "set from " + s.KeySource
	}
	return fmt.Sprintf("Settings{Provider: %q, BaseURL: %q, Model: %q, Key: %s, Store: %t, Theme: %q}", s.Provider, s.BaseURL, s.Model, key, s.Store, s.Theme)
}

// GoString keeps %#v as safe as %v.
func (s Settings) GoString() string { return s.String() }

// Resolve applies flags, environment and defaults to the config. env looks
// up environment variables (nil means os.Getenv). When api_key_command is
// set, Resolve runs it, waiting at most 10 seconds.
func (c Config) Resolve(env func(string) string, o Overrides) (Settings, error) {
	if env == nil {
		env = os.Getenv
	}
	name := "config"
	if c.Path != "" {
		name = displayPath(c.Path)
	}
	if err := c.validate(name, nil); err != nil {
		return Settings{}, err
	}
	pname := first(o.Provider, c.DefaultProviderName())
	where := name + ": key \"provider\""
	if o.Provider != "" {
		where = "--provider " + quoteArg(o.Provider)
	}
	p, err := c.Profile(pname)
	if err != nil {
		return Settings{}, fmt.Errorf("%s: %w", where, err)
	}
	s := Settings{
		Provider:         pname,
		BaseURL:          DefaultBaseURL,
		Model:            first(o.Model, p.Model, c.Model, DefaultModel),
		Instructions:     first(o.Instructions, c.Instructions),
		ReasoningEffort:  first(o.ReasoningEffort, c.Reasoning.Effort),
		ReasoningSummary: "auto",
		Theme:            first(c.Theme, "auto"),
		Headers:          make(map[string]string, len(p.Headers)),
		Store:            c.StoreFor(p),
		CompactThreshold: c.Context.CompactThreshold,
		Truncation:       first(c.Context.Truncation, "disabled"),
		LLMTitle:         c.LLMTitle,
		Background:       c.Background || o.Background,
		ServiceTier:      c.ServiceTier,
		Verbosity:        c.Verbosity,
		PromptCacheKey:   c.PromptCacheKey,
		IdleTimeout:      first(p.Timeouts.Idle.Duration, c.Timeouts.Idle.Duration, DefaultIdleTimeout),
		ConnectTimeout:   first(p.Timeouts.Connect.Duration, c.Timeouts.Connect.Duration, DefaultConnectTimeout),
		MaxRetries:       DefaultMaxRetries,
		MaxResponseBytes: c.ResponseLimit(),
		Attach: attach.Limits{
			MaxFile:    first(c.Attachments.MaxFileMiB*attach.MiB, attach.DefaultMaxFile),
			MaxMessage: first(c.Attachments.MaxMessageMiB*attach.MiB, attach.DefaultMaxMessage),
			Detail:     first(c.Attachments.ImageDetail, attach.DefaultDetail),
		},
	}
	if err := checkEnum(o.ReasoningEffort, efforts); err != nil {
		return Settings{}, fmt.Errorf("reasoning effort on the command line: %w", err)
	}
	if c.State == knob.StateConversation { // "chain" is the default: ""
		s.State = c.State
	}
	if c.Reasoning.Summary != nil {
		s.ReasoningSummary = *c.Reasoning.Summary
	}
	if c.Timeouts.MaxRetries != nil {
		s.MaxRetries = *c.Timeouts.MaxRetries
	}
	if p.Timeouts.MaxRetries != nil {
		s.MaxRetries = *p.Timeouts.MaxRetries
	}
	if p.Background != nil {
		s.Background = *p.Background || o.Background
	}
	for k, v := range p.Headers {
		s.Headers[k] = v
	}

	var raw, from string
	switch {
	case o.BaseURL != "":
		raw, from = o.BaseURL, "base URL on the command line"
	case p.BaseURL != "" && p.Default:
		raw, from = p.BaseURL, name+": key \"provider.base_url\""
	case p.BaseURL != "":
		raw, from = p.BaseURL, "provider "+strconv.Quote(pname)
	case !p.Default:
		return Settings{}, fmt.Errorf("%s: %w", where, needsURL(pname, p.Preset))
	case strings.TrimSpace(env(baseURLEnv)) != "":
		raw, from = env(baseURLEnv), "$"+baseURLEnv
	}
	if from != "" {
		u, err := checkBaseURL(raw)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", from, err)
		}
		s.BaseURL, s.BaseURLSet = u, true
	}

	key, source, err := resolveKey(p, env, c.SecretEnv())
	if err != nil {
		return Settings{}, err
	}
	if key == "" && p.NeedsKey() && !p.Default {
		// a chosen provider never falls back to the demo: say what to set
		return Settings{}, fmt.Errorf("provider %q: no API key: set $%s (or %s in the config)", pname, p.APIKeyEnv, p.keyName())
	}
	s.APIKey, s.KeySource, s.KeyHint = key, source, p.keyHint()
	return s, nil
}

// ResponseLimit is max_response_bytes, or its default.
func (c Config) ResponseLimit() int {
	if c.MaxResponseBytes != nil {
		return *c.MaxResponseBytes
	}
	return knob.DefaultResponseLimit
}

// ResponseLimitAt is max_response_bytes from the config file at path (""
// for the default file, which may be missing), without resolving the rest.
func ResponseLimitAt(path string) (int, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultConfigPath()
	}
	cfg, err := LoadConfig(path, explicit)
	if err != nil {
		return 0, err
	}
	return cfg.ResponseLimit(), nil
}

// first returns the first non-zero value.
func first[T comparable](vs ...T) T {
	var zero T
	for _, v := range vs {
		if v != zero {
			return v
		}
	}
	return zero
}
