package session

import "encoding/json"

// settingsJSON is how settings are stored with a session: no secrets (tools
// are stored redacted by the caller).
type settingsJSON struct {
	Model            string            `json:"model,omitempty"`
	Instructions     string            `json:"instructions,omitempty"`
	ReasoningEffort  string            `json:"reasoning_effort,omitempty"`
	ReasoningSummary string            `json:"reasoning_summary,omitempty"`
	Store            bool              `json:"store"`
	Tools            []json.RawMessage `json:"tools,omitempty"`
	EnabledTools     []string          `json:"enabled_tools,omitempty"`
	CompactThreshold int64             `json:"compact_threshold,omitempty"`
	Truncation       string            `json:"truncation,omitempty"`
	Background       bool              `json:"background,omitempty"`
	Provider         string            `json:"provider,omitempty"`
	State            string            `json:"state,omitempty"`
	Conversation     string            `json:"conversation,omitempty"`
	ServiceTier      string            `json:"service_tier,omitempty"`
	Verbosity        string            `json:"verbosity,omitempty"`
	PromptCacheKey   string            `json:"prompt_cache_key,omitempty"`
}

// JSON returns the settings as stored with a session.
func (s Settings) JSON() json.RawMessage {
	b, _ := json.Marshal(settingsJSON(s))
	return b
}

// SettingsFromJSON reads stored settings; unknown or missing fields keep
// their zero value.
func SettingsFromJSON(raw json.RawMessage) Settings {
	var w settingsJSON
	w.Store = true
	_ = json.Unmarshal(raw, &w)
	return Settings(w)
}

// ReasoningEfforts are the reasoning efforts runnel accepts (config,
// --reasoning-effort, /effort), weakest first: every value of the Open
// Responses spec's ReasoningEffortEnum and its descriptions (none, minimal,
// low, medium, high, xhigh), plus max, which the current OpenAI API lists.
// Not every model takes every one; the server says so when it does not.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}
