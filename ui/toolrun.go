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
// as the next request, until the model answers without calls. The toolKit
// drives its parts, each owning its state: the round running
// (toolround.go), its local approvals (toolasks.go), its record in the
// history (roundrecord.go), the tool set (toolset.go) and the MCP servers'
// start (mcpstart.go). It reaches the rest of the chat only through the
// messages in toolreports.go.

// toolKit is the chat's tools.
//
// Invariants: each part keeps its own (see their docs); the toolKit keeps
// them in step: a round's calls, questions and record start together
// (runRound) and end together (done, abandon), so between rounds round,
// asks and record hold nothing of the last one.
type toolKit struct {
	ctx    context.Context // the chat's: a round runs under it
	cfg    tools.Config
	mcp    mcpStart    // the local MCP servers' start (mcpstart.go)
	set    toolSet     // the tools switched on, resolved for the request (toolset.go)
	round  toolRound   // the round running and its runner (toolround.go)
	asks   localAsks   // the local approval questions (toolasks.go)
	record roundRecord // the running round's record in the history (roundrecord.go)
}

func newToolKit(ctx context.Context, o *Tools) *toolKit {
	k := &toolKit{ctx: ctx, set: newToolSet(nil, nil), record: newRoundRecord()}
	var secrets *stream.Redactor
	if o != nil {
		secrets = o.Secrets
		k.cfg, k.mcp = o.Config, mcpStart{mgr: o.MCP, reports: o.Reports}
		k.set = newToolSet(o.Enabled, o.Env)
	}
	k.round = newToolRound(k.cfg, k.mcp.mgr, secrets)
	return k
}

// on lists the tools switched on, sorted.
func (k *toolKit) on() []string { return k.set.on() }

// requestTools resolves the request's tools (secrets included) for the
// enabled set, and returns the redacted copy to store.
func (k *toolKit) requestTools() (resolved, redacted []json.RawMessage, err error) {
	return k.set.resolve(k.round.runner)
}

// remember switches on exactly the known tools of on (a resumed session's
// set); requestTools resolves them.
func (k *toolKit) remember(on []string) { k.set.remember(on) }

// list is every tool the config offers, for /tools and /status.
func (k *toolKit) list() []tools.Info { return k.cfg.List() }

// enabled is the tools' switches, for the /tools menu to show (read only).
func (k *toolKit) enabled() map[string]bool { return k.set.enabled }

// request is the next request's tools, secrets resolved, and why resolving
// them failed (nil: it did not).
func (k *toolKit) request() ([]json.RawMessage, error) { return k.set.request() }

// busy reports whether a round runs (stopped or not).
func (k *toolKit) busy() bool { return k.round.busy() }

// owed starts a user turn on the loop: the outputs a stopped round owes the
// chain go with it (tools.Loop.Begin).
func (k *toolKit) owed(now time.Time) []json.RawMessage { return k.round.loop.Begin(now) }

// resetLoop forgets the loop's rounds and what a stopped one owes: the
// conversation starts over.
func (k *toolKit) resetLoop() { k.round.loop.Reset() }

// shutdown cancels the running round, if any: the chat ends.
func (k *toolKit) shutdown() { k.round.shutdown() }

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
	case resetMsg:
		if msg.why == resetNew { // the round of the conversation left ends
			k.abandon(f)
			k.resetLoop()
		}
		return nil
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
	calls, stop := k.round.loop.Next(last, f.clock())
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
	k.round.adopt(snaps)
	for _, c := range calls {
		if it := k.round.item(c.CallID); it != nil {
			k.round.setRun(it, tools.Run{Phase: tools.RunWaiting}, f)
			f.post(panelChangedMsg{it})
		}
	}
	var log *session.TurnLog
	if j != nil {
		log = j.BeginRound(respID)
	}
	k.record.begin(log, snaps, respID, seed, f.clock())
	f.post(didMsg{what: hapCallOnWay, detail: callNames(calls)}) // hapToolRuns once one starts (status)
	f.post(toolFramesMsg{})
	return k.round.start(k.ctx, calls)
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
	if !k.round.live() { // a stopped round says "stopping" until it ends
		return
	}
	if c, ok := k.asks.asked(); ok {
		f.post(didMsg{what: hapAsked, detail: c.Name})
		return
	}
	var running []tools.Call
	for _, id := range k.record.runningIDs() {
		if it := k.round.item(id); it != nil {
			running = append(running, tools.Call{CallID: id, Name: it.Name})
		}
	}
	if len(running) == 0 { // approved, not started yet
		f.post(didMsg{what: hapCallOnWay, keepDetail: true})
		return
	}
	f.post(didMsg{what: hapToolRuns, detail: callNames(running)})
}

// decided passes the user's answer to the call asked about, and asks the
// next question, if any.
func (k *toolKit) decided(msg ApprovalDecisionMsg, f *frameState) {
	k.asks.decide(msg.Decision, msg.Reason, f)
	k.status(f)
	f.post(toolFramesMsg{}) // frames again: the calls run
}

// runnerMsg handles what the runner's goroutines report while a round
// runs; the waiter is armed again after each.
func (k *toolKit) runnerMsg(msg tea.Msg, f *frameState) tea.Cmd {
	switch msg := msg.(type) {
	case toolAskMsg:
		k.asked(approvalAsk(msg), f)
	case toolStartMsg:
		k.started(msg.call, f)
	case toolResultMsg:
		if k.round.item(msg.res.Call.CallID) != nil {
			k.record.ended(msg.res, f.clock()) // its output, and how it ended beside it
			k.status(f)
		}
	case toolOutputMsg:
		k.printed(msg, f)
	case toolProgressMsg:
		k.progressed(msg, f)
	default:
		return nil
	}
	k.round.took()
	return k.round.wait()
}

// asked queues the runner's question, or denies it when the round was
// stopped as it asked.
func (k *toolKit) asked(ask approvalAsk, f *frameState) {
	if !k.round.live() {
		ask.reply <- answer{d: tools.Deny}
		return
	}
	k.asks.add(ask, f)
}

// started shows a call that starts running, and records it.
func (k *toolKit) started(c tools.Call, f *frameState) {
	it := k.round.item(c.CallID)
	if it == nil {
		return
	}
	k.round.setRun(it, tools.Run{Phase: tools.RunRunning, Started: f.clock()}, f)
	f.post(panelChangedMsg{it})
	k.record.started(c.CallID, f.clock())
	k.status(f)
}

// printed shows a chunk a call printed on its panel, and records it.
func (k *toolKit) printed(msg toolOutputMsg, f *frameState) {
	if it := k.round.item(msg.callID); it != nil {
		text := k.round.print(it, msg.chunk)
		k.round.markRunning(it, f.clock(), f) // its start report may be late
		f.post(panelChangedMsg{it})
		k.record.printed(msg.callID, text, f.clock())
	}
	f.post(toolFramesMsg{})
}

// progressed shows a call's progress report on its panel.
func (k *toolKit) progressed(msg toolProgressMsg, f *frameState) {
	if it := k.round.item(msg.callID); it != nil {
		p := msg.p.Message
		if msg.p.Total > 0 {
			p = fmt.Sprintf("%.0f%% %s", 100*msg.p.Progress/msg.p.Total, p)
		}
		r := k.round.running(it, f.clock())
		r.Detail = p
		k.round.setRun(it, r, f)
		f.post(panelChangedMsg{it})
	}
	f.post(toolFramesMsg{})
}

// done ends the round: its outputs go back (ToolsSettledMsg), or are kept
// for the next message when the user stopped the round.
func (k *toolKit) done(msg toolDoneMsg, f *frameState) {
	cancelled, ok := k.round.finish(msg.gen)
	if !ok {
		return
	}
	now := f.clock()
	for _, r := range msg.results {
		if it := k.round.item(r.Call.CallID); it != nil {
			it.Output, _ = json.Marshal(r.Output)
			run := tools.Ended(r)
			run.Started = k.round.runs[r.Call.CallID].Started
			if r.Status == tools.StatusDenied {
				run.Detail = k.asks.reason(r.Call.CallID)
			}
			k.round.setRun(it, run, f)
			k.record.ran(r.Call.CallID, run)
			// redrawn now, not on the next frame: the panels end in the
			// same view as the notice and the status line that say so
			f.post(panelEndedMsg{it, now})
		}
	}
	k.round.forget()
	k.asks.forget()
	loop := k.round.loop
	if cancelled {
		outs := map[string]json.RawMessage{}
		for i, o := range loop.Outputs(msg.results) {
			outs[loop.Calls()[i].CallID] = o
		}
		k.record.close(outs)
		loop.Cancel(msg.results, now)
		f.post(didMsg{what: hapSettled})
		f.post(noticeMsg{block.Info, "tools stopped — their outputs (\"cancelled by user\") go with your next message"})
		return
	}
	in, _ := loop.Finish(msg.results, now)
	round := k.record.handOff(len(in) > 0)
	if len(in) == 0 {
		f.post(didMsg{what: hapSettled})
		return
	}
	f.post(didMsg{what: hapHandedOff})
	f.post(ToolsSettledMsg{input: in, round: round})
}

// stop cancels a running round, and reports whether one ran.
func (k *toolKit) stop(f *frameState) bool {
	if !k.round.stop() {
		return false
	}
	k.asks.denyAll(f)
	// until the runner reports the calls ended (done), the status line
	// says so rather than naming calls that no longer run
	f.post(didMsg{what: hapToolRuns, detail: "stopping"})
	return true
}

// abandon ends a running round for good when the chat leaves its
// conversation (/new, another session): the calls are cancelled, the round's
// record ends with what it has, and its late result (an older gen) is
// ignored, so nothing of it reaches the next conversation.
func (k *toolKit) abandon(f *frameState) {
	if !k.round.abandon() {
		return
	}
	k.asks.denyAll(f)
	k.asks.forget()
	k.record.close(nil)
	f.post(didMsg{what: hapSettled})
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
		return k.round.item(c.CallID)
	}
	return nil
}

// setRun records where runnel's run of the call it stands, and reports it
// for the call's panel (runMsg).
func (k *toolKit) setRun(it *stream.Item, r tools.Run, f *frameState) { k.round.setRun(it, r, f) }
