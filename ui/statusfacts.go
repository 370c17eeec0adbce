package ui

// This file is /status, the metering child's facts: what the chat is
// connected to (provider, server, model, effort, conversation) and what the
// session has used so far (tokens, context, cost, cache), with the tools
// and the request knobs (knobs.go). The root gathers what the rest of the
// chat tells (statusIn); nothing here changes state.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"runnel/session"
	"runnel/session/knob"
	"runnel/session/models"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

// tokensText is /status's tokens row, in the status line's words: "↑ in
// 3727 (3200 cached) · ↓ out 347 (128 reasoning)".
func tokensText(t models.Usage) string {
	return fmt.Sprintf("↑ in %d (%d cached) · ↓ out %d (%d reasoning)", t.Input, t.Cached, t.Output, t.Reasoning)
}

// statusIn is what /status tells of the rest of the chat; the root gathers
// it.
type statusIn struct {
	client    *stream.Client   // nil: none (the demo, a replay)
	settings  session.Settings // the conversation's
	status    Status           // what the server reported (model, effort), the MCP summary
	session   string           // the history's session id, "" for none
	turns     int              // user turns, as every list counts them (store.UserTurn)
	tools     []tools.Info     // the configured tools
	on        []string         // the tools switched on
	stateless bool             // the conversation sends its history (the server keeps no state)
	wantsConv bool             // the next turn makes a server-side conversation (conversations mode)
	refused   []string         // the knobs the server refused (session.Conversation.RefusedKnobs)
	agents    string           // the AGENTS.md files the instructions take, "" for none
	learned   string           // what is remembered of the server (session.ProviderRecord.Summary), "" for nothing
}

// statusFacts is /status: what the chat is connected to and what the
// session has used so far.
func (mt *metering) statusFacts(in statusIn, f *frameState, env meterEnv) {
	s := in.settings
	provider, base := providerFacts(in, env.provider)
	tokens, fill, cost := mt.usageFacts(env.provider == "demo")
	on, mcp := toolFacts(in)
	rows := [][2]string{
		{"provider", na(provider)},
		{"base URL", na(base)},
		{"server", learnedText(in)},
		{"model", modelFact(in, env.provider == "demo")},
		{"effort", effortFact(s.ReasoningEffort, in.status.Effort)},
		{"session", na(in.session)},
		{"turns", strconv.Itoa(in.turns)},
		{"tokens", tokens},
		{"context", fill},
		{"cost", cost},
		{"tools on", na(on)},
		{"mcp servers", na(mcp)},
		{"AGENTS.md", na(in.agents)},
	}
	if c := conversationFact(s, in.stateless, in.wantsConv); c != "" {
		rows = slices.Insert(rows, 5, [2]string{"conversation", c}) // after the session
	}
	cache := mt.meter.cacheText()
	if cache != "" {
		cache = strings.TrimPrefix(cache, "cache ") + " of the session's input tokens read from the prompt cache"
	}
	rows = append(rows, knobRows(s, in.refused, mt.meter.lastTier, cache)...)
	f.post(showMsg{block.NewFacts("status", rows)})
}

// na is a /status value, or "—" for none.
func na(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// providerFacts is /status's provider (its name, then its host) and base
// URL rows; provider is the provider's label ("demo", "replay" or a URL).
func providerFacts(in statusIn, provider string) (label, base string) {
	if in.client != nil {
		base = cmp.Or(in.client.BaseURL, stream.DefaultBaseURL())
	}
	if provider == "demo" || provider == "replay" {
		return provider, base
	}
	label = providerLabel(provider)
	if n := in.status.ProviderName; n != "" {
		label = stream.SanitizeLine(n) + " (" + label + ")"
	}
	return label, base
}

// modelFact is /status's model row: the model asked for, and the one the
// server reports when it differs.
func modelFact(in statusIn, demo bool) string {
	model, r := na(in.settings.Model), in.status.Model
	switch {
	case demo:
		model += " (the demo: a built-in script answers, no model)"
	case r != "" && r != in.settings.Model:
		model += " (the server reports " + r + ")"
	}
	return model
}

// effortFact is /status's effort row: the effort asked for and the one
// the server reports (r).
func effortFact(effort, r string) string {
	switch {
	case effort == "" && r != "":
		return r + " (the server's default)"
	case effort == "":
		return "the server's default"
	case r != "" && r != effort:
		return effort + " (the server reports " + r + ")"
	}
	return effort
}

// usageFacts is /status's tokens, context and cost rows, as the meter
// has counted them.
func (mt *metering) usageFacts(demo bool) (tokens, fill, cost string) {
	m := &mt.meter
	fill, cost = m.fill(), m.costText()
	switch {
	case demo:
		fill, cost = "— (the demo is no model)", "— (the demo costs nothing)"
	case !m.counted:
		fill = cmp.Or(fill, "— (no response yet)")
	case fill == "":
		fill = "— (no context window known for " + na(m.lastModel) + ")"
	}
	switch {
	case cost != "":
	case !m.counted:
		cost = "— (no response yet)"
	default:
		cost = "— (no price known for every model used)"
	}
	tokens = tokensText(m.tokens)
	if n := m.unknown; n > 0 {
		unknown := fmt.Sprintf(" + %s unknown (stream ended first)", plural(n, "response"))
		tokens += unknown
		if m.costText() != "" && !demo {
			cost = "≥ " + cost + unknown
		}
	}
	return tokens, fill, cost
}

// toolFacts is /status's tools on and MCP servers rows, in the
// configuration's order.
func toolFacts(in statusIn) (on, mcp string) {
	var names, servers []string
	for _, it := range in.tools {
		if it.Kind == tools.KindServer {
			servers = append(servers, it.Name)
		}
		if slices.Contains(in.on, it.Name) {
			names = append(names, it.Name)
		}
	}
	mcp = strings.Join(servers, ", ")
	if in.status.MCP != "" {
		mcp += " (" + in.status.MCP + ")"
	}
	return strings.Join(names, ", "), mcp
}

// learnedText is /status's server row: what runnel learned the server
// refuses (`runnel providers` says the same).
func learnedText(in statusIn) string {
	switch {
	case in.client == nil:
		return "—"
	case in.learned == "":
		return "— (nothing refused so far)"
	}
	return stream.SanitizeLine(in.learned)
}

// conversationFact is /status's conversation line: the server-side
// conversation's id, or what stands for it; "" outside conversations mode.
func conversationFact(s session.Settings, stateless, wants bool) string {
	switch {
	case s.Conversation != "":
		return stream.SanitizeLine(s.Conversation)
	case s.State != knob.StateConversation:
		return ""
	case stateless:
		return "— (the server keeps none: the local history is sent)"
	case !wants:
		return "— (left after an edit, retry, fork or compaction: turns chain by response id)"
	}
	return "— (made with the next turn)"
}
