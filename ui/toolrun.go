package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
)

// This file runs the agentic loop in the chat: after a response whose output
// holds function calls, the calls run (through approvals) on a goroutine,
// their panels show the output live, and the outputs go back as the next
// request, until the model answers without calls.

// toolKit is the chat's tools.
//
// Invariants: events carries everything the runner's goroutines report;
// one waiter is armed on it at a time (waiting). cancel is set while a round
// runs.
type toolKit struct {
	cfg     tools.Config
	runner  *tools.Runner
	loop    *tools.Loop
	enabled map[string]bool
	env     func(string) string
	events  chan tea.Msg
	cancel  context.CancelFunc
	calls   map[string]*stream.Item // call id → its function_call item while its round runs; empty between rounds
	runs    map[string]tools.Run    // call id → runnel's run of it, as its panel shows it (setRun)
	output  map[string]*strings.Builder
	asking  *approvalAsk // the approval request shown now
	queue   []approvalAsk
	waiting bool
	stopped bool // the user stopped the running round

	// The running round's record in the history: its calls in order, the
	// output each has so far (running, final, or none while it waits for
	// approval), the calls running now, and when the record was last saved.
	round    *session.TurnLog
	roundIDs []string
	roundOut map[string]json.RawMessage
	running  map[string]bool
	saved    time.Time
	unsaved  bool // roundOut changed since the record was last saved

	resolved   []json.RawMessage // the request's tools, secrets resolved (for the enabled set)
	resolveErr error             // why resolving them failed, shown on each turn
}

// approvalAsk is a local tool waiting for the user's answer.
type approvalAsk struct {
	req   tools.ApprovalRequest
	reply chan answer
}

// answer is the user's decision on a local call, with the reason given for a
// denial.
type answer struct {
	d      tools.Decision
	reason string
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

func newToolKit(o *Tools) *toolKit {
	k := &toolKit{events: make(chan tea.Msg, 256), calls: map[string]*stream.Item{}, runs: map[string]tools.Run{}, output: map[string]*strings.Builder{}, enabled: map[string]bool{},
		roundOut: map[string]json.RawMessage{}, running: map[string]bool{}}
	var mcp *tools.Manager
	var secrets *stream.Redactor
	if o != nil {
		secrets = o.Secrets
		k.cfg, mcp, k.env = o.Config, o.MCP, o.Env
		for n, on := range o.Enabled {
			k.enabled[n] = on
		}
	}
	if k.env == nil {
		k.env = os.Getenv
	}
	k.runner = tools.NewRunner(k.cfg, mcp, tools.Hooks{
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
func (k *toolKit) on() []string {
	var out []string
	for n, on := range k.enabled {
		if on {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// requestTools resolves the request's tools (secrets included) for the
// enabled set, and returns the redacted copy to store.
func (k *toolKit) requestTools() (resolved, redacted []json.RawMessage, err error) {
	resolved, err = k.runner.RequestTools(func(n string) bool { return k.enabled[n] }, k.env)
	k.resolved, k.resolveErr = resolved, err
	if err != nil {
		return nil, nil, err
	}
	return resolved, tools.Redact(resolved), nil
}

// wait arms the waiter on the runner's events.
func (k *toolKit) wait() tea.Cmd {
	if k.waiting {
		return nil
	}
	k.waiting = true
	return func() tea.Msg { return <-k.events }
}

// afterResponse starts the calls of a turn that just ended, if any.
func (m *Model) afterResponse(t *turn) tea.Cmd {
	snaps := t.snapshots()
	if t.stopped || t.err != nil || len(snaps) == 0 {
		return nil
	}
	return m.startCalls(snaps)
}

// startCalls runs the client-side calls of the last of snaps.
func (m *Model) startCalls(snaps []*stream.Snapshot) tea.Cmd {
	last := snaps[len(snaps)-1]
	calls, stop := m.tools.loop.Next(last, m.now())
	if stop != "" {
		m.notice(block.Warning, stream.SanitizeLine(stop))
	}
	if len(calls) == 0 {
		return nil
	}
	return m.runRound(snaps, last.ID, calls, nil)
}

// runRound runs calls of response respID (one of snaps) on the runner, and
// starts the round's record in the history, holding seed's outputs first.
func (m *Model) runRound(snaps []*stream.Snapshot, respID string, calls []tools.Call, seed map[string]json.RawMessage) tea.Cmd {
	k := m.tools
	for _, s := range snaps {
		for _, it := range s.Items {
			if it.Type == "function_call" && k.calls[it.CallID] == nil {
				k.calls[it.CallID] = it // a call the stream repeated has its panel on the first copy
			}
		}
	}
	for _, c := range calls {
		if it := k.calls[c.CallID]; it != nil {
			m.setRun(it, tools.Run{Phase: tools.RunWaiting})
			m.itemChanged(it)
		}
	}
	k.roundIDs = k.roundIDs[:0]
	clear(k.roundOut)
	clear(k.running)
	for _, s := range snaps {
		for _, it := range s.Items {
			if it.Type == "function_call" && it.CallID != "" && s.ID == respID && !slices.Contains(k.roundIDs, it.CallID) {
				k.roundIDs = append(k.roundIDs, it.CallID) // one record per call, however often the stream listed it
				if o := seed[it.CallID]; o != nil {
					k.roundOut[it.CallID] = o
				}
			}
		}
	}
	k.round = nil
	if m.journal != nil {
		k.round = m.journal.BeginRound(respID)
		if len(seed) > 0 {
			k.saveRound(m.now())
		}
	}
	ctx, cancel := context.WithCancel(m.ctx)
	k.cancel = cancel
	m.status.State, m.status.Detail = CallingTool, callNames(calls) // RunningTool once one starts (toolStatus)
	gen := m.gen
	run := func() tea.Msg { return toolDoneMsg{results: k.runner.Run(ctx, calls), gen: gen} }
	return tea.Batch(run, k.wait(), m.ensureTick())
}

// saveRound writes the round's outputs as they stand to its record.
func (k *toolKit) saveRound(now time.Time) {
	if k.round == nil {
		return
	}
	k.saved, k.unsaved = now, false
	k.round.SetInput(session.RoundInput(k.roundIDs, k.roundOut))
}

// flushRound saves the round's record when it changed and a second has
// passed since the last save (a kill loses at most that much output).
func (k *toolKit) flushRound(now time.Time) {
	if k.unsaved && now.Sub(k.saved) >= session.SaveEvery {
		k.saveRound(now)
	}
}

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

// toolStatus sets the status line from the round: a question shown waits
// for approval; otherwise the calls running now are named.
func (m *Model) toolStatus() {
	k := m.tools
	if k.cancel == nil || k.stopped { // a stopped round says "stopping" until it ends
		return
	}
	if k.asking != nil {
		m.status.State, m.status.Detail = AwaitingApproval, k.asking.req.Call.Name
		return
	}
	var running []tools.Call
	for _, id := range k.roundIDs {
		if k.running[id] {
			if it := k.calls[id]; it != nil {
				running = append(running, tools.Call{CallID: id, Name: it.Name})
			}
		}
	}
	if len(running) == 0 { // approved, not started yet
		m.status.State = CallingTool
		return
	}
	m.status.State, m.status.Detail = RunningTool, callNames(running)
}

// toolMsg handles the runner's messages; ok is false for others.
func (m *Model) toolMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	k := m.tools
	switch msg := msg.(type) {
	case toolAskMsg:
		k.waiting = false
		if k.cancel == nil || k.stopped { // asked as the round was stopped
			msg.reply <- answer{d: tools.Deny}
			return k.wait(), true
		}
		k.queue = append(k.queue, approvalAsk(msg))
		m.nextApproval()
		return k.wait(), true
	case ApprovalDecisionMsg:
		if k.asking != nil {
			k.asking.reply <- answer{msg.Decision, stream.SanitizeLine(msg.Reason)}
			if msg.Decision == tools.Deny && msg.Reason != "" {
				m.notice(block.Info, "denied: "+stream.SanitizeLine(msg.Reason))
			}
			k.asking = nil
		}
		m.dialog = nil
		m.nextApproval()
		m.toolStatus()
		return m.ensureTick(), true // frames again: the calls run
	case toolStartMsg:
		k.waiting = false
		if it := k.calls[msg.call.CallID]; it != nil {
			m.setRun(it, tools.Run{Phase: tools.RunRunning, Started: time.Now()})
			m.itemChanged(it)
			k.running[msg.call.CallID] = true
			k.roundOut[msg.call.CallID] = session.RunningOutput(msg.call.CallID, "")
			k.saveRound(m.now())
			m.toolStatus()
		}
		return k.wait(), true
	case toolResultMsg:
		k.waiting = false
		if k.calls[msg.res.Call.CallID] != nil {
			delete(k.running, msg.res.Call.CallID)
			k.roundOut[msg.res.Call.CallID] = stream.OutputItem(msg.res.Call.CallID, msg.res.Output)
			k.saveRound(m.now())
			if k.round != nil {
				k.round.Ran(msg.res.Call.CallID, tools.Ended(msg.res)) // how it ended, beside its output
			}
			m.toolStatus()
		}
		return k.wait(), true
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
				m.setRun(it, tools.Run{Phase: tools.RunRunning, Started: time.Now()})
			}
			m.itemChanged(it)
			if k.running[msg.callID] {
				k.roundOut[msg.callID] = session.RunningOutput(msg.callID, b.String())
				k.unsaved = true
				k.flushRound(m.now())
			}
		}
		return tea.Batch(k.wait(), m.ensureTick()), true
	case toolProgressMsg:
		k.waiting = false
		if it := k.calls[msg.callID]; it != nil {
			p := msg.p.Message
			if msg.p.Total > 0 {
				p = fmt.Sprintf("%.0f%% %s", 100*msg.p.Progress/msg.p.Total, p)
			}
			r, ok := k.runs[msg.callID]
			if !ok || r.Phase != tools.RunRunning {
				r = tools.Run{Phase: tools.RunRunning, Started: time.Now()}
			}
			r.Detail = p
			m.setRun(it, r)
			m.itemChanged(it)
		}
		return tea.Batch(k.wait(), m.ensureTick()), true
	case toolDoneMsg:
		return m.toolsDone(msg), true
	}
	return nil, false
}

// nextApproval shows the next waiting approval request.
func (m *Model) nextApproval() {
	k := m.tools
	if k.asking != nil || len(k.queue) == 0 {
		return
	}
	ask := k.queue[0]
	k.queue = k.queue[1:]
	k.asking = &ask
	m.dialog = dlg[Approval]{NewApproval(ask.req, m.frame.styles)}
	m.status.State, m.status.Detail = AwaitingApproval, ask.req.Call.Name
}

// toolsDone sends the round's outputs back, or keeps them for the next
// message when the user stopped the round.
func (m *Model) toolsDone(msg toolDoneMsg) tea.Cmd {
	k := m.tools
	if msg.gen != m.gen {
		return nil
	}
	cancelled := k.stopped
	k.cancel, k.stopped = nil, false
	now := m.now()
	var redraw []tea.Cmd
	for _, r := range msg.results {
		if it := k.calls[r.Call.CallID]; it != nil {
			it.Output, _ = json.Marshal(r.Output)
			run := tools.Ended(r)
			run.Started = k.runs[r.Call.CallID].Started
			m.setRun(it, run)
			if k.round != nil {
				k.round.Ran(r.Call.CallID, run)
			}
			// redrawn now, not on the next frame: the panels end in the
			// same view as the notice and the status line that say so
			redraw = append(redraw, m.refresh(it, now))
		}
	}
	// The round is over: a chunk or progress report still queued on
	// k.events arrives after this and must not mark a panel "running" again.
	clear(k.calls)
	clear(k.output)
	clear(k.running)
	round := k.round
	k.round = nil
	m.status.Detail = ""
	if cancelled {
		for i, o := range k.loop.Outputs(msg.results) {
			k.roundOut[k.loop.Calls()[i].CallID] = o
		}
		if round != nil {
			round.EndRound(session.RoundInput(k.roundIDs, k.roundOut))
		}
		k.loop.Cancel(msg.results, now)
		m.status.State = Idle
		m.notice(block.Info, "tools stopped — their outputs (\"cancelled by user\") go with your next message")
		return tea.Batch(redraw...)
	}
	in, _ := k.loop.Finish(msg.results, now)
	if len(in) == 0 {
		m.status.State = Idle
		if round != nil {
			round.EndRound(nil)
		}
		return tea.Batch(redraw...)
	}
	return tea.Batch(append(redraw, m.beginWith(m.conv.Begin("", in...), round))...)
}

// stopTools cancels a running round.
func (m *Model) stopTools() bool {
	k := m.tools
	if k.cancel == nil {
		return false
	}
	k.stopped = true
	k.cancel()
	m.denyWaiting()
	// until the runner reports the calls ended (toolsDone), the status line
	// says so rather than naming calls that no longer run
	m.status.State, m.status.Detail = RunningTool, "stopping"
	return true
}

// denyWaiting denies the approval being asked and those queued behind it,
// closing the dialog: for a round that stops.
func (m *Model) denyWaiting() {
	k := m.tools
	if k.asking != nil {
		k.asking.reply <- answer{d: tools.Deny}
		k.asking = nil
		m.dialog = nil
	}
	for _, a := range k.queue {
		a.reply <- answer{d: tools.Deny}
	}
	k.queue = nil
}

// abandonTools ends a running round for good when the chat leaves its
// conversation (/new, another session): the calls are cancelled, the round's
// record ends with what it has, and its late result (an older gen) is
// ignored, so nothing of it reaches the next conversation.
func (m *Model) abandonTools() {
	k := m.tools
	if k.cancel == nil {
		return
	}
	k.cancel()
	m.denyWaiting()
	if k.round != nil {
		k.round.EndRound(session.RoundInput(k.roundIDs, k.roundOut))
		k.round = nil
	}
	k.cancel, k.stopped = nil, false
	clear(k.calls)
	clear(k.output)
	clear(k.running)
	k.loop.Reset()
	m.gen++ // the round's toolDoneMsg carries the old gen
	m.status.State, m.status.Detail = Idle, ""
}

// setRun records where runnel's run of the call it stands, and shows it on
// the call's panel (block.RunHolder).
func (m *Model) setRun(it *stream.Item, r tools.Run) {
	m.tools.runs[it.CallID] = r
	if e := m.entries[it]; e != nil {
		if h, ok := e.b.(block.RunHolder); ok {
			h.SetRun(r)
		}
	}
}

// itemChanged marks an item for re-rendering on the next frame.
func (m *Model) itemChanged(it *stream.Item) {
	if m.entries[it] != nil {
		m.dirty[it] = true
	}
}

// ensureTick schedules a frame (within frameInterval) if none is scheduled
// that soon.
func (m *Model) ensureTick() tea.Cmd { return m.scheduleFrame(true) }

// scheduleFrame schedules the next frame: within frameInterval when fast
// (something changed and must be drawn), else within spinnerStep (only the
// spinner or a countdown moves). A scheduled frame at least as soon makes
// it a no-op; a slow one is superseded by a fast one.
func (m *Model) scheduleFrame(fast bool) tea.Cmd {
	if fast {
		return m.frameIn(frameInterval, true)
	}
	return m.frameIn(spinnerStep, false)
}

// frameIn schedules the next frame in d (fast: d is frameInterval).
func (m *Model) frameIn(d time.Duration, fast bool) tea.Cmd {
	if m.live && (m.tickFast || !fast) {
		return nil
	}
	m.tickSeq++
	m.live, m.tickFast = true, fast
	return frameTick(m.gen, m.tickSeq, d)
}
