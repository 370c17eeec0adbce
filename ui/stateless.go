package ui

// This file is the chat's side of a server that keeps no conversation state
// (session/stateless.go): a chained turn whose first response object shows
// that the server ignored the chain is stopped before anything of it shows
// and sent again with the history, once, with one notice; a server that
// refused or lost the chain is taken the same way (fallback); and the
// provider is remembered beside the model lists, so that later turns, and
// later runs, send the history from the start.

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// errChainIgnored is the cause given to a stream stopped because its
// server ignored previous_response_id.
var errChainIgnored = errors.New("the server ignored previous_response_id")

// providerKey is how the memory knows the provider the chat talks to.
func (m *Model) providerKey() string {
	base := ""
	if m.opts.Client != nil {
		base = m.opts.Client.BaseURL
	}
	return session.ProviderKey(base)
}

// statelessMemory is kept beside the model lists (Options.Models.CacheDir);
// without that directory nothing is remembered past this run.
func (m *Model) statelessMemory() session.StatelessMemory {
	return session.StatelessMemory{Dir: m.opts.Models.CacheDir}
}

// recallStateless makes the conversation send the history from the start
// when its provider is remembered as keeping no state.
func (m *Model) recallStateless() {
	if m.opts.Client == nil || m.conv.Stateless {
		return
	}
	m.conv.Stateless = m.statelessMemory().Known(m.providerKey(), m.now())
}

// rememberStateless marks the conversation stateless, writes the memory and
// says so in one notice.
func (m *Model) rememberStateless(why string) {
	m.conv.Stateless = true
	key := m.providerKey()
	m.notice(block.Info, session.StatelessNotice(session.ProviderName(key), why))
	if err := m.statelessMemory().Remember(key, why, m.now()); err != nil {
		m.notice(block.Warning, "cannot remember it for the next run: "+stream.SanitizeLine(err.Error()))
	}
}

// echoState says whether t's stream has brought a response object yet, and
// whether it has brought any item (an item is shown as it comes).
func echoState(t *turn) (echoed, items bool) {
	for _, s := range t.snapshots() {
		echoed = echoed || s.Echoed
		items = items || len(s.Items) > 0
	}
	return echoed, items
}

// chainIgnored checks the batch that brought t's first response object
// (echoedBefore and itemsBefore are echoState before the batch): when the
// server ignored the chain, the stream stops and the turn goes again with
// the history. Nothing of the first attempt was shown or journaled (both
// happen after the batch). When items came before the response object they
// are on screen already: the turn stands, and later turns send the history.
// It returns nil when the turn goes on.
func (m *Model) chainIgnored(t *turn, echoedBefore, itemsBefore bool) tea.Cmd {
	if echoedBefore || t.stopped || t.sess.Fallback {
		return nil
	}
	var first *stream.Snapshot
	for _, s := range t.snapshots() {
		if s.Echoed {
			first = s
			break
		}
	}
	if first == nil || !session.ChainIgnored(t.req, first) {
		return nil
	}
	m.rememberStateless(session.WhyIgnored)
	if itemsBefore {
		m.notice(block.Warning, "this answer came before the server said so: it may not have seen the earlier turns")
		return nil
	}
	t.handle.Cancel(errChainIgnored)
	return m.resend(t, m.conv.ResendStateless(t.sess))
}

// statelessFallback resends a turn whose server lost or refused the chain
// in a way that shows it keeps no state (session.KeepsNoState), remembering
// it; nil when the loss is of one response only (it expired), which the
// plain fallback resends.
func (m *Model) statelessFallback(t *turn) tea.Cmd {
	if !m.conv.KeepsNoState(t.sess, t.err) {
		return nil
	}
	m.rememberStateless(session.StatelessWhy(t.err))
	return m.resend(t, m.conv.ResendStateless(t.sess))
}
