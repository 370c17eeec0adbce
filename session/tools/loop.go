package tools

// This file is the agentic loop as a state machine: which calls of a
// response to run, what the next request carries, when to stop, and what a
// cancelled round still owes the chain. It does no I/O; time comes in as a
// parameter.

import (
	"encoding/json"
	"fmt"
	"time"

	"runnel/stream"
)

// State is where a user turn is.
type State int

const (
	StateIdle      State = iota // no request out; waiting for the user
	StateStreaming              // a request is out and its response is streaming
	StateRunning                // the response's calls are being approved and run
)

// Loop steps one conversation through its tool rounds.
//
// Invariants:
//   - owed holds, in call order, outputs for calls of the chain's newest
//     response that no request has delivered yet; Begin hands them to the
//     next user message. A response's calls are answered in full or owed
//     in full, so the chain never has a call without an output.
//   - inflight holds the outputs the current request carries; they become
//     owed again if its response does not complete (failed, cut off,
//     cancelled), because the chain then still ends at the calls.
//   - calls and respID are set exactly in StateRunning.
//   - round counts the rounds run in this user turn, 0 ≤ round ≤ max.
//   - ran holds the call_id of every call Next or Resume handed out since
//     the user turn began; neither hands out a call_id in ran, nor one
//     call_id twice, so a call runs at most once per user turn whatever
//     the stream repeats (once.go), and calls holds distinct call_ids.
//   - Begin hands out at most one output per call_id (the first owed).
type Loop struct {
	max      int
	state    State
	round    int
	respID   string // the response whose calls are running
	calls    []Call
	owed     []json.RawMessage
	inflight []json.RawMessage
	began    time.Time       // when the user turn began
	ran      map[string]bool // call_ids handed out in this user turn
}

// NewLoop returns a loop that runs at most maxRounds rounds of calls per
// user turn (0 means DefaultMaxRounds).
func NewLoop(maxRounds int) *Loop {
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	return &Loop{max: maxRounds}
}

// Round is the number of rounds run in this user turn.
func (l *Loop) Round() int { return l.round }

// Calls are the calls of the running round (nil unless StateRunning).
func (l *Loop) Calls() []Call { return l.calls }

// Begin starts a user turn: the request about to go out carries the
// returned outputs (owed by a round that was cancelled or cut short) before
// the user's message.
func (l *Loop) Begin(now time.Time) (owed []json.RawMessage) {
	owed, l.owed = uniqueOutputs(l.owed), nil
	l.inflight = owed
	l.state, l.round, l.began = StateStreaming, 0, now
	l.calls, l.respID, l.ran = nil, "", nil
	return owed
}

// Next takes the response the current request ended with (nil if none came
// back) and says what to do: run calls, or stop. Every function_call item
// of a completed or incomplete response is a client-side call (hosted tool
// items are the server's own); a name the Runner does not know is answered
// as unknown, so the chain stays valid. Calls are read from resp as it
// ends, so each answers the call_id of the server's final item. A call_id
// the response repeats is one call, and one that already ran in this user
// turn is not run again and gets no new output (once.go). stop is a notice
// for the user when the turn ends unusually ("" when the model simply
// answered).
func (l *Loop) Next(resp *stream.Snapshot, now time.Time) (calls []Call, stop string) {
	if l.state != StateStreaming {
		return nil, ""
	}
	l.state = StateIdle
	if resp == nil || !resp.Terminal || (resp.Status != "completed" && resp.Status != "incomplete") {
		// The chain did not move: what this request carried is still owed.
		l.owed, l.inflight = append(l.inflight, l.owed...), nil
		if len(l.owed) > 0 {
			return nil, fmt.Sprintf("the response did not complete; %s will go with your next message", plural(len(l.owed), "tool output"))
		}
		return nil, ""
	}
	l.inflight = nil
	calls, repeated := pick(resp.Items, l.ran)
	if len(calls) == 0 {
		if len(repeated) > 0 {
			return nil, repeatedNotice(repeated)
		}
		return nil, ""
	}
	if l.round >= l.max {
		for _, c := range calls {
			l.owed = append(l.owed, stream.OutputItem(c.CallID, capOutput(l.max)))
		}
		return nil, fmt.Sprintf("stopped after %s in %s (max_tool_rounds = %d); the model's last %s not run — send a message to continue",
			plural(l.round, "tool round"), now.Sub(l.began).Round(time.Second), l.max, callsWere(len(calls)))
	}
	l.round++
	l.state, l.respID, l.calls = StateRunning, resp.ID, calls
	l.markRan(calls)
	return calls, ""
}

// Resume starts a round on the calls of resp that a previous run of runnel
// left unanswered (it was killed while they waited for approval). ran lists
// the call_ids that already ran in this user turn, as the journal recorded
// them (answered or interrupted calls of resp, and those answered by earlier
// rounds): they are not run now, nor in a later round of the turn. It
// returns the calls to run, one per call_id; Finish then answers exactly
// them.
func (l *Loop) Resume(resp *stream.Snapshot, ran []string, now time.Time) []Call {
	l.ran = nil
	for _, id := range ran {
		l.markID(id)
	}
	calls, _ := pick(resp.Items, l.ran)
	if len(calls) == 0 {
		return nil
	}
	l.state, l.round, l.began = StateRunning, 1, now
	l.respID, l.calls, l.inflight = resp.ID, calls, nil
	l.markRan(calls)
	return calls
}

// Outputs are the outputs the running round's calls would send with
// results, in call order (a call without a result counts as cancelled).
func (l *Loop) Outputs(results []Result) []json.RawMessage { return l.outputs(results) }

// Finish takes the round's results and returns the next request's input:
// one function_call_output per call, in call order (a call without a
// result counts as cancelled), to send with previous_response_id =
// previousID, the response that made the calls.
func (l *Loop) Finish(results []Result, now time.Time) (input []json.RawMessage, previousID string) {
	if l.state != StateRunning {
		return nil, ""
	}
	input, previousID = l.outputs(results), l.respID
	l.inflight = input
	l.state, l.calls, l.respID = StateStreaming, nil, ""
	return input, previousID
}

// Cancel ends the turn where it is. While calls run, each call without a
// result in done gets "cancelled by user"; all the round's outputs are owed
// to the next user message. While streaming, what the request carried is
// owed again. The caller cancels the context that runs the calls or the
// stream.
func (l *Loop) Cancel(done []Result, now time.Time) {
	switch l.state {
	case StateRunning:
		l.owed = append(l.owed, l.outputs(done)...)
	case StateStreaming:
		l.owed = append(l.inflight, l.owed...)
	}
	l.inflight, l.calls, l.respID = nil, nil, ""
	l.state = StateIdle
}

// Reset forgets everything owed: for a new conversation, whose chain does
// not hold the old calls.
func (l *Loop) Reset() {
	*l = Loop{max: l.max}
}

// outputs answers every running call in call order from results, matched
// by call_id.
func (l *Loop) outputs(results []Result) []json.RawMessage {
	byID := make(map[string]Result, len(results))
	for _, r := range results {
		byID[r.Call.CallID] = r
	}
	out := make([]json.RawMessage, len(l.calls))
	for i, c := range l.calls {
		r, ok := byID[c.CallID]
		if !ok {
			r = cancelled(c)
		}
		out[i] = stream.OutputItem(c.CallID, r.Output)
	}
	return out
}

func capOutput(max int) string {
	return fmt.Sprintf("Not run: runnel stops after %d tool rounds per user message (max_tool_rounds). Wait for the user.", max)
}

func callsWere(n int) string {
	if n == 1 {
		return "call was"
	}
	return fmt.Sprintf("%d calls were", n)
}
