package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui/block"
)

// This file is the root's side of the history child (history.go): what a
// stored session or a fork changes outside the history. The root asks
// each child: the turns child takes the conversation (convMsg), the
// transcript is built again from it (redraw.go), the status line and the
// composer are told what they show.

// showSession replaces the conversation with a stored one and redraws it.
func (m *Model) showSession(msg sessionLoadedMsg) tea.Cmd {
	s := msg.s
	var stop tea.Cmd
	if m.activity().phase == phStreaming {
		stop = m.turns.interrupt()
	}
	m.tools.abandon(m.frame)
	conv, probs := session.FromStore(s)
	if conv.Settings.Model == "" {
		conv.Settings.Model = m.turns.conv.Settings.Model
	}
	var line string
	if s.Imported { // a file's settings steer nothing the config does not agree with
		conv.Settings, line = session.Foreign(conv.Settings, m.opts.Settings)
	}
	m.turns.Update(convMsg{conv})
	m.turns.Update(projectMsg{m.agents.text()})                            // this run's AGENTS.md, not the session's (agents.go)
	moved := keepProvider(conv, m.opts.Settings.Provider, m.opts.Settings) // the provider in use (Options.switchTo); providerpicker.go
	hit := conv.Stored(msg.turn)
	other := hit != nil && !slices.Contains(conv.Turns, hit)
	at := conv.Reveal(hit) // a search hit on another branch shows that branch (branch.go)
	watch := m.history.resume(s.Info.ID, conv.Settings, promptsOf(conv))
	if other {
		m.history.setTip(conv) // and the session continues it
	}
	m.statusBar.showModel(conv.Settings.Model)
	m.statusBar.showEffort(conv.Settings.ReasoningEffort)
	past := m.updateComposer(setPastMsg{m.history.past()})
	m.redraw()
	for _, w := range append(msg.warns, probs...) {
		m.items.notice(block.Warning, stream.SanitizeLine(w.Error()))
	}
	turns := plural(s.Info.Turns, "turn")
	if conv := m.turns.conversation(); conv.Branched() { // the turns shown, of the branch last continued (branch.go)
		turns = fmt.Sprintf("%s shown · %d branches", plural(len(userTurnsAt(conv)), "turn"), len(conv.Branches()))
	}
	m.items.notice(block.Info, fmt.Sprintf("resumed %q · %s", stream.SanitizeLine(s.Info.Title), turns))
	if line != "" {
		m.items.notice(block.Warning, line) // the file's settings are not used (session/imported.go)
	}
	if moved != "" {
		m.items.notice(block.Info, moved)
		m.history.saveSettings(m.turns.conv.Settings) // the session is on this provider now
	}
	m.items.Update(scrollTurnMsg{at}) // the turn last continued
	return tea.Batch(stop, watch, past, m.tools.resumeCalls(m.turns.conv, m.opts.Client != nil, m.history.journal, m.frame), m.turns.reattach(m.history.journal))
}

// callsOpen reports whether a call of the chain has no final output.
func callsOpen(ccs []session.ChainCall) bool {
	for _, cc := range ccs {
		if cc.State != session.CallAnswered {
			return true
		}
	}
	return false
}

// fork starts a new session from user turn n (numbered as "N turns"
// counts them: tool rounds belong to the turn before them): the turns before
// it are kept, and the composer holds its prompt for editing. The original
// stays; 0 forks at the last user turn.
func (m *Model) fork(n int) tea.Cmd {
	if m.activity().phase == phStreaming {
		m.items.notice(block.Info, "stop the reply first (esc), then fork")
		return nil
	}
	var at []int // conversation index of each user turn
	for i, t := range m.turns.conv.Turns {
		if store.UserTurn(t.Prompt, t.Input) {
			at = append(at, i)
		}
	}
	if n == 0 {
		n = len(at)
	}
	if n < 1 || n > len(at) {
		m.items.notice(block.Warning, fmt.Sprintf("/fork N: N is a turn from 1 to %d", len(at)))
		return nil
	}
	keep := at[n-1]
	prompt := m.turns.conv.Turns[keep].Prompt
	files := attach.FilesFromInput(m.turns.conv.Turns[keep].Input) // its attachments come back as chips
	m.turns.Update(forkMsg{keep})
	f := m.turns.conversation()
	watch := m.history.forkJournal(keep, prompt, f.Settings, f.Turns)
	m.redraw()
	m.composer.SetValue(prompt)
	m.composer.SetAttachments(files)
	m.items.notice(block.Info, fmt.Sprintf("forked at turn %d — edit the prompt and press enter; the original session is unchanged", n))
	return watch
}
