package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

// This file is the tools child: it runs the agentic loop in the chat. After
// a response whose output holds function calls, the calls run (through
// approvals) on a goroutine, their panels show the output live, and once the
// round is over the child posts ToolsSettledMsg: the root sends the outputs
// as the next request, until the model answers without calls. It owns the
// toolKit, the runner's messages and the local approval questions; it
// reaches the rest of the chat only through the messages in toolreports.go.
// The frame pacing at the end of the file (ensureTick, scheduleFrame,
// frameIn) is the turns child's: it only lives here until that child takes it.

// toolKit is the chat's tools.
//
// Invariants: events carries everything the runner's goroutines report;
// one waiter is armed on it at a time (waiting). cancel is set while a round
// runs. gen names the round running (or the last): a toolDoneMsg of another
// is a round abandoned, and ignored.
type toolKit struct {
	ctx     context.Context // the chat's: a round runs under it
	gen     int
	cfg     tools.Config
	mcp     mcpStart // the local MCP servers' start (mcpstart.go)
	runner  *tools.Runner
	loop    *tools.Loop
	set     toolSet // the tools switched on, resolved for the request (toolset.go)
	events  chan tea.Msg
	cancel  context.CancelFunc
	calls   map[string]*stream.Item // call id → its function_call item while its round runs; empty between rounds
	runs    map[string]tools.Run    // call id → runnel's run of it, as its panel shows it (setRun)
	output  map[string]*strings.Builder
	asks    localAsks // the local approval questions (toolasks.go)
	waiting bool
	stopped bool // the user stopped the running round

	record roundRecord // the running round's record in the history (roundrecord.go)
}

// Messages from the runner's goroutines.
type (
	toolAskMsg    approvalAsk
	toolOutputMsg struct {
		callID, chunk string
	}
	toolProgressMsg struct {
		callID string
		p      tools.Progress
	}
	toolDoneMsg struct {
		results []tools.Result
		gen     int
	}
	toolStartMsg  struct{ call tools.Call }
	toolResultMsg struct{ res tools.Result }
)

func newToolKit(ctx context.Context, o *Tools) *toolKit {
	k := &toolKit{ctx: ctx, events: make(chan tea.Msg, 256), calls: map[string]*stream.Item{}, runs: map[string]tools.Run{}, output: map[string]*strings.Builder{}, record: newRoundRecord()}
	var secrets *stream.Redactor
	k.set = newToolSet(nil, nil)
	if o != nil {
		secrets = o.Secrets
		k.cfg, k.mcp = o.Config, mcpStart{mgr: o.MCP, reports: o.Reports}
		k.set = newToolSet(o.Enabled, o.Env)
	}
	k.runner = tools.NewRunner(k.cfg, k.mcp.mgr, tools.Hooks{
		Secrets: secrets,
		AskReason: func(ctx context.Context, req tools.ApprovalRequest) (tools.Decision, string) {
			ask := approvalAsk{req: req, reply: make(chan answer, 1)}
			select {
			case k.events <- toolAskMsg(ask):
			case <-ctx.Done():
				return tools.Deny, ""
			}
			select {
			case a := <-ask.reply:
				return a.d, a.reason
			case <-ctx.Done():
				return tools.Deny, ""
			}
		},
		Output: func(c tools.Call, chunk string, _ bool) {
			select {
			case k.events <- toolOutputMsg{callID: c.CallID, chunk: chunk}:
			default: // the panel misses a chunk; the final output has it
			}
		},
		Progress: func(c tools.Call, p tools.Progress) {
			select {
			case k.events <- toolProgressMsg{callID: c.CallID, p: p}:
			default:
			}
		},
		// Start and Done are never dropped, unlike chunks: the round's
		// record depends on them. A waiter always drains events.
		Start: func(c tools.Call) { k.events <- toolStartMsg{call: c} },
		Done:  func(r tools.Result) { k.events <- toolResultMsg{res: r} },
	})
	k.loop = tools.NewLoop(k.cfg.Rounds())
	return k
}

// on lists the tools switched on, sorted.
func (k *toolKit) on() []string { return k.set.on() }

// requestTools resolves the request's tools (secrets included) for the
// enabled set, and returns the redacted copy to store.
func (k *toolKit) requestTools() (resolved, redacted []json.RawMessage, err error) {
	return k.set.resolve(k.runner)
}

// remember switches on exactly the known tools of on (a resumed session's
// set); requestTools resolves them.
func (k *toolKit) remember(on []string) { k.set.remember(on) }

// enabled is the tools' switches, for the /tools menu to show (read only).
func (k *toolKit) enabled() map[string]bool { return k.set.enabled }

// request is the next request's tools, secrets resolved, and why resolving
// them failed (nil: it did not).
func (k *toolKit) request() ([]json.RawMessage, error) { return k.set.request() }

// wait arms the waiter on the runner's events.
func (k *toolKit) wait() tea.Cmd {
	if k.waiting {
		return nil
	}
	k.waiting = true
	return func() tea.Msg { return <-k.events }
}

// choose switches tools on or off for the session (the /tools menu's choice).
func (k *toolKit) choose(enabled map[string]bool, f *frameState) {
	k.set.choose(enabled)
	_, redacted, err := k.requestTools()
	if err != nil {
		f.post(noticeMsg{block.Error, stream.SanitizeLine(err.Error())})
		return
	}
	f.post(toolSetMsg{tools: redacted, enabled: k.on(), setEnabled: true})
	f.post(noticeMsg{block.Info, "tools on: " + strings.Join(append([]string{}, k.on()...), ", ")})
}

// Update handles the tools' messages: the runner's reports, the answer to
// a local approval, the MCP servers' start and reports, the /tools choice.
func (k *toolKit) Update(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case mcpReadyMsg, mcpReportMsg:
		return k.mcpMsg(msg, f)
	case ToolsChangedMsg:
		k.choose(msg.Enabled, f)
		return nil
	case toolDoneMsg:
		k.done(msg, f)
		return nil
	case ApprovalDecisionMsg:
		k.decided(msg, f)
		return nil
	}
	return k.runnerMsg(msg, f)
}

// startCalls runs the client-side calls of the last of snaps.
func (k *toolKit) startCalls(snaps []*stream.Snapshot, j *session.Journal, f *frameState) tea.Cmd {
	last := snaps[len(snaps)-1]
	calls, stop := k.loop.Next(last, f.clock())
	if stop != "" {
		f.post(noticeMsg{block.Warning, stream.SanitizeLine(stop)})
	}
	if len(calls) == 0 {
		return nil
	}
	return k.runRound(snaps, last.ID, calls, nil, j, f)
}

// runRound runs calls of response respID (one of snaps) on the runner, and
// starts the round's record in j (nil: none), holding seed's outputs first.
func (k *toolKit) runRound(snaps []*stream.Snapshot, respID string, calls []tools.Call, seed map[string]json.RawMessage, j *session.Journal, f *frameState) tea.Cmd {
	for _, s := range snaps {
		for _, it := range s.Items {
			if it.Type == "function_call" && k.calls[it.CallID] == nil {
				k.calls[it.CallID] = it // a call the stream repeated has its panel on the first copy
			}
		}
	}
	for _, c := range calls {
		if it := k.calls[c.CallID]; it != nil {
			k.setRun(it, tools.Run{Phase: tools.RunWaiting}, f)
			f.post(panelChangedMsg{it})
		}
	}
	var log *session.TurnLog
	if j != nil {
		log = j.BeginRound(respID)
	}
	k.record.begin(log, snaps, respID, seed, f.clock())
	ctx, cancel := context.WithCancel(k.ctx)
	k.cancel = cancel
	f.post(toolStatusMsg{state: CallingTool, detail: callNames(calls)}) // RunningTool once one starts (status)
	f.post(toolFramesMsg{})
	gen := k.gen
	run := func() tea.Msg { return toolDoneMsg{results: k.runner.Run(ctx, calls), gen: gen} }
	return tea.Batch(run, k.wait())
}

// flushRound saves the round's record when it changed and a second has
// passed since the last save (a kill loses at most that much output).
func (k *toolKit) flushRound(now time.Time) { k.record.flush(now) }

// callNames is "NAME" or "NAME, NAME2" for the status line.
func callNames(calls []tools.Call) string {
	seen := map[string]bool{}
	var names []string
	for _, c := range calls {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// status sets the status line from the round: a question shown waits for
// approval; otherwise the calls running now are named.
func (k *toolKit) status(f *frameState) {
	if k.cancel == nil || k.stopped { // a stopped round says "stopping" until it ends
		return
	}
	if c, ok := k.asks.asked(); ok {
		f.post(toolStatusMsg{state: AwaitingApproval, detail: c.Name})
		return
	}
	var running []tools.Call
	for _, id := range k.record.runningIDs() {
		if it := k.calls[id]; it != nil {
			running = append(running, tools.Call{CallID: id, Name: it.Name})
		}
	}
	if len(running) == 0 { // approved, not started yet
		f.post(toolStatusMsg{state: CallingTool, keepDetail: true})
		return
	}
	f.post(toolStatusMsg{state: RunningTool, detail: callNames(running)})
}

// decided passes the user's answer to the call asked about, and asks the
// next question, if any.
func (k *toolKit) decided(msg ApprovalDecisionMsg, f *frameState) {
	k.asks.decide(msg.Decision, msg.Reason, f)
	k.status(f)
	f.post(toolFramesMsg{}) // frames again: the calls run
}

// runnerMsg handles what the runner's goroutines report while a round runs.
func (k *toolKit) runnerMsg(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case toolAskMsg:
		k.waiting = false
		if k.cancel == nil || k.stopped { // asked as the round was stopped
			msg.reply <- answer{d: tools.Deny}
			return k.wait()
		}
		k.asks.add(approvalAsk(msg), f)
		return k.wait()
	case toolStartMsg:
		k.waiting = false
		if it := k.calls[msg.call.CallID]; it != nil {
			k.setRun(it, tools.Run{Phase: tools.RunRunning, Started: f.clock()}, f)
			f.post(panelChangedMsg{it})
			k.record.started(msg.call.CallID, f.clock())
			k.status(f)
		}
		return k.wait()
	case toolResultMsg:
		k.waiting = false
		if k.calls[msg.res.Call.CallID] != nil {
			k.record.ended(msg.res, f.clock()) // its output, and how it ended beside it
			k.status(f)
		}
		return k.wait()
	case toolOutputMsg:
		k.waiting = false
		if it := k.calls[msg.callID]; it != nil {
			b := k.output[msg.callID]
			if b == nil {
				b = &strings.Builder{}
				k.output[msg.callID] = b
			}
			if b.Len() < 64<<10 {
				b.WriteString(msg.chunk)
			}
			it.Output, _ = json.Marshal(b.String())
			if r, ok := k.runs[msg.callID]; !ok || r.Phase != tools.RunRunning { // its start report was late
				k.setRun(it, tools.Run{Phase: tools.RunRunning, Started: f.clock()}, f)
			}
			f.post(panelChangedMsg{it})
			k.record.printed(msg.callID, b.String(), f.clock())
		}
		f.post(toolFramesMsg{})
		return k.wait()
	case toolProgressMsg:
		k.waiting = false
		if it := k.calls[msg.callID]; it != nil {
			p := msg.p.Message
			if msg.p.Total > 0 {
				p = fmt.Sprintf("%.0f%% %s", 100*msg.p.Progress/msg.p.Total, p)
			}
			r, ok := k.runs[msg.callID]
			if !ok || r.Phase != tools.RunRunning {
				r = tools.Run{Phase: tools.RunRunning, Started: f.clock()}
			}
			r.Detail = p
			k.setRun(it, r, f)
			f.post(panelChangedMsg{it})
		}
		f.post(toolFramesMsg{})
		return k.wait()
	}
	return nil
}

// done ends the round: its outputs go back (ToolsSettledMsg), or are kept
// for the next message when the user stopped the round.
func (k *toolKit) done(msg toolDoneMsg, f *frameState) {
	if msg.gen != k.gen {
		return
	}
	cancelled := k.stopped
	k.cancel, k.stopped = nil, false
	now := f.clock()
	for _, r := range msg.results {
		if it := k.calls[r.Call.CallID]; it != nil {
			it.Output, _ = json.Marshal(r.Output)
			run := tools.Ended(r)
			run.Started = k.runs[r.Call.CallID].Started
			if r.Status == tools.StatusDenied {
				run.Detail = k.asks.reason(r.Call.CallID)
			}
			k.setRun(it, run, f)
			k.record.ran(r.Call.CallID, run)
			// redrawn now, not on the next frame: the panels end in the
			// same view as the notice and the status line that say so
			f.post(panelEndedMsg{it, now})
		}
	}
	// The round is over: a chunk or progress report still queued on
	// k.events arrives after this and must not mark a panel "running" again.
	clear(k.calls)
	clear(k.output)
	k.asks.forget()
	if cancelled {
		outs := map[string]json.RawMessage{}
		for i, o := range k.loop.Outputs(msg.results) {
			outs[k.loop.Calls()[i].CallID] = o
		}
		k.record.close(outs)
		k.loop.Cancel(msg.results, now)
		f.post(toolStatusMsg{state: Idle})
		f.post(noticeMsg{block.Info, "tools stopped — their outputs (\"cancelled by user\") go with your next message"})
		return
	}
	in, _ := k.loop.Finish(msg.results, now)
	round := k.record.handOff(len(in) > 0)
	if len(in) == 0 {
		f.post(toolStatusMsg{state: Idle})
		return
	}
	f.post(toolStatusMsg{keepState: true})
	f.post(ToolsSettledMsg{input: in, round: round})
}

// stop cancels a running round, and reports whether one ran.
func (k *toolKit) stop(f *frameState) bool {
	if k.cancel == nil {
		return false
	}
	k.stopped = true
	k.cancel()
	k.asks.denyAll(f)
	// until the runner reports the calls ended (done), the status line
	// says so rather than naming calls that no longer run
	f.post(toolStatusMsg{state: RunningTool, detail: "stopping"})
	return true
}

// abandon ends a running round for good when the chat leaves its
// conversation (/new, another session): the calls are cancelled, the round's
// record ends with what it has, and its late result (an older gen) is
// ignored, so nothing of it reaches the next conversation.
func (k *toolKit) abandon(f *frameState) {
	if k.cancel == nil {
		return
	}
	k.cancel()
	k.asks.denyAll(f)
	k.record.close(nil)
	k.cancel, k.stopped = nil, false
	clear(k.calls)
	clear(k.output)
	k.asks.forget()
	k.loop.Reset()
	k.gen++ // the round's toolDoneMsg carries the old gen
	f.post(toolStatusMsg{state: Idle})
}

// asking reports whether a local call waits for the user's answer.
func (k *toolKit) asking() bool {
	_, ok := k.asks.asked()
	return ok
}

// askedItem is the function_call item of the local call the approval
// dialog asks about; nil when none is asked.
func (k *toolKit) askedItem() *stream.Item {
	if c, ok := k.asks.asked(); ok {
		return k.calls[c.CallID]
	}
	return nil
}

// setRun records where runnel's run of the call it stands, and reports it
// for the call's panel (runMsg).
func (k *toolKit) setRun(it *stream.Item, r tools.Run, f *frameState) {
	k.runs[it.CallID] = r
	f.post(runMsg{it, r})
}
