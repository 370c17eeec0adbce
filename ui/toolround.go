package ui

// This file is the tools child's round: the runner that runs a round's
// calls on goroutines, the channel their reports come back on, and how
// each call's run stands for its panel. It decides nothing about approvals
// (toolasks.go) or the history (roundrecord.go); toolrun.go drives it.

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/tools"
	"runnel/stream"
)

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

// outputShown is how much of a call's printed output its panel keeps.
const outputShown = 64 << 10

// toolRound is the round of calls running now, and the runner that runs it.
//
// Invariants: events carries everything the runner's goroutines report;
// one waiter is armed on it at a time (waiting), re-armed after each report
// taken (took, then wait). cancel is set while a round runs, and stopped
// only while one runs (the user stopped it; its end is on the way). gen
// names the round running (or the last): a toolDoneMsg of another is a
// round abandoned, and ignored. calls maps the running round's call ids to
// their function_call items, output to what each printed (at most
// outputShown bytes); both are empty between rounds, so a report that comes
// late marks no panel. runs is how runnel's run of each call stands, as its
// panel shows it (setRun).
type toolRound struct {
	runner  *tools.Runner
	loop    *tools.Loop // the agentic loop: which calls run, what is owed
	events  chan tea.Msg
	cancel  context.CancelFunc
	gen     int
	calls   map[string]*stream.Item // call id → its function_call item while its round runs
	runs    map[string]tools.Run    // call id → runnel's run of it, as its panel shows it
	output  map[string]*strings.Builder
	waiting bool
	stopped bool // the user stopped the running round
}

// newToolRound makes the runner of cfg's tools and mgr's, its hooks
// reporting on the round's events.
func newToolRound(cfg tools.Config, mgr *tools.Manager, secrets *stream.Redactor) toolRound {
	events := make(chan tea.Msg, 256)
	r := toolRound{events: events, calls: map[string]*stream.Item{}, runs: map[string]tools.Run{}, output: map[string]*strings.Builder{}}
	r.runner = tools.NewRunner(cfg, mgr, tools.Hooks{
		Secrets: secrets,
		AskReason: func(ctx context.Context, req tools.ApprovalRequest) (tools.Decision, string) {
			ask := approvalAsk{req: req, reply: make(chan answer, 1)}
			select {
			case events <- toolAskMsg(ask):
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
			case events <- toolOutputMsg{callID: c.CallID, chunk: chunk}:
			default: // the panel misses a chunk; the final output has it
			}
		},
		Progress: func(c tools.Call, p tools.Progress) {
			select {
			case events <- toolProgressMsg{callID: c.CallID, p: p}:
			default:
			}
		},
		// Start and Done are never dropped, unlike chunks: the round's
		// record depends on them. A waiter always drains events.
		Start: func(c tools.Call) { events <- toolStartMsg{call: c} },
		Done:  func(res tools.Result) { events <- toolResultMsg{res: res} },
	})
	r.loop = tools.NewLoop(cfg.Rounds())
	return r
}

// wait arms the waiter on the runner's events.
func (r *toolRound) wait() tea.Cmd {
	if r.waiting {
		return nil
	}
	r.waiting = true
	events := r.events
	return func() tea.Msg { return <-events }
}

// took says the waiter brought a report: it is armed again by wait.
func (r *toolRound) took() { r.waiting = false }

// busy reports whether a round runs.
func (r *toolRound) busy() bool { return r.cancel != nil }

// live reports whether a round runs and was not stopped.
func (r *toolRound) live() bool { return r.cancel != nil && !r.stopped }

// adopt indexes the function_call items of snaps by call id, for the
// round about to run.
func (r *toolRound) adopt(snaps []*stream.Snapshot) {
	for _, s := range snaps {
		for _, it := range s.Items {
			if it.Type == "function_call" && r.calls[it.CallID] == nil {
				r.calls[it.CallID] = it // a call the stream repeated has its panel on the first copy
			}
		}
	}
}

// start runs calls under parent, and waits for the reports.
func (r *toolRound) start(parent context.Context, calls []tools.Call) tea.Cmd {
	ctx, cancel := context.WithCancel(parent)
	r.cancel = cancel
	gen, runner := r.gen, r.runner
	run := func() tea.Msg { return toolDoneMsg{results: runner.Run(ctx, calls), gen: gen} }
	return tea.Batch(run, r.wait())
}

// item is call id's function_call item while its round runs; nil else.
func (r *toolRound) item(id string) *stream.Item { return r.calls[id] }

// setRun records where runnel's run of the call it stands, and reports it
// for the call's panel (runMsg).
func (r *toolRound) setRun(it *stream.Item, run tools.Run, f *frameState) {
	r.runs[it.CallID] = run
	f.post(runMsg{it, run})
}

// running is the call's run as it stands, marked running from now when no
// report said so yet (its start report was late, or dropped).
func (r *toolRound) running(it *stream.Item, now time.Time) tools.Run {
	run, ok := r.runs[it.CallID]
	if !ok || run.Phase != tools.RunRunning {
		run = tools.Run{Phase: tools.RunRunning, Started: now}
	}
	return run
}

// markRunning shows call it running from now, unless a report said so.
func (r *toolRound) markRunning(it *stream.Item, now time.Time, f *frameState) {
	if run, ok := r.runs[it.CallID]; !ok || run.Phase != tools.RunRunning {
		r.setRun(it, tools.Run{Phase: tools.RunRunning, Started: now}, f)
	}
}

// print adds a chunk to what call it printed, shows it on the item, and
// returns all of it (the first outputShown bytes are kept).
func (r *toolRound) print(it *stream.Item, chunk string) string {
	b := r.output[it.CallID]
	if b == nil {
		b = &strings.Builder{}
		r.output[it.CallID] = b
	}
	if b.Len() < outputShown {
		b.WriteString(chunk)
	}
	it.Output, _ = json.Marshal(b.String())
	return b.String()
}

// stop cancels the running round, and reports whether one ran.
func (r *toolRound) stop() bool {
	if r.cancel == nil {
		return false
	}
	r.stopped = true
	r.cancel()
	return true
}

// finish takes the end of round gen: false when it is not the running
// round's (an abandoned one); else whether the user stopped it.
func (r *toolRound) finish(gen int) (stopped, ok bool) {
	if gen != r.gen {
		return false, false
	}
	stopped = r.stopped
	r.cancel, r.stopped = nil, false
	return stopped, true
}

// forget drops the round's calls: it is over, and a chunk or progress
// report still queued on events must not mark a panel "running" again.
func (r *toolRound) forget() {
	clear(r.calls)
	clear(r.output)
}

// abandon cancels the running round for good: its calls are forgotten, the
// loop starts over, and its late end (an older gen) is ignored. It reports
// whether a round ran.
func (r *toolRound) abandon() bool {
	if r.cancel == nil {
		return false
	}
	r.cancel()
	r.cancel, r.stopped = nil, false
	r.forget()
	r.loop.Reset()
	r.gen++ // the round's toolDoneMsg carries the old gen
	return true
}

// shutdown cancels the running round, if any: the chat ends.
func (r *toolRound) shutdown() {
	if r.cancel != nil {
		r.cancel()
	}
}
