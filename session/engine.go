package session

// This file is the turn engine: a turn's lifecycle written once, for the
// chat and -p alike. It is a state machine with no I/O of its own: the
// front end tells it what happened (Next(Event)) and does what it answers
// (Action): send this request, send the turn again without what the
// server refused or with the history, or stop there. The chat turns
// actions into Bubble Tea commands, -p into blocking calls; neither keeps
// a rule of its own. Time comes in with each event; what a server refuses
// goes to an injected Recorder (a ProviderMemory on disk).
//
// What it negotiates (negotiate.go): a 400 or 422 that names a parameter
// the request carried and can do without (optional.go) is answered by the
// turn again without it, one line, remembered for the conversation and the
// server; a chain the server ignored (seen at its first response object),
// refused or lost is answered by the turn again with the history; a tool
// call the server finds unanswered gets an output. Each at most once per
// turn: a turn never loops.

import (
	"time"

	"runnel/stream"
)

// Phase is what the front end is doing, for the status line and for what
// may happen next (a notification, the approval timer).
type Phase int

const (
	PhaseIdle      Phase = iota // nothing in flight
	PhaseWaiting                // a request is sent, nothing has come yet
	PhaseStreaming              // the answer is coming
	PhaseTools                  // the turn's calls run
	PhaseApproval               // a call waits for the user's answer
)

func (p Phase) String() string {
	return [...]string{"idle", "waiting", "streaming", "running tools", "awaiting approval"}[p]
}

// EventKind is what happened.
type EventKind int

const (
	// Sent: the front end is about to send Event.Turn (just begun, of
	// Event.Conv). The action says what to send.
	Sent EventKind = iota
	// Streamed: something of the answer came.
	Streamed
	// Created: the stream brought its first response object
	// (Event.Snapshot); Event.Shown says whether items were shown before.
	Created
	// Ended: the stream ended (Event.Responses, Event.Err, Event.Stopped;
	// Event.Conv and Event.Turn say which, for a turn the engine did not
	// send).
	Ended
	// ToolsRun, Asking, ToolsDone: the turn's calls run, one waits for
	// the user, they are done.
	ToolsRun
	Asking
	ToolsDone
	// Began: a stream the engine did not send started (a replay, a
	// reattached background response, /compact): nothing to negotiate,
	// but the front end is waiting. Settled: it is over (idle).
	Began
	Settled
)

// Event is one thing that happened to the turn in flight.
type Event struct {
	Kind      EventKind
	Now       time.Time
	Conv      *Conversation // Sent, Ended
	Turn      *Turn         // Sent, Ended
	Snapshot  *stream.Snapshot
	Shown     bool
	Responses []*stream.Snapshot
	Err       error
	Stopped   bool
}

// ActionKind is what the front end does next.
type ActionKind int

const (
	Continue ActionKind = iota // go on reading the stream (or nothing to do)
	Send                       // send Action.Request (the turn's first request)
	Resend                     // send the turn again: Action.Request
	Done                       // the turn is over and recorded (Conversation.Finish)
	Fail                       // the turn is over, recorded, and failed: say Action.Line
)

// Action is what the front end does.
type Action struct {
	Kind ActionKind
	// Request is what to send (Send, Resend). Its tools are as the turn
	// keeps them (redacted): the front end sets the real ones.
	Request stream.Request
	// Cancel: stop the stream in flight first; nothing of it is shown or
	// recorded (a chain the server ignored).
	Cancel bool
	// InputChanged: the turn's input changed (an output added for a call
	// the server found unanswered): its record is written again.
	InputChanged bool
	Notices      []Notice
	Line         string // Fail: the one line that says why
}

// Notice is one line for the user.
type Notice struct {
	Warning bool // a warning; else information
	Text    string
}

// Recorder keeps what each server refused (ProviderMemory on disk; a map
// in tests).
type Recorder interface {
	Load(key string, now time.Time) ProviderRecord
	Save(r ProviderRecord) error
}

// Engine runs the turns of one front end against one provider.
//
// Invariants: turn is the turn in flight (nil when idle); tried holds what
// the turn was sent again without, each at most once, so a turn is sent at
// most len(optionals)+2 times; phase is PhaseIdle when turn is nil.
type Engine struct {
	mem   Recorder // nil: nothing is remembered past the conversation
	key   string   // the provider's key (ProviderKey)
	conv  *Conversation
	turn  *Turn
	tried []string
	phase Phase
}

// NewEngine is an engine for the provider at baseURL, remembering in mem
// (nil: nothing).
func NewEngine(baseURL string, mem Recorder) *Engine {
	return &Engine{key: ProviderKey(baseURL), mem: mem}
}

// Phase is what the front end is doing.
func (e *Engine) Phase() Phase { return e.phase }

// Key is the provider's key.
func (e *Engine) Key() string { return e.key }

// Record is what is remembered of the provider as of now.
func (e *Engine) Record(now time.Time) ProviderRecord {
	if e.mem == nil {
		return ProviderRecord{Key: e.key}
	}
	return e.mem.Load(e.key, now)
}

// afterTurn is the phase each report of the tools or approvals leads to.
var afterTurn = map[EventKind]Phase{ToolsRun: PhaseTools, Asking: PhaseApproval, ToolsDone: PhaseIdle, Settled: PhaseIdle}

// Next takes one event and answers what to do.
func (e *Engine) Next(ev Event) Action {
	switch ev.Kind {
	case Sent:
		return e.sent(ev)
	case Streamed:
		if e.phase == PhaseWaiting {
			e.phase = PhaseStreaming
		}
	case Created:
		return e.created(ev)
	case Ended:
		return e.ended(ev)
	case ToolsRun, Asking, ToolsDone, Settled:
		if e.turn == nil { // a turn in flight decides its own phase
			e.phase = afterTurn[ev.Kind]
		}
	case Began:
		e.turn, e.phase = nil, PhaseWaiting
	}
	return Action{}
}

// sent starts a turn: what the provider is remembered to refuse is left
// out of it first.
func (e *Engine) sent(ev Event) Action {
	e.conv, e.turn, e.tried, e.phase = ev.Conv, ev.Turn, nil, PhaseWaiting
	if rec := e.Record(ev.Now); !rec.sameRecall(e.conv) {
		rec.Recall(e.conv)
		e.conv.Again(e.turn)
	}
	return Action{Kind: Send, Request: e.turn.Request}
}

// created checks the first response object of a chained request: a server
// that ignored the chain answered without the earlier turns.
func (e *Engine) created(ev Event) Action {
	e.phase = PhaseStreaming
	t := e.turn
	if t == nil || t.Fallback || !ChainIgnored(t.Request, ev.Snapshot) {
		return Action{}
	}
	notices := e.stateless(WhyIgnored, ev.Now)
	if ev.Shown {
		// what came is on screen already: it stands, later turns send the history
		notices = append(notices, Notice{true, "this answer came before the server said so: it may not have seen the earlier turns"})
		return Action{Notices: notices}
	}
	e.tried = append(e.tried, ParamChain)
	return Action{Kind: Resend, Cancel: true, Request: e.conv.ResendStateless(t), Notices: notices}
}

// ended answers the end of the stream: the turn again when the server
// refused what it can do without, else the turn recorded.
func (e *Engine) ended(ev Event) Action {
	t := e.turn
	if t == nil || (ev.Turn != nil && ev.Turn != t) {
		// a turn the engine did not send (a reattached background
		// response): recorded, nothing negotiated
		if ev.Conv != nil && ev.Turn != nil {
			ev.Conv.Finish(ev.Turn, ev.Responses, ev.Err, ev.Stopped)
		}
		e.turn, e.phase = nil, PhaseIdle
		return Action{Kind: Done}
	}
	if len(ev.Responses) == 0 && !ev.Stopped && ev.Err != nil {
		if a, ok := e.negotiate(ev.Err, ev.Now); ok {
			e.phase = PhaseWaiting
			return a
		}
	}
	e.conv.Finish(t, ev.Responses, ev.Err, ev.Stopped)
	e.turn, e.phase = nil, PhaseIdle
	if ev.Err != nil && len(ev.Responses) == 0 && !ev.Stopped {
		return Action{Kind: Fail, Line: stream.SanitizeLine(ev.Err.Error())}
	}
	return Action{Kind: Done}
}

// stateless marks the conversation as one whose server keeps no state,
// says so and remembers it.
func (e *Engine) stateless(why string, now time.Time) []Notice {
	e.conv.Stateless = true
	notices := []Notice{{false, StatelessNotice(ProviderName(e.key), why)}}
	return append(notices, e.remember(func(r *ProviderRecord) { r.MarkStateless(why, now) }, now)...)
}

// remember changes the provider's record and writes it.
func (e *Engine) remember(change func(*ProviderRecord), now time.Time) []Notice {
	if e.mem == nil {
		return nil
	}
	rec := e.mem.Load(e.key, now)
	change(&rec)
	if err := e.mem.Save(rec); err != nil {
		return []Notice{{true, "cannot remember it for the next run: " + stream.SanitizeLine(err.Error())}}
	}
	return nil
}
