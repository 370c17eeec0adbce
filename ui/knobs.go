package ui

// This file is the chat's side of the request knobs (session/knobs.go):
// /fast, and the knobs' /status rows. A refused knob is the turn engine's
// (session/engine.go); a response on another tier is a notice of the
// turns child (turnend.go).

import (
	"slices"

	"runnel/session"
	"runnel/stream"
)

// fastNotice is what /fast says once it switched the tier to tier (the
// new setting): on or off, and whether it will be sent at all.
func fastNotice(tier string, refused []string) string {
	if tier == "" {
		return "fast mode off: requests go on the server's default tier (service_tier not sent)"
	}
	line := "fast mode on: requests ask for the priority service tier (faster, about twice the price)"
	if slices.Contains(refused, session.KnobServiceTier) {
		line += " — but this server refused service_tier, so it is not sent"
	}
	return line
}

// knobRows are /status's rows for the knobs: what is asked, what the
// server refused, and what the last response ran on.
func knobRows(s session.Settings, refused []string, lastTier, cache string) [][2]string {
	value := func(name, v, none string) string {
		if v == "" {
			v = none
		}
		if slices.Contains(refused, name) {
			v += " (refused by the server: not sent)"
		}
		return v
	}
	tier := value(session.KnobServiceTier, s.ServiceTier, "— (the server's default)")
	if lastTier != "" && lastTier != s.ServiceTier {
		tier += " (the last response ran on " + stream.SanitizeLine(lastTier) + ")"
	}
	if cache == "" {
		cache = "— (no response said)"
	}
	return [][2]string{
		{"service tier", tier},
		{"verbosity", value(session.KnobVerbosity, s.Verbosity, "— (the server's default)")},
		{"prompt cache", value(session.KnobPromptCacheKey, s.PromptCacheKey, "— (off: no prompt_cache_key)")},
		{"cache hits", cache},
	}
}
