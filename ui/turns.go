package ui

// This file is the turns child: the conversation and the turn in flight.
// It starts turns, asks for their batches and folds them in (flight.go),
// does what the turn engine answers (session/engine.go: resend without
// what the server refused, or with the history), paces the frames, stops
// turns and ends them (turnend.go). It reports to the root through
// messages (frameState.post) and the facts its methods return (folded,
// turnEnd), which the root routes to the transcript and the status line
// (flow.go); the root never drives the turn in flight itself.

import (
	"context"
	"encoding/json"
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
	eng        *session.Engine    // the turn engine of the provider in use (engine()), nil before the first turn
	endHold    time.Duration      // how long the store's writes wait after a batch that closes something (endHold); a test lengthens it
}

// resend sends turn t again with req, recorded in the same history entry.
func (ts *turns) resend(t *turn, req stream.Request) tea.Cmd {
	req.Tools = t.req.Tools
	ts.gen++
	ts.cur = startTurn(ts.ctx, ts.gen, ts.opts.Client, t.sess, req, ts.fs.clock(), ts.opts.responseLimit(), t.log)
	return ts.pace(pace.Facts{Cause: pace.Begin}, ts.fs.clock())
}

// interrupt stops the turn in flight; what arrived stays on screen. No event
// is applied after it (turn.apply), and the stream drops what it had not
// handed over, so its final batch is the next one: the turn ends at once,
// however fast the stream was coming.
func (ts *turns) interrupt() tea.Cmd {
	ts.cur.stopped = true
	ts.cur.handle.Cancel(errStopped)
	return tea.Batch(ts.pace(pace.Facts{Cause: pace.Stop}, ts.fs.clock()), ts.cur.cancelOnServer(ts.opts.Client))
}

// settleRetry replaces the turn's retry countdown, if one shows, with the
// retry's outcome; fs redraws it.
func (t *turn) settleRetry(outcome string, fs *frameState) {
	if t.retry.entry == nil {
		return
	}
	if s, ok := t.retry.entry.b.(block.Retrier); ok {
		s.Settle(resumeOutcome(t, outcome))
	}
	fs.post(redrawMsg{t.retry.entry.idx})
	t.retry = retryNote{}
}

// retrying takes a retry the stream reports (r, at now): the turn
// reconnects or polls, and its countdown shows. The retries of a request
// are one line: when one shows already (the retry before failed too), it
// names the next, else the new line is returned for the transcript.
func (t *turn) retrying(r *stream.RetryInfo, now time.Time, fs *frameState) *plainEntry {
	text, at := retryText(r), now.Add(r.Wait)
	t.retry.reconn = r.Resume || r.Poll
	t.retry.polling = r.Poll
	if t.retry.entry == nil {
		t.retry.entry = &plainEntry{b: block.NewRetry(text, at), fs: fs}
		return t.retry.entry
	}
	if rt, ok := t.retry.entry.b.(block.Retrier); ok {
		rt.Again(text, at)
	}
	fs.post(redrawMsg{t.retry.entry.idx})
	return nil
}

// start makes the turn mk builds, with the next generation, the one in
// flight, and paces it: it returns when the turn started, and the Cmds
// for its first batch and the spinner until it comes.
func (ts *turns) start(mk func(gen int) *turn) (started time.Time, pacing tea.Cmd) {
	ts.gen++
	ts.cur = mk(ts.gen)
	return ts.cur.started, ts.pace(pace.Facts{Cause: pace.Begin}, ts.fs.clock())
}

// engine is the turn engine for the provider the chat talks to
// (session/engine.go): a new one when the provider changed. What a server
// refuses is remembered beside the model lists (Options.Models.CacheDir);
// without that directory, only for this run.
func (ts *turns) engine() *session.Engine {
	base := ""
	if ts.opts.Client != nil {
		base = ts.opts.Client.BaseURL
	}
	if ts.eng == nil || ts.eng.Key() != session.ProviderKey(base) {
		ts.eng = session.NewEngine(base, session.ProviderMemory{Dir: ts.opts.Models.CacheDir})
	}
	return ts.eng
}

// doing is what the turns child is doing: the turn engine's phase (the
// one state the notifier and the approval timer follow) and the facts of
// its own that refine it for the keys and the line (activityOf).
func (ts *turns) doing() (session.Phase, chatFacts) {
	return ts.engine().Phase(), chatFacts{
		Replying:   ts.cur != nil && !ts.cur.ended,
		Compacting: ts.compacting != nil,
		Reading:    ts.attaching != nil,
	}
}

// observe tells the engine what a child reported happened of the tools,
// the approvals, /compact or a reattached response (didMsg); a fact the
// engine has no event for tells it nothing.
func (ts *turns) observe(msg didMsg) {
	if k, ok := events[msg.what]; ok {
		ts.next(session.Event{Kind: k})
	}
}

// conversation is the conversation, for the root to read (what it shows,
// /status, a branch's count): the root never changes it through this;
// the turns child's own methods and messages do (begin, retry, Update).
func (ts *turns) conversation() *session.Conversation { return ts.conv }

// begin starts the conversation's next turn: text typed (or ""), and
// input (the message, or a round's outputs).
func (ts *turns) begin(text string, input ...json.RawMessage) *session.Turn {
	return ts.conv.Begin(text, input...)
}

// retry starts the last answer's turn again, from the same previous
// response (session.Conversation.Retry).
func (ts *turns) retry() (*session.Turn, error) { return ts.conv.Retry() }

// learned is what is remembered of the provider in use, one line ("" for
// nothing, and for the demo and a replay).
func (ts *turns) learned() string {
	if ts.opts.Client == nil {
		return ""
	}
	return ts.engine().Record(ts.fs.clock()).Summary()
}

// next tells the engine what happened, says its lines, and returns what
// it answers.
func (ts *turns) next(ev session.Event) session.Action {
	ev.Now = ts.fs.clock()
	a := ts.engine().Next(ev)
	for _, n := range a.Notices {
		kind := block.Info
		if n.Warning {
			kind = block.Warning
		}
		ts.say(kind, n.Text)
	}
	return a
}

// created tells the engine of t's first response object, when the batch
// just folded in brought it (echoedBefore and itemsBefore are echoState
// before the batch): a server that ignored the chain gets the turn again
// with the history, and the stream stops. Nothing of the first attempt
// was shown or journaled (both happen after the batch); when items came
// before the response object they are on screen already and the turn
// stands. It returns nil when the turn goes on.
func (ts *turns) created(t *turn, echoedBefore, itemsBefore bool) tea.Cmd {
	if echoedBefore || t.stopped {
		return nil
	}
	for _, s := range t.snapshots() {
		if !s.Echoed {
			continue
		}
		if a := ts.next(session.Event{Kind: session.Created, Snapshot: s, Shown: itemsBefore}); a.Kind == session.Resend {
			t.handle.Cancel(errChainIgnored)
			return ts.resend(t, a.Request)
		}
		return nil
	}
	return nil
}

// foreground records that the server refused background mode: one line,
// and the rest of the session runs in foreground mode.
func (ts *turns) foreground(t *turn, r *stream.RetryInfo) {
	t.req.Background = false
	ts.conv.Settings.Background = false
	ts.drop.hinted = ts.conv // background mode is no remedy here
	ts.say(block.Warning, "the server refused background mode ("+retryReason(r.Err)+") — this session goes on in foreground mode")
}

// cancelOnServer asks the server (through c) to stop t's response when it
// runs in background mode (it would go on running otherwise); nil when it
// does not or its id is not known yet. A failure is not shown: the turn
// already stopped here.
func (t *turn) cancelOnServer(c *stream.Client) tea.Cmd {
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
	t := &turn{gen: ts.gen, sess: st, handle: h, started: ts.fs.clock(), changed: map[*stream.Item]bool{}, req: req}
	t.acc.Limit = ts.opts.responseLimit()
	t.acc.Continue(st.Responses)
	t.bg.id, t.bg.seq, t.bg.attach = st.Background.ID, st.Background.After, true
	if j != nil {
		t.log = j.Reattach(st)
	}
	ts.cur = t
	ts.fs.post(didMsg{what: hapBegan, since: t.started})
	return ts.pace(pace.Facts{Cause: pace.Begin}, ts.fs.clock())
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
	ts.fs.post(didMsg{what: hapBegan, since: ts.fs.clock()}) // the line says "compacting" (activityOf)
	client := ts.opts.Client
	return func() tea.Msg {
		res, err := client.Compact(ctx, req)
		stop(nil)
		return compactMsg{res: res, err: err}
	}
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

// stopWork stops what the turns child does besides a reply (esc): a
// /compact under way (phCompacting), or the reading of a message's files
// (phReading: the message goes back to the composer). It reports whether
// it was doing it.
func (ts *turns) stopWork(p phase) bool {
	if p == phCompacting && ts.compacting != nil {
		ts.compacting()
		return true
	}
	w := ts.attaching
	if p != phReading || w == nil {
		return false
	}
	ts.attaching = nil
	ts.fs.post(putBackMsg{w.text, w.files})
	ts.say(block.Info, "stopped reading the attachments — the message is back in the composer")
	return true
}

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
