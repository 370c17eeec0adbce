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
// what a provider switch changes outside it: the options take the
// connection, every child takes the switch as a reset (resetProvider), and
// the transcript says so.

// meterEnv is what the metering child reads of the chat now: busy says
// why the provider cannot change now, "" when it can.
func (m *Model) meterEnv() meterEnv {
	busy := ""
	switch p := m.activity().phase; {
	case p == phStreaming:
		busy = "a reply is still streaming — esc stops it, then /provider"
	case p == phTools || p == phCompacting:
		busy = "busy (tools or compaction) — /provider once it is done"
	}
	return meterEnv{ctx: m.frame.ctx, provider: m.opts.Provider, providerName: m.opts.Settings.Provider,
		lister: m.opts.Models, prices: m.opts.Prices, providers: m.opts.Providers,
		model: m.turns.conv.Settings.Model, busy: busy}
}

// statusFacts is /status: the metering child tells what the chat is
// connected to and what the session has used so far.
func (m *Model) statusFacts() {
	in := statusIn{client: m.opts.Client, settings: m.turns.conv.Settings, status: m.statusBar.status, session: string(m.history.id()),
		turns: userTurns(m.turns.conv.Turns), tools: m.tools.list(), on: m.tools.on(), stateless: m.turns.conv.Stateless,
		wantsConv: m.turns.conversation().WantsConversation(), refused: m.turns.conversation().RefusedKnobs(), learned: m.turns.learned(), agents: m.agents.paths()}
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

// providerSwitched moves the chat to the provider the metering child
// connected (providerSwitchedMsg): the next request goes to its server with
// the conversation so far, under a divider that names the switch. Every
// child takes the switch as a reset (resetProvider).
func (m *Model) providerSwitched(msg providerSwitchedMsg) tea.Cmd {
	c := msg.conn
	m.opts.switchTo(c)
	cmd := m.reset(resetProvider, c)
	model := m.turns.conv.Settings.Model
	name := stream.SanitizeLine(c.Name)
	m.items.appendEntry(&plainEntry{b: block.NewDivider("provider: " + stream.SanitizeLine(msg.from) + " → " + name), fs: m.frame})
	line := "now on " + name + " (" + providerLabel(c.Label) + ") with model " + stream.SanitizeLine(model)
	if len(m.turns.conv.Turns) > 0 {
		line += " — your next message sends the conversation so far"
	}
	if c.Model == "" {
		line += " · /model picks another"
	}
	m.items.notice(block.Info, line)
	m.items.Update(layoutMsg{follow: true})
	return cmd
}
