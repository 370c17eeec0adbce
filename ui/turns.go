package ui

// This file is the turns child: the conversation and the turn in flight.
// It starts turns, asks for their batches, resends them when the server
// lost or ignored the chain, paces the frames, and stops them; it reports
// to the root only through messages (frameState.post). The root folds the
// batches into the transcript and the status line (flow.go).

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
	"runnel/ui/pace"
)

// turns is the conversation and the turn in flight.
//
// Invariants: cur is nil when no stream is being read; at most one turn
// streams.
type turns struct {
	fs         *frameState
	ctx        context.Context
	opts       *Options // the root's options: the client and limits of the provider in use
	conv       *session.Conversation
	gen        int
	cur        *turn
	pacer      pace.Pacer         // when to take a batch, draw and tick (frames.go)
	compacting context.CancelFunc // non-nil while a /compact call is under way: stops it (compact.go)
	attaching  *waitingSend       // the message whose files are being read, nil when none (attachsend.go)
	drop       dropState          // what a dropped stream offers (turnend.go)
	editing    *session.Turn      // the turn /edit replaces when its message is sent, nil when none (branch.go)
}

// resend sends turn t again with req, recorded in the same history entry.
func (ts *turns) resend(t *turn, req stream.Request) tea.Cmd {
	req.Tools = t.req.Tools
	ts.gen++
	nt := startTurn(ts.ctx, ts.gen, ts.opts.Client, t.sess, req, ts.now(), ts.opts.responseLimit())
	nt.log = t.log
	ts.cur = nt
	return ts.pace(pace.Facts{Cause: pace.Begin}, ts.now())
}

// interrupt stops the turn in flight; what arrived stays on screen. No event
// is applied after it (turn.apply), and the stream drops what it had not
// handed over, so its final batch is the next one: the turn ends at once,
// however fast the stream was coming.
func (ts *turns) interrupt() tea.Cmd {
	ts.cur.stopped = true
	ts.cur.handle.Cancel(errStopped)
	return tea.Batch(ts.pace(pace.Facts{Cause: pace.Stop}, ts.now()), ts.cancelOnServer(ts.cur))
}

// settleRetry replaces the turn's retry countdown, if one shows, with the
// retry's outcome.
func (ts *turns) settleRetry(t *turn, outcome string) {
	if t.retry == nil {
		return
	}
	if s, ok := t.retry.b.(block.Retrier); ok {
		s.Settle(resumeOutcome(t, outcome))
	}
	ts.fs.post(redrawMsg{t.retry.idx})
	t.retry = nil
}

// retryAgain shows turn t's next retry in the place of its countdown, when
// one shows (the retry before failed too), so that all the retries of a
// request are one line; it reports whether one showed. The caller adds
// the notice when none did.
func (ts *turns) retryAgain(t *turn, text string, at time.Time) bool {
	if t.retry == nil {
		return false
	}
	if r, ok := t.retry.b.(block.Retrier); ok {
		r.Again(text, at)
	}
	ts.fs.post(redrawMsg{t.retry.idx})
	return true
}

// fallback resends a turn without a knob the server refused (a 400 naming
// service_tier, verbosity or prompt_cache_key), or with the whole
// conversation when the server
// answered that the previous response is not found (expired, another
// provider, store off, or a server that keeps no state: then remembered),
// once, with a notice. It returns nil when it does not apply.
func (ts *turns) fallback(t *turn) tea.Cmd {
	if len(t.snapshots()) > 0 || t.stopped {
		return nil
	}
	if req, name, ok := ts.conv.DropRefused(t.sess, t.err); ok { // a knob the server does not take (session/knobs.go)
		ts.say(block.Info, session.RefusedNotice(name))
		ts.rememberKnobs()
		return ts.resend(t, req)
	}
	if id, ok := session.MissingOutput(t.err); ok {
		// the chain holds a call nothing answered (a session killed during
		// a tool call, by an older runnel): answer it and send again
		if req, ok := ts.conv.Repair(t.sess, id); ok {
			ts.say(block.Info, "the server found no output for tool call "+stream.SanitizeLine(id)+" — sending one that says runnel stopped before it finished")
			if t.log != nil {
				t.log.SetInput(t.sess.Input)
			}
			return ts.resend(t, req)
		}
		if !t.sess.Fallback {
			ts.say(block.Info, "the server still finds a tool call without output — resending the conversation from local history")
			return ts.resend(t, ts.conv.Rebuild(t.sess))
		}
		return nil
	}
	var apiErr *stream.APIError
	if !errors.As(t.err, &apiErr) || !apiErr.PreviousResponseNotFound() || t.sess.Fallback {
		return nil
	}
	if cmd := ts.statelessFallback(t); cmd != nil {
		return cmd // the server keeps no state at all (stateless.go)
	}
	ts.say(block.Info, "the server no longer has the previous response — resending the conversation from local history")
	return ts.resend(t, ts.conv.Rebuild(t.sess))
}

// chainIgnored checks the batch that brought t's first response object
// (echoedBefore and itemsBefore are echoState before the batch): when the
// server ignored the chain, the stream stops and the turn goes again with
// the history. Nothing of the first attempt was shown or journaled (both
// happen after the batch). When items came before the response object they
// are on screen already: the turn stands, and later turns send the history.
// It returns nil when the turn goes on.
func (ts *turns) chainIgnored(t *turn, echoedBefore, itemsBefore bool) tea.Cmd {
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
	ts.rememberStateless(session.WhyIgnored)
	if itemsBefore {
		ts.say(block.Warning, "this answer came before the server said so: it may not have seen the earlier turns")
		return nil
	}
	t.handle.Cancel(errChainIgnored)
	return ts.resend(t, ts.conv.ResendStateless(t.sess))
}

// statelessFallback resends a turn whose server lost or refused the chain
// in a way that shows it keeps no state (session.KeepsNoState), remembering
// it; nil when the loss is of one response only (it expired), which the
// plain fallback resends.
func (ts *turns) statelessFallback(t *turn) tea.Cmd {
	if !ts.conv.KeepsNoState(t.sess, t.err) {
		return nil
	}
	ts.rememberStateless(session.StatelessWhy(t.err))
	return ts.resend(t, ts.conv.ResendStateless(t.sess))
}

// providerKey is how the memory knows the provider the chat talks to.
func (ts *turns) providerKey() string {
	base := ""
	if ts.opts.Client != nil {
		base = ts.opts.Client.BaseURL
	}
	return session.ProviderKey(base)
}

// statelessMemory is kept beside the model lists (Options.Models.CacheDir);
// without that directory nothing is remembered past this run.
func (ts *turns) statelessMemory() session.StatelessMemory {
	return session.StatelessMemory{Dir: ts.opts.Models.CacheDir}
}

// recallStateless makes the conversation send the history from the start
// when its provider is remembered as keeping no state, and leave out the
// knobs it is remembered to refuse (recallKnobs).
func (ts *turns) recallStateless() {
	ts.recallKnobs() // and what it refused is not sent (knobs.go)
	if ts.opts.Client == nil || ts.conv.Stateless {
		return
	}
	ts.conv.Stateless = ts.statelessMemory().Known(ts.providerKey(), ts.now())
}

// rememberStateless marks the conversation stateless, writes the memory and
// says so in one notice.
func (ts *turns) rememberStateless(why string) {
	ts.conv.Stateless = true
	key := ts.providerKey()
	ts.say(block.Info, session.StatelessNotice(session.ProviderName(key), why))
	if err := ts.statelessMemory().Remember(key, why, ts.now()); err != nil {
		ts.say(block.Warning, "cannot remember it for the next run: "+stream.SanitizeLine(err.Error()))
	}
}

// foreground records that the server refused background mode: one line,
// and the rest of the session runs in foreground mode.
func (ts *turns) foreground(t *turn, r *stream.RetryInfo) {
	t.req.Background = false
	ts.conv.Settings.Background = false
	ts.drop.hinted = ts.conv // background mode is no remedy here
	ts.say(block.Warning, "the server refused background mode ("+retryReason(r.Err)+") — this session goes on in foreground mode")
}

// cancelOnServer asks the server to stop t's response when it runs in
// background mode (it would go on running otherwise); nil when it does not
// or its id is not known yet. A failure is not shown: the turn already
// stopped here.
func (ts *turns) cancelOnServer(t *turn) tea.Cmd {
	c := ts.opts.Client
	s := t.acc.Current()
	if c == nil || !t.req.Background || s == nil || s.ID == "" || s.Terminal {
		return nil
	}
	id := s.ID
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
		defer cancel()
		_ = c.CancelResponse(ctx, id)
		return nil
	}
}

// reattach picks up the background response the stored last turn was
// streaming when runnel was killed (see session.Conversation.Reattachable):
// the rest of its stream continues the saved answer in place, or, from a
// server that cannot resume streams, its final object completes it. The
// turn's record in the history is continued, not repeated.
func (ts *turns) reattach(j *session.Journal) tea.Cmd {
	st := ts.conv.Reattachable()
	c := ts.opts.Client
	if st == nil || c == nil {
		return nil
	}
	ts.gen++
	h := stream.Reattach(ts.ctx, c, st.Background.ID, st.Background.After)
	req := st.Request
	req.Background = true // esc cancels it on the server
	t := &turn{gen: ts.gen, sess: st, handle: h, started: ts.now(), changed: map[*stream.Item]bool{}, req: req}
	t.acc.Limit = ts.opts.responseLimit()
	t.acc.Continue(st.Responses)
	t.bgID, t.bgSeq, t.attach = st.Background.ID, st.Background.After, true
	if j != nil {
		t.log = j.Reattach(st)
	}
	ts.cur = t
	ts.fs.post(statusMsg{state: Waiting, started: t.started})
	return ts.pace(pace.Facts{Cause: pace.Begin}, ts.now())
}

// reattaching reports whether stored turn t is the one reattach picks up.
func (ts *turns) reattaching(t *session.Turn) bool {
	return ts.opts.Client != nil && ts.conv.Reattachable() == t
}

// compact starts /compact: POST /responses/compact for the conversation.
func (ts *turns) compact(toolsBusy bool) tea.Cmd {
	switch {
	case ts.opts.Client == nil:
		ts.say(block.Info, "this is a replay: there is no server to send to")
		return nil
	case ts.cur != nil && !ts.cur.ended:
		ts.say(block.Info, "a reply is still streaming — esc stops it, then /compact")
		return nil
	case toolsBusy:
		ts.say(block.Info, "tools are still running — esc stops them, then /compact")
		return nil
	case ts.compacting != nil:
		ts.say(block.Info, "already compacting — esc stops it")
		return nil
	}
	req, ok := ts.conv.CompactRequest()
	if !ok {
		ts.say(block.Info, "nothing to compact yet")
		return nil
	}
	ctx, stop := context.WithCancelCause(ts.ctx)
	ts.compacting = func() { stop(errCompactStopped) }
	ts.fs.post(statusMsg{state: Waiting, started: ts.now(), detail: "compacting"})
	client := ts.opts.Client
	return func() tea.Msg {
		res, err := client.Compact(ctx, req)
		stop(nil)
		return compactMsg{res: res, err: err}
	}
}

// stopCompact stops a /compact under way (esc); false when there is none.
func (ts *turns) stopCompact() bool {
	if ts.compacting == nil {
		return false
	}
	ts.compacting()
	return true
}

// readFiles reads the files of a message, and encodes the message, in a
// command: tens of megabytes are not read or base64-encoded in Update.
// Files already read (given back by a fork) are not read again.
func (ts *turns) readFiles(text string, files []*attach.File) tea.Cmd {
	lim := ts.opts.Attach
	var redact func(string) string
	if ts.opts.Tools != nil && ts.opts.Tools.Secrets != nil {
		redact = ts.opts.Tools.Secrets.String
	}
	of := &waitingSend{text: text, files: files}
	ts.attaching = of
	ts.fs.post(statusMsg{detail: "reading attachments… (esc stops)", keep: true})
	var mgr *tools.Manager
	if ts.opts.Tools != nil {
		mgr = ts.opts.Tools.MCP
	}
	ctx := ts.ctx
	return func() tea.Msg {
		withMCP, err := readResources(ctx, mgr, files, lim, redact) // @mcp:SERVER:URI (mcpextras.go)
		if err != nil {
			return attachReadMsg{of: of, text: text, files: files, err: err}
		}
		msg := readMessage(text, withMCP, lim, redact)
		msg.of = of
		return msg
	}
}

// stopReading stops waiting for a message's files (esc) and puts the
// message back in the composer; it reports whether files were being read.
func (ts *turns) stopReading() bool {
	w := ts.attaching
	if w == nil {
		return false
	}
	ts.attaching = nil
	ts.fs.post(statusMsg{keep: true})
	ts.fs.post(putBackMsg{w.text, w.files})
	ts.say(block.Info, "stopped reading the attachments — the message is back in the composer")
	return true
}

// now is the injected clock.
func (ts *turns) now() time.Time { return ts.fs.clock() }

// say reports a one-line notice for the transcript.
func (ts *turns) say(kind block.NoticeKind, text string) {
	ts.fs.post(noticeMsg{kind, text})
}

// attachReadMsg carries the files read for a message and the message made
// of them, or why they could not be read.
type attachReadMsg struct {
	of    *waitingSend // the read it answers: an answer to a read esc stopped is dropped
	text  string
	files []*attach.File // read (Data set) when err is nil; else as checked
	msg   json.RawMessage
	err   error
}

// readMessage reads the files not read yet and makes the message.
func readMessage(text string, files []*attach.File, lim attach.Limits, redact func(string) string) attachReadMsg {
	var toRead []*attach.File
	for _, f := range files {
		if f.Data == nil {
			toRead = append(toRead, f)
		}
	}
	read, err := attach.Read(toRead, lim, redact)
	if err != nil {
		return attachReadMsg{text: text, files: files, err: err}
	}
	out := make([]*attach.File, 0, len(files))
	for _, f := range files {
		if f.Data == nil {
			f, read = read[0], read[1:]
		}
		out = append(out, f)
	}
	if err := attach.CheckTotal(out, lim); err != nil {
		return attachReadMsg{text: text, files: files, err: err}
	}
	return attachReadMsg{text: text, files: out, msg: attach.Message(text, out, lim)}
}
