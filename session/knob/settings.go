package knob

import "encoding/json"

// Settings are what a conversation sends with every request. No secrets.
type Settings struct {
	Model            string
	Instructions     string
	ReasoningEffort  string // "" lets the server choose
	ReasoningSummary string // "" asks for none
	Store            bool
	Tools            []json.RawMessage // as stored: redacted; the caller sets the request's real tools
	EnabledTools     []string          // the tool names switched on (/tools, --tool)
	CompactThreshold int64             // > 0: context_management compacts past this many tokens
	Truncation       string            // "auto" is sent as truncation; anything else sends nothing (the server's default)
	Background       bool              // requests run in background mode (resumable streams)
	Provider         string            // the provider's name (config), "" when not known
	// State "conversation" creates a server-side conversation for a
	// session that has no server state yet (serverconv.go); Conversation
	// is its id, sent instead of previous_response_id once there is one.
	State          string
	Conversation   string
	ServiceTier    string // service_tier: "" sends none; priority, flex, default, auto (knobs.go)
	Verbosity      string // text.verbosity: "" sends none; low, medium, high
	PromptCacheKey string // prompt_cache_key: "" sends none (config.Settings.Session makes one per session)
}

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

// FromJSON reads stored settings; unknown or missing fields keep their
// zero value.
func FromJSON(raw json.RawMessage) Settings {
	var w settingsJSON
	w.Store = true
	_ = json.Unmarshal(raw, &w)
	return Settings(w)
}

// Continuing is s in conversations mode, continuing the server-side
// conversation id: the settings of a session imported from it.
func (s Settings) Continuing(id string) Settings {
	s.State, s.Conversation = StateConversation, id
	return s
}
