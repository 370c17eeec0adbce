package ui

import (
	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui/block"
)

// This file is the root's side of the metering child (models.go,
// providerpicker.go): what it reads of the chat (meterEnv, statusIn) and
// what a model or provider switch changes outside it — the connection, the
// conversation's settings, the status line and the transcript. Those are
// the conversation's jobs; they stay here, on Model, until its child takes
// them.

// meterEnv is what the metering child reads of the chat now.
func (m *Model) meterEnv() meterEnv {
	return meterEnv{ctx: m.ctx, provider: m.opts.Provider, providerName: m.status.ProviderName,
		lister: m.opts.Models, prices: m.opts.Prices, providers: m.opts.Providers,
		model: m.conv.Settings.Model, busy: m.switchBlocked()}
}

// switchBlocked says why the provider cannot change now, "" when it can.
func (m *Model) switchBlocked() string {
	switch {
	case m.cur != nil && !m.cur.ended:
		return "a reply is still streaming — esc stops it, then /provider"
	case m.tools.busy() || m.compacting != nil:
		return "busy (tools or compaction) — /provider once it is done"
	}
	return ""
}

// statusFacts is /status: the metering child tells what the chat is
// connected to and what the session has used so far.
func (m *Model) statusFacts() {
	var id string
	if m.journal != nil {
		id = string(m.journal.ID())
	}
	in := statusIn{client: m.opts.Client, settings: m.conv.Settings, status: m.status, session: id,
		turns: userTurns(m.conv.Turns), tools: m.tools.cfg.List(), on: m.tools.on(), stateless: m.conv.Stateless,
		wantsConv: m.conv.WantsConversation(), refused: m.conv.RefusedKnobs(), learned: m.turns.learned(), agents: m.agents.paths()}
	m.metering.statusFacts(in, m.frame, m.meterEnv())
}

// userTurns counts the user turns of turns as the session picker, `runnel
// sessions list` and the resume notice do: a tool round belongs to the
// turn before it (store.UserTurn).
func userTurns(turns []*session.Turn) int {
	n := 0
	for _, t := range turns {
		if store.UserTurn(t.Prompt, t.Input) {
			n++
		}
	}
	return n
}

// modelSwitched makes msg.model the conversation's (modelSwitchedMsg).
func (m *Model) modelSwitched(msg modelSwitchedMsg) tea.Cmd {
	m.conv.Settings.Model = msg.model
	m.status.Model = msg.model
	m.history.saveSettings(m.conv.Settings)
	m.notice(block.Info, "model: "+msg.model)
	return nil
}

// providerSwitched moves the chat to the provider the metering child
// connected (providerSwitchedMsg): the next request goes to its server with
// the conversation so far, under a divider that names the switch.
func (m *Model) providerSwitched(msg providerSwitchedMsg) tea.Cmd {
	c := msg.conn
	m.opts.Client, m.opts.Provider, m.opts.Models = c.Client, c.Label, c.Models
	m.opts.Settings.Store, m.opts.Settings.Background, m.opts.Settings.Provider = c.Store, c.Background, c.Name
	m.conv.SwitchProvider() // the history goes with each request from now on
	s := &m.conv.Settings
	s.Provider, s.Store, s.Background = c.Name, c.Store, c.Background
	if c.Model != "" {
		s.Model = c.Model
	}
	m.status.Model, m.status.Provider, m.status.ProviderName = s.Model, c.Label, c.Name
	m.history.saveSettings(m.conv.Settings)
	name := stream.SanitizeLine(c.Name)
	m.appendEntry(&plainEntry{b: block.NewDivider("provider: " + stream.SanitizeLine(msg.from) + " → " + name), fs: m.frame})
	line := "now on " + name + " (" + providerLabel(c.Label) + ") with model " + stream.SanitizeLine(s.Model)
	if len(m.conv.Turns) > 0 {
		line += " — your next message sends the conversation so far"
	}
	if c.Model == "" {
		line += " · /model picks another"
	}
	m.notice(block.Info, line)
	m.transcript.Follow()
	return nil
}
