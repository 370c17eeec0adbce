package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

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
	output  map[string]*strings.Builder
	asking  *approvalAsk // the approval request shown now
	queue   []approvalAsk
	waiting bool
	stopped bool // the user stopped the running round

	resolved   []json.RawMessage // the request's tools, secrets resolved (for the enabled set)
	resolveErr error             // why resolving them failed, shown on each turn
}

// approvalAsk is a local tool waiting for the user's answer.
type approvalAsk struct {
	req   tools.ApprovalRequest
	reply chan tools.Decision
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
)

func newToolKit(o *Tools) *toolKit {
	k := &toolKit{events: make(chan tea.Msg, 256), calls: map[string]*stream.Item{}, output: map[string]*strings.Builder{}, enabled: map[string]bool{}}
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
		Approve: func(ctx context.Context, req tools.ApprovalRequest) tools.Decision {
			ask := approvalAsk{req: req, reply: make(chan tools.Decision, 1)}
			select {
			case k.events <- toolAskMsg(ask):
			case <-ctx.Done():
				return tools.Deny
			}
			select {
			case d := <-ask.reply:
				return d
			case <-ctx.Done():
				return tools.Deny
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

// resumeCalls runs the calls a resumed session's last response left
// unanswered (runnel quit while they waited for approval or ran), so the
// approval prompt comes back and the chain stays valid.
func (m *Model) resumeCalls() tea.Cmd {
	if len(m.conv.Turns) == 0 {
		return nil
	}
	last := m.conv.Turns[len(m.conv.Turns)-1]
	if len(last.Responses) == 0 || last.Stopped || last.Interrupted() {
		return nil
	}
	return m.startCalls(last.Responses)
}

// startCalls runs the client-side calls of the last of snaps.
func (m *Model) startCalls(snaps []*stream.Snapshot) tea.Cmd {
	k := m.tools
	calls, stop := k.loop.Next(snaps[len(snaps)-1], time.Now())
	if stop != "" {
		m.notice(block.Warning, stream.SanitizeLine(stop))
	}
	if len(calls) == 0 {
		return nil
	}
	for _, s := range snaps {
		for _, it := range s.Items {
			if it.Type == "function_call" {
				k.calls[it.CallID] = it
			}
		}
	}
	for _, c := range calls {
		if it := k.calls[c.CallID]; it != nil {
			it.Progress = "waiting"
			m.itemChanged(it)
		}
	}
	ctx, cancel := context.WithCancel(m.ctx)
	k.cancel = cancel
	m.status.State, m.status.Detail = RunningTool, fmt.Sprintf("%d tool call(s)", len(calls))
	gen := m.gen
	run := func() tea.Msg { return toolDoneMsg{results: k.runner.Run(ctx, calls), gen: gen} }
	return tea.Batch(run, k.wait(), m.ensureTick())
}

// toolMsg handles the runner's messages; ok is false for others.
func (m *Model) toolMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	k := m.tools
	switch msg := msg.(type) {
	case toolAskMsg:
		k.waiting = false
		k.queue = append(k.queue, approvalAsk(msg))
		m.nextApproval()
		return k.wait(), true
	case ApprovalDecisionMsg:
		if k.asking != nil {
			k.asking.reply <- msg.Decision
			if msg.Decision == tools.Deny && msg.Reason != "" {
				m.notice(block.Info, "denied: "+stream.SanitizeLine(msg.Reason))
			}
			k.asking = nil
		}
		m.dialog = nil
		m.nextApproval()
		return nil, true
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
			it.Progress = "running"
			m.itemChanged(it)
		}
		return tea.Batch(k.wait(), m.ensureTick()), true
	case toolProgressMsg:
		k.waiting = false
		if it := k.calls[msg.callID]; it != nil {
			p := msg.p.Message
			if msg.p.Total > 0 {
				p = fmt.Sprintf("%.0f%% %s", 100*msg.p.Progress/msg.p.Total, p)
			}
			it.Progress = "running " + p
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
	m.status.State = AwaitingApproval
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
	now := time.Now()
	for _, r := range msg.results {
		if it := k.calls[r.Call.CallID]; it != nil {
			it.Output, _ = json.Marshal(r.Output)
			it.Progress = r.Status.String()
			if r.Duration > 0 {
				it.Progress += " · " + Elapsed(r.Duration)
			}
			m.itemChanged(it)
		}
	}
	// The round is over: a chunk or progress report still queued on
	// k.events arrives after this and must not mark a panel "running" again.
	clear(k.calls)
	clear(k.output)
	if cancelled {
		k.loop.Cancel(msg.results, now)
		m.status.State = Idle
		m.notice(block.Info, "tools stopped — their outputs (\"cancelled by user\") go with your next message")
		return nil
	}
	in, _ := k.loop.Finish(msg.results, now)
	if len(in) == 0 {
		m.status.State = Idle
		return nil
	}
	return m.begin(m.conv.Begin("", in...))
}

// stopTools cancels a running round.
func (m *Model) stopTools() bool {
	k := m.tools
	if k.cancel == nil {
		return false
	}
	k.stopped = true
	k.cancel()
	if k.asking != nil {
		k.asking.reply <- tools.Deny
		k.asking = nil
		m.dialog = nil
	}
	return true
}

// itemChanged marks an item for re-rendering on the next frame.
func (m *Model) itemChanged(it *stream.Item) {
	if m.entries[it] != nil {
		m.dirty[it] = true
	}
}

// ensureTick schedules a frame if none is scheduled.
func (m *Model) ensureTick() tea.Cmd {
	if m.live {
		return nil
	}
	m.live = true
	return frameTick(m.gen)
}
