package toolrun

// This file holds what a round is made of: the calls the model made and
// how each ended, and the function_call_output item that answers one.

import (
	"encoding/json"
	"fmt"
	"time"

	"runnel/stream"
)

// Call is one client-side function call from a response.
type Call struct {
	Index     int    // position among the round's calls, from 0
	ItemID    string // the function_call item's id
	CallID    string // what the output answers
	Name      string // the function name the model used
	Arguments string // JSON text, as the model sent it
}

// Status is how a call ended.
type Status int

const (
	StatusOK        Status = iota // ran; exit status 0, or the MCP tool succeeded
	StatusFailed                  // ran and failed: non-zero exit, isError, an MCP protocol error, a dead server
	StatusInvalid                 // the arguments did not match the schema; not run
	StatusDenied                  // the user said no
	StatusRefused                 // it needed approval and nobody could be asked
	StatusTimedOut                // killed at its timeout
	StatusCancelled               // the user interrupted the round
	StatusUnknown                 // no such local tool
	StatusSkipped                 // not run: the round cap was reached
	// A run's outcome only, never a Result's (see Run):
	StatusInterrupted // runnel stopped (killed, terminal closed) while it ran
	StatusUnrecorded  // it ended in an earlier process that did not record how (a session saved by an older runnel)
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusFailed:
		return "failed"
	case StatusInvalid:
		return "invalid arguments"
	case StatusDenied:
		return "denied"
	case StatusRefused:
		return "refused"
	case StatusTimedOut:
		return "timed out"
	case StatusCancelled:
		return "cancelled"
	case StatusUnknown:
		return "unknown tool"
	case StatusSkipped:
		return "skipped"
	case StatusInterrupted:
		return "interrupted"
	case StatusUnrecorded:
		return "outcome unknown"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is how one call ended and what the model is told.
//
// Invariants: Output is what goes to the model, exactly (never sanitized:
// the UI sanitizes its copy for display); Stderr, ExitCode and Truncated
// are for the panel only.
type Result struct {
	Call      Call
	Status    Status
	Output    string
	Stderr    string        // a local command's stderr, capped
	ExitCode  int           // a local command's exit status; -1 when it has none
	Truncated bool          // the output was cut at the table's tool_result_bytes
	Duration  time.Duration // how long it ran (0 when it did not)
	Notice    string        // one line for stderr in one-shot mode, "" for none
}

// Item is the function_call_output input item that answers the call.
func (r Result) Item() json.RawMessage {
	return stream.OutputItem(r.Call.CallID, r.Output)
}
