package ui

// This file is the chat's side of package session/models: the model list
// behind /model (its completion and picker), the context fill and cost the
// status line shows, and the /status facts.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session/models"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

// modelsMsg is the model list fetched (or read from the cache).
type modelsMsg struct {
	list models.List
	err  error
}

// modelList is what the chat knows of the provider's models.
//
// Invariants: asked is set once a fetch has started and stays set (one
// fetch per chat, unless the picker refreshes); ids is nil until a list
// arrived; why is "" unless the fetch failed; pick is set only while asked
// and nothing has arrived.
type modelList struct {
	asked, loaded bool
	ids           []string
	why           string // the one line saying why there is no list
	pick          bool   // open the picker when the list arrives
}

// fetchModels starts the one fetch of the model list (cache first).
func (m *Model) fetchModels(refresh bool) tea.Cmd {
	if m.models.asked && !refresh {
		return nil
	}
	m.models.asked = true
	lister, ctx := m.opts.Models, m.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		l, err := lister.List(ctx, refresh)
		return modelsMsg{l, err}
	}
}

// modelsArrived records the list and feeds the completion; a failure is
// said once, in the picker or when /model is completed.
func (m *Model) modelsArrived(msg modelsMsg) tea.Cmd {
	if msg.err == nil && msg.list.Provider != m.opts.Models.Provider {
		return nil // the list of the provider before a /provider switch
	}
	m.models.loaded = true
	if msg.err != nil {
		m.models.ids, m.models.why = nil, models.Why(msg.err, m.conv.Settings.Model)
	} else {
		m.models.ids, m.models.why = msg.list.IDs(), ""
	}
	m.composer.SetArgChoices("model", m.modelChoices())
	if m.models.pick {
		m.models.pick = false
		m.openModelPicker()
	}
	return nil
}

// modelChoices are the names /model completes: the provider's list, or the
// configured model alone when there is none (free text is always allowed).
func (m *Model) modelChoices() []string {
	if len(m.models.ids) > 0 {
		return m.models.ids
	}
	if c := m.conv.Settings.Model; c != "" {
		return []string{c}
	}
	return nil
}

// watchModelCommand starts the fetch the first time the composer holds
// "/model", so completion has the list by the time a name is typed. A chat
// that never uses /model never asks the server.
func (m *Model) watchModelCommand() tea.Cmd {
	if m.models.asked || !strings.HasPrefix(m.composer.Value(), "/mod") {
		return nil
	}
	return m.fetchModels(false)
}

// modelCommand is /model: with a name it switches; without, it opens the
// picker (once the list has arrived).
func (m *Model) modelCommand(args string) tea.Cmd {
	if args == "" {
		if !m.models.loaded {
			m.models.pick = true
			return m.fetchModels(false)
		}
		m.openModelPicker()
		return nil
	}
	m.conv.Settings.Model = args
	m.status.Model = args
	m.settingsChanged()
	m.notice(block.Info, "model: "+args)
	// the context goes to the new model next: its window, or no fill
	m.meter.lastModel = args
	m.meter.lastInfo, m.meter.lastKnown = m.opts.Prices.Lookup(args)
	m.updateMeter()
	return nil
}

func (m *Model) openModelPicker() {
	m.dialog = dlg[ModelPicker]{NewModelPicker(m.modelChoices(), m.conv.Settings.Model, m.models.why, m.frame.styles)}
}

// costMeter adds up a session's tokens and cost, response by response, each
// priced as the model the server reported (else the configured one).
//
// Invariants: unpriced is set once any response with usage had no price,
// and then the session shows no cost (a partial sum would be a guess);
// last is the newest response's usage and lastInfo/lastKnown its model's
// figures.
type costMeter struct {
	tokens    models.Usage
	cost      float64
	counted   bool // a response with usage was seen
	unpriced  bool
	last      models.Usage
	lastModel string
	lastInfo  models.Info
	lastKnown bool
}

func (c *costMeter) add(t models.Table, model string, u models.Usage) {
	c.tokens = c.tokens.Add(u)
	c.counted = true
	info, ok := t.Lookup(model)
	if d, priced := info.Cost(u); ok && priced {
		c.cost += d
	} else {
		c.unpriced = true
	}
	c.last, c.lastModel, c.lastInfo, c.lastKnown = u, model, info, ok
}

// fill is "42%", "" when unknown.
func (c costMeter) fill() string {
	if !c.lastKnown {
		return ""
	}
	if p, ok := c.lastInfo.Fill(c.last); ok {
		if p == 0 {
			return "<1%" // something is used: 0% would say nothing is
		}
		return strconv.Itoa(p) + "%"
	}
	return ""
}

// costText is "$0.0045", "" when unknown.
func (c costMeter) costText() string {
	if !c.counted || c.unpriced {
		return ""
	}
	return models.FormatCost(c.cost)
}

// view is the status line's piece: "ctx 42% · $0.0045", either half alone,
// or "".
func (c costMeter) view() string {
	var parts []string
	if f := c.fill(); f != "" {
		parts = append(parts, "ctx "+f)
	}
	if s := c.costText(); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// account adds the usage of a turn's responses to the meter. The demo is
// no model: its tokens are counted, never priced or measured.
func (m *Model) account(snaps []*stream.Snapshot) {
	for _, s := range snaps {
		if s == nil || s.Usage == nil {
			continue
		}
		if m.opts.Provider == "demo" {
			m.meter.tokens = m.meter.tokens.Add(models.FromWire(s.Usage))
			m.meter.counted, m.meter.unpriced = true, true
			continue
		}
		name := s.Model
		if name == "" {
			name = m.conv.Settings.Model
		}
		m.meter.add(m.opts.Prices, name, models.FromWire(s.Usage))
	}
	m.updateMeter()
}

func (m *Model) updateMeter() { m.status.Meter = m.meter.view() }

// statusFacts is /status: what the chat is connected to and what the
// session has used so far.
func (m *Model) statusFacts() {
	na := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	s := m.conv.Settings
	provider, base := m.opts.Provider, ""
	if m.opts.Client != nil {
		base = m.opts.Client.BaseURL
		if base == "" {
			base = stream.DefaultBaseURL()
		}
	}
	if provider != "demo" && provider != "replay" {
		provider = providerLabel(provider)
		if n := m.status.ProviderName; n != "" { // its name, then its host
			provider = stream.SanitizeLine(n) + " (" + provider + ")"
		}
	}
	model := na(s.Model)
	if r := m.status.Model; r != "" && r != s.Model {
		model += " (the server reports " + r + ")"
	}
	effort := s.ReasoningEffort
	switch r := m.status.Effort; {
	case effort == "" && r != "":
		effort = r + " (the server's default)"
	case effort == "":
		effort = "the server's default"
	case r != "" && r != effort:
		effort += " (the server reports " + r + ")"
	}
	var id string
	if m.journal != nil {
		id = string(m.journal.ID())
	}
	t := m.meter.tokens
	fill, cost := m.meter.fill(), m.meter.costText()
	switch {
	case m.opts.Provider == "demo":
		fill, cost = "— (the demo is no model)", "— (the demo costs nothing)"
	case fill == "":
		fill = "— (no context window known for " + na(m.meter.lastModel) + ")"
		if !m.meter.counted {
			fill = "— (no response yet)"
		}
	}
	if cost == "" {
		cost = "— (no price known for every model used)"
		if !m.meter.counted {
			cost = "— (no response yet)"
		}
	}
	var on, servers []string
	enabled := map[string]bool{}
	for _, n := range m.tools.on() {
		enabled[n] = true
	}
	for _, in := range m.tools.cfg.List() {
		if in.Kind == tools.KindServer {
			servers = append(servers, in.Name)
		}
		if enabled[in.Name] {
			on = append(on, in.Name)
		}
	}
	mcp := strings.Join(servers, ", ")
	if m.status.MCP != "" {
		mcp += " (" + m.status.MCP + ")"
	}
	rows := [][2]string{
		{"provider", na(provider)},
		{"base URL", na(base)},
		{"model", model},
		{"effort", effort},
		{"session", na(id)},
		{"turns", strconv.Itoa(len(m.conv.Turns))},
		{"tokens", fmt.Sprintf("in %d (cached %d) · out %d (reasoning %d)", t.Input, t.Cached, t.Output, t.Reasoning)},
		{"context", fill},
		{"cost", cost},
		{"tools on", na(strings.Join(on, ", "))},
		{"mcp servers", na(mcp)},
	}
	m.appendEntry(&plainEntry{b: block.NewFacts("status", rows), fs: m.frame})
}
