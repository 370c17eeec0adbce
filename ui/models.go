package ui

// This file is the metering child, the chat's side of package
// session/models: the model list behind /model (its completion and
// picker), the session's usage, the context fill and cost the status line
// shows, and the /status facts. The /provider switch is its too
// (providerpicker.go). What a switch changes elsewhere (the conversation's
// settings, the status line, the transcript) it posts to the root
// (modelSwitchedMsg, providerSwitchedMsg, meterMsg, showMsg), which routes
// them (meteringroot.go).

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session/models"
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
// arrived; ids holds the listed chat models and hidden counts the others
// (models.SplitChat), which neither the picker nor the completion offers;
// why is "" unless the fetch failed; pick is set only while asked and
// nothing has arrived.
type modelList struct {
	asked, loaded bool
	ids           []string
	hidden        int
	why           string // the one line saying why there is no list
	pick          bool   // open the picker when the list arrives
}

// metering is the session's tokens and cost, and the provider's models.
//
// Invariants: meter counts the responses of the conversation shown, each
// once: the session's usage, cost and context fill are its sums alone
// (sessionUsage, figures); the root keeps no total of its own. models is the list of the provider the chat talks to
// now (reset on each switch).
type metering struct {
	models modelList // the provider's models, for /model
	meter  costMeter // the session's tokens, context fill and cost
}

// meterEnv is what the metering child reads of the rest of the chat: the
// root gathers it for each call, since a child does not read the root.
type meterEnv struct {
	ctx          context.Context
	provider     string        // Options.Provider: "demo", "replay", or the base URL
	providerName string        // the provider's name in the config, "" for none
	lister       models.Lister // the provider's model list
	prices       models.Table  // context windows and prices
	providers    *Providers    // what /provider switches to; nil for nothing
	model        string        // the conversation's model
	busy         string        // why the provider cannot change now, "" when it can
}

// modelSwitchedMsg asks the root to make model the conversation's.
type modelSwitchedMsg struct{ model string }

// meterMsg is the status line's new meter figures.
type meterMsg struct{ meter Meter }

// showMsg asks for a block at the end of the transcript (a divider, a table
// of facts).
type showMsg struct{ b block.Block }

// Update handles the metering's messages: the model list, the provider's
// connection and the model picked. It returns the I/O to start next.
func (mt *metering) Update(msg tea.Msg, f *frameState, env meterEnv) tea.Cmd {
	switch msg := msg.(type) {
	case modelsMsg:
		mt.modelsArrived(msg, f, env)
	case providerMsg:
		mt.providerConnected(msg, f, env)
	case ModelPickedMsg:
		f.post(DialogClosedMsg{})
		return mt.modelCommand(msg.Name, f, env)
	case resetMsg:
		if msg.forgets() { // a provider switch keeps the session's sums
			mt.reset()
		}
	}
	return nil
}

// fetchModels starts the one fetch of the model list (cache first).
func (mt *metering) fetchModels(env meterEnv, refresh bool) tea.Cmd {
	if mt.models.asked && !refresh {
		return nil
	}
	mt.models.asked = true
	lister, ctx := env.lister, env.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		l, err := lister.List(ctx, refresh)
		return modelsMsg{l, err}
	}
}

// modelsArrived records the list and feeds the completion; a failure is
// said once, in the picker or when /model is completed.
func (mt *metering) modelsArrived(msg modelsMsg, f *frameState, env meterEnv) {
	if msg.err == nil && msg.list.Provider != env.lister.Provider {
		return // the list of the provider before a /provider switch
	}
	mt.models.loaded = true
	if msg.err != nil {
		mt.models.ids, mt.models.hidden, mt.models.why = nil, 0, models.Why(msg.err, env.model)
	} else {
		chat, other := models.SplitChat(msg.list.IDs(), env.model)
		mt.models.ids, mt.models.hidden, mt.models.why = chat, len(other), ""
	}
	f.post(argChoicesMsg{"model", mt.modelChoices(env.model)})
	if mt.models.pick {
		mt.models.pick = false
		mt.openModelPicker(f, env)
	}
}

// modelChoices are the names /model completes: the provider's chat models,
// or the configured model alone when there is no list (free text is always
// allowed).
func (mt *metering) modelChoices(model string) []string {
	if len(mt.models.ids) > 0 {
		return mt.models.ids
	}
	if model != "" {
		return []string{model}
	}
	return nil
}

// watchModelCommand starts the fetch the first time the composer holds
// "/model" (value is its text), so completion has the list by the time a
// name is typed. A chat that never uses /model never asks the server.
func (mt *metering) watchModelCommand(value string, env meterEnv) tea.Cmd {
	if mt.models.asked || !strings.HasPrefix(value, "/mod") {
		return nil
	}
	return mt.fetchModels(env, false)
}

// modelCommand is /model: with a name it switches; without, it opens the
// picker (once the list has arrived).
func (mt *metering) modelCommand(args string, f *frameState, env meterEnv) tea.Cmd {
	if args == "" {
		if !mt.models.loaded {
			mt.models.pick = true
			return mt.fetchModels(env, false)
		}
		mt.openModelPicker(f, env)
		return nil
	}
	f.post(modelSwitchedMsg{args})
	// the context goes to the new model next: its window, or no fill
	mt.meter.lastModel = args
	mt.meter.lastInfo, mt.meter.lastKnown = env.prices.Lookup(args)
	f.post(meterMsg{mt.meter.parts()})
	return nil
}

// openModelPicker opens the picker of the provider's chat models, the
// current one selected, with their windows and prices.
func (mt *metering) openModelPicker(f *frameState, env meterEnv) {
	c := ModelChoices{IDs: mt.modelChoices(env.model), Hidden: mt.models.hidden, Current: env.model, Why: mt.models.why, Prices: env.prices, Demo: env.provider == "demo"}
	f.post(dialogMsg{dlg[ModelPicker]{NewModelPicker(c, f.styles)}})
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
	unknown   int  // responses whose usage never came (their stream ended first)
	unpriced  bool
	last      models.Usage
	lastModel string
	lastInfo  models.Info
	lastKnown bool
	cacheSaid bool   // a response said how much of its input was cached
	lastTier  string // the service tier the newest priced response ran on
}

// add counts one response's usage, priced on the service tier it ran on.
func (c *costMeter) add(t models.Table, model, tier string, u models.Usage) {
	c.tokens = c.tokens.Add(u)
	c.counted = true
	info, ok := t.Lookup(model)
	if d, priced := info.TierCost(u, tier); ok && priced {
		c.cost += d
	} else {
		c.unpriced = true
	}
	c.last, c.lastModel, c.lastInfo, c.lastKnown = u, model, info, ok
	c.lastTier = tier
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

// cacheText is "cache 83%", the session's cached input tokens over its
// input tokens; "" until a response said how much of its input was cached.
func (c costMeter) cacheText() string {
	if !c.cacheSaid {
		return ""
	}
	if p, ok := models.CacheShare(c.tokens); ok {
		return "cache " + strconv.Itoa(p) + "%"
	}
	return ""
}

// parts are the status line's figures: the fill, the cost ("≥ $0.0045"
// when a response's usage is unknown) and the cache share, each "" when
// unknown.
func (c costMeter) parts() Meter {
	m := Meter{Ctx: c.fill(), Cost: c.costText(), Cache: c.cacheText()}
	if m.Cost != "" && c.unknown > 0 {
		m.Cost = "≥ " + m.Cost // a response's cost never came
	}
	return m
}

// account adds the usage of a turn's responses to the meter and returns
// the status line's meter piece. The demo is no model: its tokens are
// counted, never priced or measured.
func (mt *metering) account(snaps []*stream.Snapshot, env meterEnv) Meter {
	for _, s := range snaps {
		if usageUnknown(s) {
			mt.meter.unknown++
		}
		if s == nil || s.Usage == nil {
			continue
		}
		mt.meter.cacheSaid = mt.meter.cacheSaid || s.Usage.InputDetails != nil
		if env.provider == "demo" {
			mt.meter.tokens = mt.meter.tokens.Add(models.FromWire(s.Usage))
			mt.meter.counted, mt.meter.unpriced = true, true
			continue
		}
		name := s.Model
		if name == "" {
			name = env.model
		}
		mt.meter.add(env.prices, name, s.ServiceTier, models.FromWire(s.Usage))
	}
	return mt.meter.parts()
}

// reset forgets the session's usage (another conversation is shown).
func (mt *metering) reset() { mt.meter = costMeter{} }

// sessionUsage is the session's usage, of the same responses as the
// meter: the one sum, asked by the status line.
func (mt *metering) sessionUsage() Usage {
	t := mt.meter.tokens
	return Usage{Input: t.Input, Output: t.Output, Reasoning: t.Reasoning, Unknown: mt.meter.unknown}
}

// figures is the status line's meter piece (account returns it too).
func (mt *metering) figures() Meter { return mt.meter.parts() }
