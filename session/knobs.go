package session

// This file is the request knobs: service_tier, text.verbosity and
// prompt_cache_key (Settings), and text.format for a json_schema answer
// (Conversation.Format). newTurn puts them on every request
// (applyKnobs); a server that refuses one (a 400 naming it) gets the turn
// again without it (DropRefused), and the conversation never sends it
// again. TierNotice says when a response ran on another tier than the one
// asked for.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"runnel/stream"
)

// ServiceTiers are the service_tier values runnel sends: priority (faster,
// dearer), flex (slower, cheaper), and the API's own default and auto.
var ServiceTiers = []string{"auto", "default", "flex", "priority"}

// Verbosities are the text.verbosity values.
var Verbosities = []string{"low", "medium", "high"}

// The knobs' names, as the request and /status name them.
const (
	KnobServiceTier    = "service_tier"
	KnobVerbosity      = "verbosity"
	KnobPromptCacheKey = "prompt_cache_key"
)

// knob is one optional request parameter a server may refuse.
type knob struct {
	name  string   // KnobServiceTier…
	names []string // how a server's error names it
	on    func(r *stream.Request) bool
	drop  func(r *stream.Request)
}

var knobs = []knob{
	{KnobServiceTier, []string{"service_tier"},
		func(r *stream.Request) bool { return r.ServiceTier != "" },
		func(r *stream.Request) { r.ServiceTier = "" }},
	{KnobVerbosity, []string{"text.verbosity", "verbosity"},
		func(r *stream.Request) bool { return r.Text != nil && r.Text.Verbosity != "" },
		func(r *stream.Request) {
			t := *r.Text
			t.Verbosity = ""
			if r.Text = &t; t.Format == nil {
				r.Text = nil
			}
		}},
	{KnobPromptCacheKey, []string{"prompt_cache_key"},
		func(r *stream.Request) bool { return r.PromptCacheKey != "" },
		func(r *stream.Request) { r.PromptCacheKey = "" }},
}

// applyKnobs sets the knobs the settings ask for on req, but none the
// server refused before.
func (c *Conversation) applyKnobs(req *stream.Request) {
	if c.Settings.ServiceTier != "" && !c.Refused(KnobServiceTier) {
		req.ServiceTier = c.Settings.ServiceTier
	}
	if c.Settings.PromptCacheKey != "" && !c.Refused(KnobPromptCacheKey) {
		req.PromptCacheKey = c.Settings.PromptCacheKey
	}
	text := stream.TextParam{Format: c.Format}
	if !c.Refused(KnobVerbosity) {
		text.Verbosity = c.Settings.Verbosity
	}
	if text.Format != nil || text.Verbosity != "" {
		req.Text = &text
	}
}

// Refused reports whether the server refused the knob (KnobServiceTier…)
// in this conversation.
func (c *Conversation) Refused(name string) bool { return slices.Contains(c.refused, name) }

// DropRefused reads err, the error that ended turn t (the last) before any
// response: when it is a 400 naming a knob t's request carried, that knob
// is dropped from t's request and never sent again in this conversation,
// and the request to send again is returned with the knob's name. ok is
// false otherwise. text.format is never dropped: an answer asked to follow
// a schema must not come back as prose.
func (c *Conversation) DropRefused(t *Turn, err error) (req stream.Request, name string, ok bool) {
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) {
		return stream.Request{}, "", false
	}
	for _, k := range knobs {
		if k.on(&t.Request) && apiErr.Refuses(k.names...) {
			c.refused = append(c.refused, k.name)
			k.drop(&t.Request)
			return t.Request, k.name, true
		}
	}
	return stream.Request{}, "", false
}

// RefusedNotice is the one line that says the server refused a knob.
func RefusedNotice(name string) string {
	return "the server does not take " + name + " — sending the turn again without it, and not sending it to this server again"
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

// RefusedKnobs are the knobs the server refused in this conversation, in
// the order it refused them.
func (c *Conversation) RefusedKnobs() []string { return slices.Clone(c.refused) }
