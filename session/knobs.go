package session

// This file is the request knobs: service_tier, text.verbosity and
// prompt_cache_key (Settings), and text.format for a json_schema answer
// (Conversation.Format). newTurn puts them on every request
// (applyKnobs); a server that refuses one gets the turn again without it
// (the turn engine, engine.go, by the table in optional.go), and the
// conversation never sends it again. TierNotice says when a response ran
// on another tier than the one asked for.

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"

	"runnel/stream"
)

// ServiceTiers are the service_tier values runnel sends: priority (faster,
// dearer), flex (slower, cheaper), and the API's own default and auto.
var ServiceTiers = []string{"auto", "default", "flex", "priority"}

// Verbosities are the text.verbosity values.
var Verbosities = []string{"low", "medium", "high"}

// applyKnobs sets the knobs the settings ask for on req (newTurn then
// takes out what the server refused: stripRefused).
func (c *Conversation) applyKnobs(req *stream.Request) {
	req.ServiceTier = c.Settings.ServiceTier
	req.PromptCacheKey = c.Settings.PromptCacheKey
	text := stream.TextParam{Format: c.Format, Verbosity: c.Settings.Verbosity}
	if text.Format != nil || text.Verbosity != "" {
		req.Text = &text
	}
}

// Refused reports whether the server refused the optional parameter
// (optional.go: KnobServiceTier…) in this conversation.
func (c *Conversation) Refused(name string) bool { return slices.Contains(c.refused, name) }

// Refuse marks optional parameters (optional.go) as refused by the
// server, as the provider's record remembers them: no request of the
// conversation sends them. Unknown names are ignored; the chain is
// Stateless, not a refusal.
func (c *Conversation) Refuse(names ...string) {
	for _, n := range names {
		o := optionalNamed(n)
		if o != nil && o.name != ParamChain && !c.Refused(o.name) {
			c.refused = append(c.refused, o.name)
		}
	}
}

// TierNotice is the one line that says a response ran on another
// service tier than the one asked for, "" when it did not (or the request
// asked for none, or the response has not ended or does not say).
func TierNotice(asked string, s *stream.Snapshot) string {
	if asked == "" || asked == "auto" || s == nil || !s.Terminal || s.ServiceTier == "" || s.ServiceTier == asked {
		return ""
	}
	return "asked for the " + asked + " service tier, but the server ran this response on " + stream.SanitizeLine(s.ServiceTier)
}

// NewCacheKey is a fresh prompt_cache_key for one session: requests that
// share it are routed to the same prompt cache. It is random, so it says
// nothing of the user or the session's text.
func NewCacheKey() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "runnel-" + hex.EncodeToString(b[:])
}

// ToggleFast is /fast: the priority tier when tier is another (or none),
// none when it is priority.
func ToggleFast(tier string) string {
	if tier == "priority" {
		return ""
	}
	return "priority"
}

// Restart is a new conversation on the same server (the chat's /new): the
// same settings but a server-side conversation and a prompt cache key of
// its own, and it does not send what the server refused.
func (c *Conversation) Restart() *Conversation {
	n := &Conversation{Settings: c.Settings, Project: c.Project, refused: slices.Clone(c.refused)}
	n.Settings.Conversation = "" // a new session makes its own (conversations mode)
	if ownCacheKey(n.Settings.PromptCacheKey) {
		n.Settings.PromptCacheKey = NewCacheKey() // a session's own key, not the last one's
	}
	return n
}

// ownCacheKey reports whether k is a key NewCacheKey made: a session's
// own, as opposed to one the config names.
func ownCacheKey(k string) bool {
	h, ok := strings.CutPrefix(k, "runnel-")
	if !ok || len(h) != 16 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// RefusedKnobs are the optional parameters the server refused in this
// conversation, in the order it refused them.
func (c *Conversation) RefusedKnobs() []string { return slices.Clone(c.refused) }
