package session

// This file is the request knobs: service_tier, text.verbosity and
// prompt_cache_key (Settings), and text.format for a json_schema answer
// (Conversation.Format). newTurn puts them on every request
// (applyKnobs); a server that refuses one gets the turn again without it
// (the turn engine, engine.go, by the table in optional.go), and the
// conversation never sends it again. TierNotice says when a response ran
// on another tier than the one asked for.

import (
	"slices"

	"runnel/session/knob"
	"runnel/stream"
)

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
	if knob.OwnCacheKey(n.Settings.PromptCacheKey) {
		n.Settings.PromptCacheKey = knob.NewCacheKey() // a session's own key, not the last one's
	}
	return n
}

// RefusedKnobs are the optional parameters the server refused in this
// conversation, in the order it refused them.
func (c *Conversation) RefusedKnobs() []string { return slices.Clone(c.refused) }
