package ui

// This file is the root's side of a turn: sending it, and routing what the
// turns child reports of the turn in flight (flight.go: a batch folded in,
// a frame, turnend.go: its end) to the transcript, the status line, the
// meter, the approvals and the tools (the agentic loop).

import (
	"encoding/json"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/ui/block"
	"runnel/ui/pace"
)

// submit sends the user's text, and files (attachments.go), as a new turn.
// With files, the message is made off the update loop first (readFiles:
// read whole, all or none) and sent by attachRead.
func (m *Model) submit(text string, files []*attach.File) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" && len(files) == 0 {
		return nil
	}
	if !m.canSend(text, files) {
		return nil
	}
	if len(files) > 0 {
		return m.turns.readFiles(text, files)
	}
	return m.send(text, nil, attach.Message(text, nil, m.opts.Attach))
}

// canSend reports whether a new turn may start; if not, it says why and
// puts the message back in the composer.
func (m *Model) canSend(text string, files []*attach.File) bool {
	why := ""
	switch p := m.activity().phase; {
	case p == phStreaming:
		why = "a reply is still streaming — esc stops it"
	case p == phTools:
		why = "tools are still running — esc stops them"
	case p == phCompacting:
		why = "compacting the context — send again once it is done"
	case m.tools.mcpStarting():
		return m.tools.waitForMCP(text, files, m.turns.conv.Override, m.frame) // sent once they are up (mcpstart.go)
	case p == phReading:
		why = "the last message's files are still being read — send again in a moment"
	}
	if why != "" {
		m.items.notice(block.Info, why)
		m.composer.putBack(text, files)
	}
	return why == ""
}

// send starts the turn of a user message: msg, made of text and files.
func (m *Model) send(text string, files []*attach.File, msg json.RawMessage) tea.Cmd {
	if note, ok := m.turns.takeEdit(); ok { // an edited prompt: a new branch beside the turn it replaces (branch.go)
		m.history.setTip(m.turns.conv)
		m.redraw()
		m.items.notice(block.Info, note)
	}
	if line := editedLine(m.turns.conv); line != "" {
		m.items.notice(block.Info, line)
	}
	m.items.Update(layoutMsg{follow: true}) // sending a message shows the end again
	if o := m.turns.conv.Override; o != nil {
		m.items.notice(block.Info, promptHeader(o)) // a prompt file's turn (promptcmds.go)
	}
	m.items.markTurn()
	if text != "" {
		m.items.appendEntry(&plainEntry{b: block.NewUser(text), fs: m.frame})
	}
	m.items.showAttachments(attach.Metas(files))
	owed := m.tools.owed(m.frame.clock())                      // outputs of a stopped round keep the chain valid
	owed = append(m.approvals.takeOwed(m.turns.conv), owed...) // and so do the denials of a stopped approval
	return m.beginWith(m.turns.begin(text, append(owed, msg)...), nil)
}

// beginWith streams a session turn recorded in round, the record of the tool
// round whose outputs it sends (nil: a new record).
func (m *Model) beginWith(st *session.Turn, round *session.TurnLog) tea.Cmd {
	if m.opts.Client == nil {
		m.items.notice(block.Info, "this is a replay: there is no server to send to")
		return nil
	}
	// the engine leaves out what the provider refuses, and sends the
	// history to one that keeps no state (session/engine.go)
	req := m.turns.next(session.Event{Kind: session.Sent, Conv: m.turns.conv, Turn: st}).Request
	// resolved once (at start and on /tools): secrets may come from a
	// command, which must not run on every turn inside Update
	resolved, err := m.tools.request()
	if err != nil {
		m.items.notice(block.Error, stream.SanitizeLine(err.Error()))
	}
	req.Tools = resolved // secrets only in the request sent, never in the turn kept
	log := m.history.logTurn(st, round)
	started, pacing := m.turns.start(func(gen int) *turn {
		return startTurn(m.frame.ctx, gen, m.opts.Client, st, req, m.frame.clock(), m.opts.responseLimit(), log)
	})
	m.approvals.clearPending()
	m.statusBar.began(started)
	return pacing // the first batch, and the spinner until it comes
}

// batch routes a stream batch, which the turns child folds in (turns.fold),
// to the transcript and the status line; rendering waits for the next
// frame, and so does asking for the next batch: a stream faster than the
// chat can draw is held back (the reader waits) instead of piling up or
// starving the keys.
func (m *Model) batch(msg batchMsg) tea.Cmd {
	f := m.turns.fold(msg)
	if f.skip {
		return f.next
	}
	now := f.now
	for _, err := range f.problems {
		m.items.notice(block.Warning, stream.SanitizeLine(err.Error()))
	}
	if f.retrying {
		// the frame clock stands still while the chat is idle: the countdown
		// is measured from now, not from the last frame
		m.frame.at(now, m.frame.draft)
	}
	if f.retry != nil {
		m.items.appendEntry(f.retry)
	}
	m.items.showItems(f.snaps)
	m.statusBar.follow(f.current, f.effort, f.usage, m.items.title)
	switch {
	case f.ended:
		return tea.Batch(f.next, m.endTurn(f.draw))
	case f.draw == pace.NoDraw:
		return f.next // a burst: drawn on the next frame, or a stopped turn's last batch asked for
	}
	return tea.Batch(f.next, m.tick(now, f.draw)) // the batch is the frame
}

// tick is a frame: entries changed since the last one re-render now. A
// streaming turn's batches are frames of their own (Model.batch); the next
// frame tick is scheduled only while something else changes: soon while
// tools run or entries animate, slowly while a turn is in flight (the
// status line's spinner, a retry countdown), not at all otherwise.
func (m *Model) tick(now time.Time, draw pace.Draw) tea.Cmd {
	m.frame.at(now, draw == pace.DrawDraft)
	var cmds []tea.Cmd
	if idx, ok := m.turns.frame(now, func(it *stream.Item) { cmds = append(cmds, m.items.refresh(it, now)) }); ok {
		m.items.Update(redrawMsg{idx}) // the retry's countdown
	}
	m.tools.flushRound(now)
	if n := m.frame.newNote(); n != "" { // a render that fell back to plain text says so, once
		m.items.notice(block.Warning, stream.SanitizeLine(n))
	}
	cmds = append(cmds, m.items.refreshDirty(now))
	live := false
	for _, e := range m.items.entriesLive() {
		m.items.Update(redrawMsg{e.idx})
		live = true
	}
	// a round waiting only for the user's answer needs no frames: the
	// approval's slow tick (Update) keeps its timer running
	tools := m.tools.busy() && !m.tools.asking()
	cmds = append(cmds, m.turns.pace(pace.Facts{Cause: pace.Drew, Animating: live, Tools: tools}, now))
	return tea.Batch(cmds...)
}

// endTurn routes the end of the turn in flight, which the turns child
// ends (turns.end), to every child: the meter counts it, the transcript
// settles its entries and says how it ended, and the tools run its calls
// or the approvals ask. The conversation records it, or resends it when
// the server lost the chain.
func (m *Model) endTurn(draw pace.Draw) tea.Cmd {
	end, again := m.turns.end()
	if again != nil {
		return again // sent again (fallback)
	}
	meter := m.metering.account(end.snaps, m.meterEnv()) // the one sum: the status line asks it
	m.statusBar.ended(meter, m.metering.sessionUsage(), end.usage)
	m.frame.post(turnEndMsg{failed: end.failed, stopped: end.stopped}) // the notifier and the queue (queue.go)
	now := m.frame.clock()
	asks := m.items.endItems(end.snaps, now, end.changed)
	for _, n := range end.notices {
		m.items.notice(n.kind, n.text)
	}
	shown := m.items.shown()
	m.turns.endShown(shown.Len(), now) // a dropped stream's keys hold while its notices are the last thing
	cmd := m.tick(now, draw)
	m.turns.Update(turnSettledMsg{})
	if m.opts.LLMTitle && m.history.journal != nil && end.prompt != "" {
		cmd = tea.Batch(cmd, askTitle(m.frame.ctx, m.opts.Client, m.turns.conv.Settings.Model, end.prompt))
	}
	if m.approvals.add(asks) {
		m.turns.next(session.Event{Kind: session.Asking})
		if m.approvals.autoApprove(m.frame) {
			return cmd
		}
		m.approvals.askHosted(m.dialog != nil, m.frame)
	}
	if end.ok && len(end.snaps) > 0 {
		cmd = tea.Batch(cmd, m.tools.startCalls(end.snaps, m.history.journal, m.frame)) // its calls run
	}
	return cmd
}
