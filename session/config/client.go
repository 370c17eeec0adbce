package config

// This file turns Settings into what the other packages take: the HTTP
// client of package stream (or the built-in demo's) and a session's
// settings.

import (
	"cmp"

	"runnel/session/demo"
	"runnel/session/knob"
	"runnel/stream"
)

// Client returns the client for the settings, and the provider's label:
// the base URL, or "demo" when the built-in demo provider answers (forced,
// or nothing points at a real provider), at DemoSpeed.
func (s Settings) Client(forceDemo bool) (*stream.Client, string) {
	if forceDemo || s.Demo() || s.Provider == DemoProvider {
		return &stream.Client{
			BaseURL:   demo.BaseURL,
			Transport: demo.New(demo.Options{Speed: cmp.Or(s.DemoSpeed, 1)}),
		}, "demo"
	}
	return &stream.Client{
		BaseURL:        s.BaseURL,
		APIKey:         s.APIKey,
		Headers:        s.Headers,
		KeyHint:        s.KeyHint,
		MaxRetries:     retriesOrNone(s.MaxRetries),
		IdleTimeout:    s.IdleTimeout,
		ConnectTimeout: s.ConnectTimeout,
	}, s.BaseURL
}

// retriesOrNone maps the config's "0 = never" onto the client's "negative =
// none".
func retriesOrNone(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// Session is what a new session starts with.
func (s Settings) Session() knob.Settings {
	return knob.Settings{
		Model:            s.Model,
		Instructions:     s.Instructions,
		ReasoningEffort:  s.ReasoningEffort,
		ReasoningSummary: s.ReasoningSummary,
		Store:            s.Store,
		CompactThreshold: s.CompactThreshold,
		Truncation:       s.Truncation,
		Background:       s.Background,
		Provider:         s.Provider,
		State:            s.State,
		ServiceTier:      s.ServiceTier,
		Verbosity:        s.Verbosity,
		PromptCacheKey:   s.cacheKey(""),
	}
}

// PromptCacheOff is the prompt_cache_key value that sends none.
const PromptCacheOff = "off"

// cacheKey is the prompt_cache_key a session sends: none when the config
// says "off", the configured key when it names one, else the session's own
// (stored, or a new one for a new session).
func (s Settings) cacheKey(stored string) string {
	switch s.PromptCacheKey {
	case PromptCacheOff:
		return ""
	case "":
		if stored != "" {
			return stored
		}
		return knob.NewCacheKey()
	}
	return s.PromptCacheKey
}

// Resumed is a stored session's settings for one more turn: what the
// command line gives now (o) wins, and a session that recorded no model
// takes today's. s is resolved for the provider the turn goes to (the
// session's, unless --provider named another: see ProviderSwitched).
func (s Settings) Resumed(stored knob.Settings, o Overrides) knob.Settings {
	if stored.Model == "" || o.Model != "" || demoSwitch(stored.Provider, s.Provider) {
		stored.Model = s.Model
	}
	if o.Instructions != "" {
		stored.Instructions = s.Instructions
	}
	if o.ReasoningEffort != "" {
		stored.ReasoningEffort = s.ReasoningEffort
	}
	// how the server keeps the context short is today's config, not the
	// session's
	stored.CompactThreshold, stored.Truncation, stored.Background = s.CompactThreshold, s.Truncation, s.Background
	// a session keeps its server-side conversation (which resume continues);
	// state decides only whether a session without server state makes one
	stored.State = s.State
	// the knobs: today's config where it sets one, else the session's
	// (/fast); the session keeps its own prompt cache key
	if s.ServiceTier != "" {
		stored.ServiceTier = s.ServiceTier
	}
	if s.Verbosity != "" {
		stored.Verbosity = s.Verbosity
	}
	stored.PromptCacheKey = s.cacheKey(stored.PromptCacheKey)
	if stored.Provider != s.Provider {
		if stored.Provider != "" { // another server (--provider): what it keeps is its own
			stored.Store = s.Store
			stored.Conversation = "" // the old server's
		}
		stored.Provider = s.Provider // a session saved before providers were named takes today's
	}
	return stored
}

// ProviderSwitched reports whether a stored session continues on another
// provider than the one it was saved on, so its chain must not be sent: a
// session saved before providers were named ("") is taken to be on the
// current one.
func ProviderSwitched(stored knob.Settings, now Settings) bool {
	return stored.Provider != "" && stored.Provider != now.Provider
}

// DemoProvider is the provider a session answered by the built-in demo
// records: not a name in the config.
const DemoProvider = "demo"

// WithDemo is s as the chat and -p use it: when the built-in demo answers
// (forced by --demo, or nothing points at a real provider), the provider is
// DemoProvider and the model the demo's, so that what a session records,
// lists and shows is what answered it.
func (s Settings) WithDemo(force bool) Settings {
	if force || s.Demo() {
		s.Provider, s.Model = DemoProvider, demo.Model
	}
	return s
}

// demoSwitch reports whether a session moves between the demo and a real
// provider, whose models mean nothing to each other.
func demoSwitch(stored, now string) bool {
	return stored != now && (stored == DemoProvider || now == DemoProvider)
}
