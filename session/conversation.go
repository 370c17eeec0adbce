package session

import (
	"encoding/json"
	"slices"
	"strings"

	"runnel/session/knob"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
)

// Settings are what a conversation sends with every request (package knob).
type Settings = knob.Settings

// Conversation is a chain of turns.
//
// Invariants:
//   - chainID is the id of the newest response that ended completed or
//     incomplete, "" before the first; failed and cut-off responses never
//     move it.
//   - Turns is the path from the root to the tip (branch.go): each turn's
//     Parent is the one before it (nil for the first). Turns only grow
//     (Begin, Retry) until Cut or Show moves the path; a turn that leaves
//     it stays in off, and every turn's order is unique and grows as turns
//     begin.
//   - window, when set, is a compacted window (/compact) no turn has yet
//     carried to a finished response: chainID is "" and every request
//     starts with it (see compact.go); windowAt is len(Turns) when it was
//     made.
//   - with Stateless, no request carries previous_response_id: each sends
//     the history (FullInput), whatever Settings.Store says.
//   - refused holds the optional parameters (optional.go) the server
//     refused; no request carries them after that.
type Conversation struct {
	Settings Settings
	// Project is what instruction files (AGENTS.md: session/agentsmd) add
	// after the instructions, in every request. It is read anew by each
	// run, so it is not one of the Settings a session keeps.
	Project string
	Turns   []*Turn
	// Stateless: the server keeps no conversation state (it ignored or
	// refused previous_response_id; see stateless.go), so every request
	// sends the history, with store as configured.
	Stateless bool
	chainID   string
	window    []json.RawMessage
	windowAt  int
	movedAt   int     // turns before this one were answered by another provider (SwitchProvider)
	off       []*Turn // the other branches' turns, in the order they began (branch.go)
	made      int     // the order of the newest turn

	// Override, when set, changes every request Begin builds (a prompt
	// file's /NAME turn and its tool rounds) until the caller replaces it
	// (override.go); Settings stay as they are.
	Override *Override

	// Format, when set, asks every answer to follow a JSON Schema
	// (text.format; -p --schema). It is not stored with the session.
	Format  *stream.TextFormat
	refused []string // optional parameters the server refused (optional.go)
}

// Turn is one exchange: the input the user sent and the responses it produced
// (more than one when the server sends several back to back).
type Turn struct {
	Prompt    string            // the user's text, for display and history
	Input     []json.RawMessage // the input items sent, what the chain owed first
	Request   stream.Request    // the request as sent
	Responses []*stream.Snapshot
	Err       error        // a transport or HTTP error that ended the turn
	Stopped   bool         // the user interrupted it
	Stored    store.Status // how a turn loaded from the store ended ("" for live turns)
	Fallback  bool         // the request was rebuilt from local history after the server lost the chain
	Repairs   int          // outputs added for calls the server said had none (Repair)
	Window    int          // Input starts with this many items of a compacted window (/compact)
	Retry     bool         // it asks again for the answer of the turn before it (/retry)
	// LeftWindow: the turn finished a chain past a compacted window it did
	// not carry (a /retry of the turn before /compact): the window no
	// longer applies, and the journal clears the session's stored one so a
	// resume agrees (TurnLog.End).
	LeftWindow bool
	// A stored turn's row, and the background response it was streaming
	// (see Reattachable).
	Row        store.TurnID
	Background store.Background
	// Runs is how runnel's own runs of a stored round's calls ended, by
	// call_id, as its record says (nil for live turns and for rounds whose
	// record has none).
	Runs map[string]tools.Run
	// Parent is the turn it follows, nil for a first turn (branch.go).
	Parent    *Turn
	order     int // when it began among the conversation's turns (a stored turn: its seq)
	parentSeq int // a stored turn's parent's seq, until FromStore links Parent
}

// add appends t to the path, after its tip.
func (c *Conversation) add(t *Turn) {
	if n := len(c.Turns); n > 0 {
		t.Parent = c.Turns[n-1]
	}
	c.made++
	t.order = c.made
	c.Turns = append(c.Turns, t)
}

// ChainID returns the response id the next request will continue from.
func (c *Conversation) ChainID() string { return c.chainID }

// Begin starts a turn with the given input items and returns it with the
// request to send. What the chain still owes goes first (see carry): the
// last unchained turn's prompt and partial answer, and an output for every
// call of the chain's response; the turn's Input holds all of it, as sent.
func (c *Conversation) Begin(prompt string, input ...json.RawMessage) *Turn {
	input = append(c.owed(input), input...)
	t := c.newTurn(prompt, input, c.chainID, c)
	c.add(t)
	return t
}

// newTurn builds a turn sending input after prev; without stored state
// (store = false, or a server that keeps none: Stateless) the request
// carries the turns of history first.
func (c *Conversation) newTurn(prompt string, input []json.RawMessage, prev string, history *Conversation) *Turn {
	s := c.Override.Apply(c.Settings)
	req := stream.Request{
		Model:              s.Model,
		Input:              input,
		Instructions:       joinInstructions(s.Instructions, c.Project),
		PreviousResponseID: prev,
		Tools:              s.Tools,
		ContextManagement:  stream.Compaction(c.Settings.CompactThreshold),
		Truncation:         truncation(c.Settings.Truncation),
		Background:         c.Settings.Background && !c.Refused(ParamStore), // background mode needs store: true
		Stream:             true,
	}
	if s.ReasoningEffort != "" || s.ReasoningSummary != "" {
		req.Reasoning = &stream.Reasoning{Effort: s.ReasoningEffort, Summary: s.ReasoningSummary}
	}
	c.applyKnobs(&req)
	keep := c.Settings.Store && !c.Refused(ParamStore)
	req.Store = &keep
	if !keep {
		// nothing is stored on the server: send everything, and ask for the
		// reasoning so it can be sent back next time
		if c.window == nil {
			req.Input = history.FullInput(input...)
		}
		req.PreviousResponseID = ""
		req.Include = []string{"reasoning.encrypted_content"}
	} else if c.Stateless || history.Stateless {
		if c.window == nil {
			req.Input = history.FullInput(input...)
		}
		req.PreviousResponseID = ""
	} else {
		c.inConversation(&req, history, input)
	}
	c.stripRefused(&req)
	return &Turn{Prompt: prompt, Input: input, Request: req, Window: len(c.window)}
}

// Say starts a turn from plain user text.
func (c *Conversation) Say(text string) *Turn {
	return c.Begin(text, stream.UserText(text))
}

// Finish records how a turn ended and moves the chain forward to its last
// response that completed or ended incomplete.
func (c *Conversation) Finish(t *Turn, responses []*stream.Snapshot, err error, stopped bool) {
	t.Responses, t.Err, t.Stopped = responses, err, stopped
	for i := len(responses) - 1; i >= 0; i-- {
		s := responses[i]
		if s.Terminal && s.ID != "" && (s.Status == "completed" || s.Status == "incomplete") {
			c.chainID = s.ID
			t.LeftWindow = c.window != nil && t.Window == 0
			c.window = nil // the chain now holds it, or went on without it
			return
		}
	}
}

// Rebuild replaces t's request (the last turn) with one that carries the
// whole conversation instead of previous_response_id: for a server that
// answered that the previous response is not found.
func (c *Conversation) Rebuild(t *Turn) stream.Request {
	t.Request.Input = c.before(t).FullInput(t.Input...)
	t.Request.PreviousResponseID = ""
	t.Fallback = true
	c.stripRefused(&t.Request)
	return t.Request
}

// Again builds t's request (the last turn) anew, as the conversation now
// sends it: without what the server refused since, with the history when
// it keeps no state. The request's tools stay as they were.
func (c *Conversation) Again(t *Turn) stream.Request {
	fresh := c.newTurn(t.Prompt, t.Input, t.Request.PreviousResponseID, c.before(t))
	fresh.Request.Tools = t.Request.Tools
	t.Request = fresh.Request
	if t.Fallback {
		return c.Rebuild(t) // sent from the history already
	}
	return t.Request
}

// before is the conversation up to t (the last turn), as a history.
func (c *Conversation) before(t *Turn) *Conversation {
	n := len(c.Turns)
	if n > 0 && c.Turns[n-1] == t {
		n--
	}
	return &Conversation{Turns: c.Turns[:n], movedAt: c.movedAt, Stateless: c.Stateless}
}

// PendingApprovals returns the MCP approval requests of the last turn that
// have not been answered yet.
func (c *Conversation) PendingApprovals() []*stream.Item {
	if len(c.Turns) == 0 {
		return nil
	}
	t := c.Turns[len(c.Turns)-1]
	var out []*stream.Item
	for _, s := range t.Responses {
		for _, it := range s.Items {
			if it.Type == "mcp_approval_request" {
				out = append(out, it)
			}
		}
	}
	return out
}

// ApprovalResponse is the input item answering an mcp_approval_request.
func ApprovalResponse(requestID string, approve bool, reason string) json.RawMessage {
	m := map[string]any{"type": "mcp_approval_response", "approval_request_id": requestID, "approve": approve}
	if reason = strings.TrimSpace(reason); reason != "" && !approve {
		m["reason"] = reason
	}
	b, _ := json.Marshal(m)
	return b
}

// Fork returns a new conversation holding the first keep turns, chained to
// the last of their responses that completed or ended incomplete (not in
// the server-side conversation, which holds the turns after them too).
func (c *Conversation) Fork(keep int) *Conversation {
	keep = max(0, min(keep, len(c.Turns)))
	f := &Conversation{Settings: c.Settings, Project: c.Project, Turns: append([]*Turn(nil), c.Turns[:keep]...), Stateless: c.Stateless, movedAt: min(c.movedAt, keep), made: c.made, refused: slices.Clone(c.refused)}
	// the server-side conversation holds every turn, not only the kept
	// ones: the fork chains from its own last response instead
	f.Settings.Conversation = ""
	f.chainID = chainOf(f.Turns)
	return f
}

// SwitchProvider moves the conversation to another server, which never saw
// its chain: from the next request on, each sends the local history as
// input (FullInput) instead of previous_response_id, as for a server that
// keeps no state (Stateless), while each turn keeps only its own input, so
// the history is never stored twice. A conversation loaded again from the
// store chains on the new server from its last response. The earlier turns'
// reasoning items stay behind: their encrypted_content is the old server's
// (Ollama's is not even encrypted), and another server refuses it. The
// knobs the old server refused (knobs.go) are tried on the new one.
func (c *Conversation) SwitchProvider() {
	c.chainID = ""
	c.Stateless = true
	c.movedAt = len(c.Turns)
	c.refused = nil // what the old server refused, the new one may take
}

// joinInstructions is the configured (or a prompt file's) instructions
// with what instruction files add after them.
func joinInstructions(instructions, project string) string {
	switch {
	case project == "":
		return instructions
	case instructions == "":
		return project
	}
	return instructions + "\n\n" + project
}
