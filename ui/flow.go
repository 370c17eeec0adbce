package ui

// This file runs a turn through the chat: sending it, folding its stream
// batches in, drawing changed entries on frame ticks, and ending it (notices,
// approvals, the expired-chain fallback, the agentic loop).

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/ui/block"
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
		return m.readFiles(text, files)
	}
	return m.send(text, nil, attach.Message(text, nil, m.opts.Attach))
}

// canSend reports whether a new turn may start; if not, it says why and
// puts the message back in the composer.
func (m *Model) canSend(text string, files []*attach.File) bool {
	why := ""
	switch {
	case m.cur != nil && !m.cur.ended:
		why = "a reply is still streaming — esc stops it"
	case m.tools.cancel != nil:
		why = "tools are still running — esc stops them"
	case m.compacting != nil:
		why = "compacting the context — send again once it is done"
	case m.tools.mcpStarting():
		return m.tools.waitForMCP(text, files, m.frame) // sent once they are up (mcpstart.go)
	case m.attaching != nil:
		why = "the last message's files are still being read — send again in a moment"
	}
	if why != "" {
		m.notice(block.Info, why)
		m.putBack(text, files)
	}
	return why == ""
}

// send starts the turn of a user message: msg, made of text and files.
func (m *Model) send(text string, files []*attach.File, msg json.RawMessage) tea.Cmd {
	m.transcript.Follow() // sending a message shows the end again
	m.turnEntry = append(m.turnEntry, m.transcript.Len())
	if text != "" {
		m.appendEntry(&plainEntry{b: block.NewUser(text), fs: m.frame})
	}
	m.showAttachments(attach.Metas(files))
	owed := m.tools.loop.Begin(m.now())        // outputs of a stopped round keep the chain valid
	owed = append(m.takeOwed(m.conv), owed...) // and so do the denials of a stopped approval
	m.recallStateless()                        // a provider that keeps no state gets the history (stateless.go)
	return m.begin(m.conv.Begin(text, append(owed, msg)...))
}

// begin streams a session turn.
func (m *Model) begin(st *session.Turn) tea.Cmd { return m.beginWith(st, nil) }

// beginWith streams a session turn recorded in round, the record of the tool
// round whose outputs it sends (nil: a new record).
func (m *Model) beginWith(st *session.Turn, round *session.TurnLog) tea.Cmd {
	if m.opts.Client == nil {
		m.notice(block.Info, "this is a replay: there is no server to send to")
		return nil
	}
	req := st.Request
	// resolved once (at start and on /tools): secrets may come from a
	// command, which must not run on every turn inside Update
	if m.tools.resolveErr != nil {
		m.notice(block.Error, stream.SanitizeLine(m.tools.resolveErr.Error()))
	}
	req.Tools = m.tools.resolved // secrets only in the request sent, never in the turn kept
	m.gen++
	t, cmd := startTurn(m.ctx, m.gen, m.opts.Client, st, req, m.now(), m.opts.responseLimit())
	switch {
	case m.journal != nil && round != nil:
		t.log = m.journal.Continue(round, st)
	case m.journal != nil:
		t.log = m.journal.Begin(st)
	}
	m.cur = t
	m.pending = nil
	m.status.State, m.status.Started, m.status.Detail = Waiting, t.started, ""
	m.status.TurnUsage = Usage{}
	return tea.Batch(cmd, m.scheduleFrame(false)) // the spinner until the first batch
}

// interrupt stops the turn in flight; what arrived stays on screen. No event
// is applied after it (turn.apply), and the stream drops what it had not
// handed over, so its final batch is the next one: the turn ends at once,
// however fast the stream was coming.
func (m *Model) interrupt() tea.Cmd {
	m.cur.stopped = true
	m.cur.handle.Cancel(errStopped)
	return tea.Batch(m.nextBatch(m.cur), m.cancelOnServer(m.cur))
}

// batch folds a stream batch in; rendering waits for the next frame, and so
// does asking for the next batch: a stream faster than the chat can draw is
// held back (the reader waits) instead of piling up or starving the keys.
func (m *Model) batch(msg batchMsg) tea.Cmd {
	t := m.cur
	if t == nil || msg.gen != t.gen {
		return nil
	}
	t.waiting = false
	now := m.now()
	echoedBefore, itemsBefore := echoState(t)
	problems := t.apply(msg.batch)
	if cmd := m.chainIgnored(t, echoedBefore, itemsBefore); cmd != nil {
		return cmd // the server ignored the chain: sent again with the history (stateless.go)
	}
	closing := false // the batch ends a text, an item or the response: its end is complete
	for i := range msg.batch.Events {
		k := msg.batch.Events[i].Kind
		t.delta = t.delta || msg.batch.Events[i].Delta != ""
		closing = closing || k == stream.KindTextDone || k == stream.KindItemDone || k.IsTerminal()
	}
	burst := (t.burst || msg.batch.More) && !closing // this batch is part of a burst
	t.burst = msg.batch.More
	if t.burst {
		t.fullAt = time.Now()
	}
	for _, err := range problems {
		m.notice(block.Warning, stream.SanitizeLine(err.Error()))
	}
	if len(msg.batch.Events) > 0 {
		m.settleRetry(t, "the retry worked")
	}
	if r := msg.batch.Retry; r != nil && r.Foreground {
		m.foreground(t, r)
	} else if r != nil {
		m.settleRetry(t, "that retry failed too")
		// the frame clock stands still while the chat is idle: the countdown
		// is measured from now, not from the last frame
		m.frame.now = now
		text := retryText(r)
		t.reconn = r.Resume || r.Poll
		t.polling = r.Poll
		t.retry = &plainEntry{b: block.NewRetry(text, now.Add(r.Wait)), fs: m.frame}
		m.appendEntry(t.retry)
	}
	m.showNewItems(t)
	if len(msg.batch.Events) > 0 && m.status.State == Waiting {
		m.status.State = Streaming
	}
	m.updateState(t)
	if t.ended {
		return m.endTurn(t)
	}
	if t.stopped {
		return m.nextBatch(t) // only the final batch is left: end at once
	}
	if burst && time.Since(t.drawn) < burstDraw {
		// a stream faster than the frames: draw on the next frame (a render
		// per batch would slow it down); after a full batch the rest is
		// taken at once
		return tea.Batch(m.nextBatch(t), m.scheduleFrame(true))
	}
	t.drawn = time.Now()
	return m.tick(now) // the batch is the frame: draw it, ask for the next
}

// nextBatch asks for the turn's next batch unless a request is outstanding.
func (m *Model) nextBatch(t *turn) tea.Cmd {
	if t.waiting || t.ended {
		return nil
	}
	t.waiting = true
	// real time: the stream's reader holds what comes until then
	return waitBatch(t.gen, t.handle, t.due(time.Now()))
}

// retryReason is what failed, without advice to wait and try again: runnel
// is retrying on its own.
func retryReason(err error) string {
	var apiErr *stream.APIError
	if errors.As(err, &apiErr) {
		return stream.SanitizeLine(apiErr.Brief())
	}
	return stream.SanitizeLine(err.Error())
}

// settleRetry replaces the turn's retry countdown, if one shows, with the
// retry's outcome.
func (m *Model) settleRetry(t *turn, outcome string) {
	if t.retry == nil {
		return
	}
	if s, ok := t.retry.b.(block.Settler); ok {
		s.Settle(resumeOutcome(t, outcome))
	}
	m.transcript.Invalidate(t.retry.idx)
	t.retry = nil
}

// showNewItems gives every item not yet shown its entry.
func (m *Model) showNewItems(t *turn) {
	for _, s := range t.snapshots() {
		for _, it := range s.Items {
			if _, ok := m.entries[it]; !ok {
				m.addItem(it, m.frame.now)
			}
		}
	}
}

// addItem appends an item's entry to the transcript.
func (m *Model) addItem(it *stream.Item, now time.Time) *itemEntry {
	e := &itemEntry{b: block.ForItem(it, now), it: it, fs: m.frame}
	m.entries[it] = e
	m.appendEntry(e)
	switch it.Type {
	case "reasoning":
		m.reasoning = append(m.reasoning, e)
	case "message":
	default:
		m.panels = append(m.panels, e)
	}
	return e
}

// updateState sets the status line from what is streaming.
func (m *Model) updateState(t *turn) {
	s := t.acc.Current()
	if s == nil {
		return
	}
	if s.Model != "" {
		m.status.Model = s.Model // the model that answers, as the server reports it
	}
	if t.effort != "" {
		m.status.Effort = t.effort
	}
	m.status.Detail = ""
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := s.Items[i]
		if it.Done {
			continue
		}
		switch it.Type {
		case "reasoning":
			if r, ok := m.entries[it].b.(block.Titled); ok {
				m.status.Detail = r.Title()
			}
			m.status.State = Streaming
		case "message":
			m.status.State = Streaming
		case "function_call", "custom_tool_call":
			// the model is still writing the call: nothing runs yet
			m.status.State, m.status.Detail = CallingTool, it.Name
		default:
			// a hosted tool (web search, code interpreter, MCP…) runs on the server
			m.status.State, m.status.Detail = RunningTool, hostedName(it)
		}
		break
	}
	m.status.TurnUsage = t.usage()
}

// reportedEffort is the reasoning effort a response object reports, "" when
// it reports none.
func reportedEffort(raw json.RawMessage) string {
	var r struct {
		Reasoning *struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Reasoning == nil {
		return ""
	}
	return stream.SanitizeLine(r.Reasoning.Effort)
}

// hostedName names a hosted tool call for the status line.
func hostedName(it *stream.Item) string {
	if it.Name != "" {
		return it.Name
	}
	return strings.ReplaceAll(strings.TrimSuffix(it.Type, "_call"), "_", " ")
}

// tick is a frame: entries changed since the last one re-render now. A
// streaming turn's batches are frames of their own (Model.batch); the next
// frame tick is scheduled only while something else changes: soon while
// tools run or entries animate, slowly while a turn is in flight (the
// status line's spinner, a retry countdown), not at all otherwise.
func (m *Model) tick(now time.Time) tea.Cmd {
	m.frame.now = now
	m.frame.draft = m.cur != nil && time.Since(m.cur.fullAt) < draftFor
	var cmds []tea.Cmd
	if t := m.cur; t != nil {
		cmds = append(cmds, m.nextBatch(t))
		if t.retry != nil {
			m.transcript.Invalidate(t.retry.idx) // the countdown
		}
		if t.log != nil {
			if t.bgID != "" {
				t.log.Background(t.bgID, t.bgSeq)
			}
			t.log.Note(now, t.snapshots(), func(it *stream.Item) bool { return t.changed[it] })
		}
		for it := range t.changed {
			cmds = append(cmds, m.refresh(it, now))
		}
		clear(t.changed)
	}
	m.tools.flushRound(now)
	if n := m.frame.md.NewNote(); n != "" { // a render that fell back to plain text says so, once
		m.notice(block.Warning, stream.SanitizeLine(n))
	}
	for it := range m.dirty {
		cmds = append(cmds, m.refresh(it, now))
	}
	clear(m.dirty)
	live := false
	for _, e := range m.entriesLive() {
		m.transcript.Invalidate(e.idx)
		live = true
	}
	// a round waiting only for the user's answer needs no frames: the
	// approval's slow tick (Update) keeps its timer running
	switch {
	case live || (m.tools.cancel != nil && m.tools.asking == nil):
		cmds = append(cmds, m.scheduleFrame(true))
	case m.cur != nil:
		cmds = append(cmds, m.scheduleFrame(false))
	}
	return tea.Batch(cmds...)
}

// refresh re-renders a changed item's entry, and starts the slow work a
// finished item needs (the full markdown render, writing images) as Cmds.
func (m *Model) refresh(it *stream.Item, now time.Time) tea.Cmd {
	e := m.entries[it]
	if e == nil {
		return nil
	}
	if u, ok := e.b.(block.Updater); ok {
		u.Update(now)
	}
	m.transcript.Invalidate(e.idx)
	var cmds []tea.Cmd
	if it.Type == "message" && it.Done {
		cmds = append(cmds, m.finalRender(e))
	}
	if sv, ok := e.b.(block.ImageSaver); ok {
		if write := sv.SaveImage(m.opts.Images); write != nil {
			cmds = append(cmds, m.writeImage(e, write))
		}
	}
	return tea.Batch(cmds...)
}

// entriesLive lists entries that animate (spinners, elapsed times).
func (m *Model) entriesLive() []*itemEntry {
	var out []*itemEntry
	for _, e := range m.panels {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	for _, e := range m.reasoning {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	return out
}

// finalRender runs a finished message's full render off the UI goroutine.
func (m *Model) finalRender(e *itemEntry) tea.Cmd {
	f, ok := e.b.(block.Finisher)
	if !ok {
		return nil
	}
	w := m.frame.width
	render := f.FinalRender(block.Context{Width: w, Styles: m.frame.styles, Now: m.frame.now, Markdown: m.frame.md})
	return func() tea.Msg { return finalMsg{e: e, width: w, rendered: render()} }
}

// endTurn records how the turn ended and says so when it went badly.
func (m *Model) endTurn(t *turn) tea.Cmd {
	switch {
	case t.stopped:
		m.settleRetry(t, "stopped")
	case t.err != nil:
		m.settleRetry(t, "the retry failed — see below")
	default:
		m.settleRetry(t, "the retry worked")
	}
	snaps := t.snapshots()
	if cmd := m.fallback(t); cmd != nil {
		return cmd
	}
	m.conv.Finish(t.sess, snaps, t.err, t.stopped)
	m.usage = m.usage.Add(t.usage())
	m.account(snaps)
	m.status.SessionUsage = m.usage
	m.status.TurnUsage = t.usage()
	m.status.State, m.status.Detail = Idle, ""
	now := m.now()
	failed := false // a failure was reported: a cut-off is part of it, not a second story
	for _, s := range snaps {
		for _, it := range s.Items {
			if e := m.entries[it]; e != nil {
				if ib, ok := e.b.(block.ItemBlock); ok {
					ib.End(now)
					t.changed[it] = true
				}
				if c, ok := e.b.(block.Compaction); ok && it.Type == "compaction" && s.Usage != nil {
					c.SetTokens(s.Usage.InputTokens, 0) // the context the server compacted
				}
			}
			if it.Type == "message" && it.Text() != "" {
				m.answers = append(m.answers, it.Text())
			}
			if e := m.entries[it]; e != nil {
				if a, ok := e.b.(block.Approver); ok {
					if _, pending := a.Approval(); pending {
						m.pending = append(m.pending, e)
					}
				}
			}
		}
		switch {
		case (s.Status == "failed" || s.ErrorEvent) && contextFull(nil, s.Error):
			m.notice(block.Error, contextFullNotice)
			failed = true
		case s.Status == "failed" || s.ErrorEvent:
			msg := "the response failed"
			if s.Error != nil {
				msg += ": " + stream.SanitizeLine(strings.TrimPrefix(s.Error.Code+": "+s.Error.Message, ": "))
			}
			m.notice(block.Error, msg+" — the partial answer is kept above")
			failed = true
		case s.Status == "incomplete":
			m.notice(block.Warning, stream.IncompleteText(s.IncompleteDetails))
		}
	}
	carried := m.conv.Carried()
	var limitErr *stream.LimitError
	switch {
	case errors.As(t.err, &limitErr):
		m.notice(block.Warning, session.LimitNotice(limitErr)+carriedNote(carried))
	case t.stopped && carried:
		m.notice(block.Info, "stopped — the partial answer is kept; your next message sends this prompt and the partial answer to the model with it")
	case t.stopped:
		m.notice(block.Info, "stopped — the partial answer is kept; the next message continues from the last complete reply")
	case t.err != nil && len(snaps) == 0 && contextFull(t.err, nil):
		m.notice(block.Error, contextFullNotice)
	case t.err != nil && len(snaps) == 0:
		m.notice(block.Error, stream.SanitizeLine(t.err.Error()))
	case failed:
	case t.err != nil:
		m.notice(block.Error, "stream broken: "+stream.SanitizeLine(t.err.Error())+" — the partial answer is kept"+carriedNote(carried))
	case len(snaps) > 0 && snaps[len(snaps)-1].CutOff:
		m.notice(block.Warning, stream.CutOffNote+" — the partial answer is kept"+carriedNote(carried))
	}
	if t.log != nil {
		t.log.End(now, t.sess)
	}
	cmd := m.tick(now)
	m.cur = nil
	if m.opts.LLMTitle && m.journal != nil && len(m.conv.Turns) == 1 && t.sess.Prompt != "" && t.err == nil && !t.stopped {
		cmd = tea.Batch(cmd, m.askTitle(t.sess.Prompt))
	}
	if len(m.pending) > 0 {
		m.status.State = AwaitingApproval
		if m.approvals.autoApprove(m.frame) {
			return cmd
		}
		m.approvals.askHosted(m.dialog != nil, m.frame)
	}
	return tea.Batch(cmd, m.tools.afterResponse(t, m.journal, m.frame))
}

// carriedNote says that the next message carries an unfinished turn.
func carriedNote(carried bool) string {
	if carried {
		return "; your next message sends it to the model with the prompt"
	}
	return ""
}

// fallback resends a turn with the whole conversation when the server
// answered that the previous response is not found (expired, another
// provider, store off, or a server that keeps no state: then remembered),
// once, with a notice. It returns nil when it does not apply.
func (m *Model) fallback(t *turn) tea.Cmd {
	if len(t.snapshots()) > 0 || t.stopped {
		return nil
	}
	if id, ok := session.MissingOutput(t.err); ok {
		// the chain holds a call nothing answered (a session killed during
		// a tool call, by an older runnel): answer it and send again
		if req, ok := m.conv.Repair(t.sess, id); ok {
			m.notice(block.Info, "the server found no output for tool call "+stream.SanitizeLine(id)+" — sending one that says runnel stopped before it finished")
			if t.log != nil {
				t.log.SetInput(t.sess.Input)
			}
			return m.resend(t, req)
		}
		if !t.sess.Fallback {
			m.notice(block.Info, "the server still finds a tool call without output — resending the conversation from local history")
			return m.resend(t, m.conv.Rebuild(t.sess))
		}
		return nil
	}
	var apiErr *stream.APIError
	if !errors.As(t.err, &apiErr) || !apiErr.PreviousResponseNotFound() || t.sess.Fallback {
		return nil
	}
	if cmd := m.statelessFallback(t); cmd != nil {
		return cmd // the server keeps no state at all (stateless.go)
	}
	m.notice(block.Info, "the server no longer has the previous response — resending the conversation from local history")
	return m.resend(t, m.conv.Rebuild(t.sess))
}

// resend sends turn t again with req, recorded in the same history entry.
func (m *Model) resend(t *turn, req stream.Request) tea.Cmd {
	req.Tools = t.req.Tools
	m.gen++
	nt, cmd := startTurn(m.ctx, m.gen, m.opts.Client, t.sess, req, m.now(), m.opts.responseLimit())
	nt.log = t.log
	m.cur = nt
	return tea.Batch(cmd, m.scheduleFrame(false))
}
