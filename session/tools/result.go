package tools

// This file holds what a round is made of: the calls the model made (read
// from the response's items) and an MCP call's progress; the calls and their
// results themselves are package toolrun's, named here too.

import (
	"encoding/json"

	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// The run record and the child environment live in package toolrun, so that
// a package that shows a run or starts a process needs no MCP SDK; these
// names keep them where the rest of runnel finds them.
type (
	Call     = toolrun.Call
	Status   = toolrun.Status
	Result   = toolrun.Result
	Run      = toolrun.Run
	RunPhase = toolrun.RunPhase
	Environ  = toolrun.Environ
)

const (
	StatusOK          = toolrun.StatusOK
	StatusFailed      = toolrun.StatusFailed
	StatusInvalid     = toolrun.StatusInvalid
	StatusDenied      = toolrun.StatusDenied
	StatusRefused     = toolrun.StatusRefused
	StatusTimedOut    = toolrun.StatusTimedOut
	StatusCancelled   = toolrun.StatusCancelled
	StatusUnknown     = toolrun.StatusUnknown
	StatusSkipped     = toolrun.StatusSkipped
	StatusInterrupted = toolrun.StatusInterrupted
	StatusUnrecorded  = toolrun.StatusUnrecorded

	RunWaiting = toolrun.RunWaiting
	RunRunning = toolrun.RunRunning
	RunEnded   = toolrun.RunEnded
)

// Ended is the run of a call that ended as r says (toolrun.Ended).
func Ended(r Result) Run { return toolrun.Ended(r) }

// EncodeRuns is toolrun.EncodeRuns: the journal's record of ended runs.
func EncodeRuns(runs map[string]Run) json.RawMessage { return toolrun.EncodeRuns(runs) }

// DecodeRuns is toolrun.DecodeRuns: the record read back.
func DecodeRuns(raw json.RawMessage) map[string]Run { return toolrun.DecodeRuns(raw) }

// ChildEnv is toolrun.ChildEnv: runnel's own environment without the
// variables named in hidden, plus extra; every child process runnel starts
// gets its environment from it.
func ChildEnv(hidden []string, extra ...string) Environ { return toolrun.ChildEnv(hidden, extra...) }

// callFromItem reads a function_call item.
func callFromItem(it *stream.Item, index int) Call {
	return Call{Index: index, ItemID: it.ID, CallID: it.CallID, Name: it.Name, Arguments: it.Arguments}
}

// Progress is an MCP progress notification for a running call.
type Progress struct {
	Progress float64
	Total    float64 // 0 = unknown
	Message  string
}
