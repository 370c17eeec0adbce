package ui

// This file is what the chat is doing, decided in one place: activityOf
// maps the turn engine's phase (session.Engine.Phase) and the facts the
// children report to the phase the keys act on (keyfn.go) and the state
// and detail the status line shows (statusBar.sync). The children report
// what happened (didMsg: a call asked, calls run, a stream began), never
// a word for the line: the engine hears each fact (turns.observe) and the
// line names it. No code decides from what the line shows; the notifier
// and the approval timer follow the engine's phase.

import (
	"time"

	"runnel/session"
)

// happening is a fact a child reports of the tools, the approvals, a
// stream the engine did not send, or what the stream is writing: what
// happened, not what to show.
type happening int

const (
	hapNone      happening = iota
	hapBegan               // a stream the engine did not send began (a reattached response, /compact)
	hapAnswering           // the stream writes an answer or reasoning
	hapCallOnWay           // a call is on its way: its arguments stream, or approved calls are about to run
	hapToolRuns            // calls run (a round's, or a hosted tool on the server), or a stopped round ends
	hapAsked               // a call waits for the user's answer (local or hosted)
	hapSettled             // the tools, the approvals or that stream are done: nothing goes out now
	hapHandedOff           // a round's outputs go out with the next request (the turn's own phase follows)
)

// events is the engine's event for each fact a child reports (didMsg);
// a fact missing here tells the engine nothing.
var events = map[happening]session.EventKind{
	hapBegan: session.Began, hapSettled: session.Settled, hapAsked: session.Asking,
	hapCallOnWay: session.ToolsRun, hapToolRuns: session.ToolsRun,
}

// didMsg is a fact a child reports (frameState.post): what happened, what
// it names (the calls, the tool asked about) unless keepDetail, and since,
// when set, when the wait it starts began (the line's timer).
type didMsg struct {
	what       happening
	detail     string
	keepDetail bool
	since      time.Time
}

// chatFacts is what the children say they are doing, each asked of the
// child that knows (turns.doing, toolKit.busy and mcpHolding,
// approvals.waiting).
type chatFacts struct {
	Replying   bool // a reply's stream is open
	Tools      bool // a tool round runs
	Compacting bool // /compact runs
	WaitingMCP bool // a message waits for the MCP servers to start
	Reading    bool // a message's files are being read
	Hosted     bool // hosted approvals wait for an answer
}

// activity is what the chat is doing, for every reader: the engine's
// phase (the notifier, the approval timer), the phase the keys act on,
// and what the status line shows.
type activity struct {
	engine session.Phase
	phase  phase
	state  State
	detail string // what the line says of a phase the engine does not know; "" lets the facts' own detail show
}

// phaseDetail is what the status line says of the phases that are the
// children's alone.
var phaseDetail = map[phase]string{phCompacting: "compacting", phReading: "reading attachments… (esc stops)"}

// activityOf is what the chat is doing: the first of the children's facts
// that holds is the keys' phase; the state shown is the engine's phase,
// refined within it by what the stream or the tools last said (said).
func activityOf(eng session.Phase, said happening, f chatFacts) activity {
	a := activity{engine: eng, phase: phIdle, state: shownState(eng, said)}
	for _, c := range []struct {
		holds bool
		p     phase
	}{
		{f.Replying, phStreaming}, {f.Tools, phTools}, {f.Compacting, phCompacting},
		{f.WaitingMCP, phWaitingMCP}, {f.Reading, phReading}, {f.Hosted, phApproval},
	} {
		if c.holds {
			a.phase = c.p
			break
		}
	}
	a.detail = phaseDetail[a.phase]
	return a
}

// engineState is the state the line shows for each engine phase.
var engineState = [...]State{
	session.PhaseIdle: Idle, session.PhaseWaiting: Waiting, session.PhaseStreaming: Streaming,
	session.PhaseTools: RunningTool, session.PhaseApproval: AwaitingApproval,
}

// shownState is the state the line shows: the engine's phase, refined by
// what the stream or the tools said within it (a hosted tool runs, a
// call's arguments stream, approved calls are about to start).
func shownState(eng session.Phase, said happening) State {
	switch {
	case eng == session.PhaseStreaming && said == hapCallOnWay:
		return CallingTool
	case eng == session.PhaseStreaming && said == hapToolRuns:
		return RunningTool
	case eng == session.PhaseTools && said == hapCallOnWay:
		return CallingTool
	}
	if int(eng) < 0 || int(eng) >= len(engineState) {
		return Idle
	}
	return engineState[eng]
}
