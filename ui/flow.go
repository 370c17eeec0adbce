package ui

// This file runs a turn through the chat: sending it, folding its stream
// batches in, drawing changed entries on frame ticks, and ending it (notices,
// approvals, the expired-chain fallback, the agentic loop).

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
	t := m.turns.start(func(gen int) *turn {
		t := startTurn(m.frame.ctx, gen, m.opts.Client, st, req, m.frame.clock(), m.opts.responseLimit())
		t.log = log
		return t
	})
	m.approvals.clearPending()
	m.statusBar.began(t.started)
	return m.turns.pace(pace.Facts{Cause: pace.Begin}, m.frame.clock()) // the first batch, and the spinner until it comes
}

// batch folds a stream batch in; rendering waits for the next frame, and so
// does asking for the next batch: a stream faster than the chat can draw is
// held back (the reader waits) instead of piling up or starving the keys.
func (m *Model) batch(msg batchMsg) tea.Cmd {
	t := m.turns.cur
	if t == nil || msg.gen != t.gen {
		return nil
	}
	now := m.frame.clock()
	if cs := msg.batch.Conversation; cs != nil {
		m.turns.conversationStarted(*cs) // conversations mode (serverconv.go)
	}
	echoedBefore, itemsBefore := echoState(t)
	problems := t.apply(msg.batch)
	if cmd := m.turns.created(t, echoedBefore, itemsBefore); cmd != nil {
		return cmd // the server ignored the chain: sent again with the history (turns.go)
	}
	facts := pace.Facts{Cause: pace.Batch, Full: msg.batch.More, Fresh: msg.batch.Fresh, Ended: t.ended, Stopped: t.stopped}
	for i := range msg.batch.Events {
		k := msg.batch.Events[i].Kind
		facts.Delta = facts.Delta || msg.batch.Events[i].Delta != ""
		// the batch ends a text, an item or the response: its end is complete
		facts.Closing = facts.Closing || k == stream.KindTextDone || k == stream.KindItemDone || k.IsTerminal()
	}
	pl, next := m.turns.plan(facts, now)
	for _, err := range problems {
		m.items.notice(block.Warning, stream.SanitizeLine(err.Error()))
	}
	if len(msg.batch.Events) > 0 {
		m.turns.settleRetry(t, "the retry worked")
	}
	if r := msg.batch.Retry; r != nil && r.Foreground {
		m.turns.foreground(t, r)
	} else if r != nil {
		// the frame clock stands still while the chat is idle: the countdown
		// is measured from now, not from the last frame
		m.frame.at(now, m.frame.draft)
		if e := t.retrying(r, now, m.frame); e != nil { // else the retry before failed too: its line goes on
			m.items.appendEntry(e)
		}
	}
	m.items.showItems(t.snapshots())
	if len(msg.batch.Events) > 0 {
		m.turns.next(session.Event{Kind: session.Streamed}) // the status line shows it (statusBar.sync)
	}
	m.statusBar.follow(t.acc.Current(), t.effort, t.usage(), m.items.title)
	switch {
	case t.ended:
		return tea.Batch(next, m.endTurn(t, pl.Draw))
	case pl.Draw == pace.NoDraw:
		return next // a burst: drawn on the next frame, or a stopped turn's last batch asked for
	}
	return tea.Batch(next, m.tick(now, pl.Draw)) // the batch is the frame
}

// tick is a frame: entries changed since the last one re-render now. A
// streaming turn's batches are frames of their own (Model.batch); the next
// frame tick is scheduled only while something else changes: soon while
// tools run or entries animate, slowly while a turn is in flight (the
// status line's spinner, a retry countdown), not at all otherwise.
func (m *Model) tick(now time.Time, draw pace.Draw) tea.Cmd {
	m.frame.at(now, draw == pace.DrawDraft)
	var cmds []tea.Cmd
	if t := m.turns.cur; t != nil {
		if t.retry.entry != nil {
			m.items.Update(redrawMsg{t.retry.entry.idx}) // the countdown
		}
		if t.log != nil {
			if t.bg.id != "" {
				t.log.Background(t.bg.id, t.bg.seq)
			}
			t.log.Note(now, t.snapshots(), func(it *stream.Item) bool { return t.changed[it] })
		}
		t.flushChanged(func(it *stream.Item) { cmds = append(cmds, m.items.refresh(it, now)) })
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

// endTurn routes the end of a turn to every child: the conversation
// records it (or resends it when the server lost the chain), the meter
// counts it, the transcript settles its entries and says how it ended, and
// the tools run its calls or the approvals ask.
func (m *Model) endTurn(t *turn, draw pace.Draw) tea.Cmd {
	if cmd := m.turns.finish(t); cmd != nil {
		return cmd // sent again (fallback)
	}
	snaps := t.snapshots()
	meter := m.metering.account(snaps, m.meterEnv()) // the one sum: the status line asks it
	m.statusBar.ended(meter, m.metering.sessionUsage(), t.usage())
	m.frame.post(turnEndMsg{failed: turnFailed(t), stopped: t.stopped}) // the notifier and the queue (queue.go)
	now := m.frame.clock()
	asks := m.items.endItems(snaps, now, t.changed)
	for _, n := range m.turns.endNotices(t, snaps, m.turns.conversation().Carried()) {
		m.items.notice(n.kind, n.text)
	}
	shown := m.items.shown()
	m.turns.offerShown(shown.Len()) // a dropped stream's keys hold while its notices are the last thing
	if t.log != nil {
		t.log.End(now, t.sess)
	}
	cmd := m.tick(now, draw)
	m.turns.Update(turnSettledMsg{})
	if m.opts.LLMTitle && m.history.journal != nil && len(m.turns.conv.Turns) == 1 && t.sess.Prompt != "" && t.err == nil && !t.stopped {
		cmd = tea.Batch(cmd, askTitle(m.frame.ctx, m.opts.Client, m.turns.conv.Settings.Model, t.sess.Prompt))
	}
	if m.approvals.add(asks) {
		m.turns.next(session.Event{Kind: session.Asking})
		if m.approvals.autoApprove(m.frame) {
			return cmd
		}
		m.approvals.askHosted(m.dialog != nil, m.frame)
	}
	if snaps := t.snapshots(); !t.stopped && t.err == nil && len(snaps) > 0 {
		cmd = tea.Batch(cmd, m.tools.startCalls(snaps, m.history.journal, m.frame)) // its calls run
	}
	return cmd
}
