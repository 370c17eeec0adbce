// Package toolrun holds the record of runnel's own runs of the model's
// function calls and the one environment every child process gets: a call
// and how it ended (Call, Status, Result), where a run stands (Run, the
// panel's and the status line's one record of it) and the journal's record
// of how runs ended (EncodeRuns, DecodeRuns); and ChildEnv, runnel's
// environment without the variables it reads secrets from (Environ).
//
// It is apart from package tools so that a package that shows a run or
// starts a process (the UI's blocks, output and graphics) does not link the
// MCP SDK; package tools names the same types and functions by alias, so
// the rest of runnel keeps calling them tools.Run, tools.ChildEnv.
//
// What it deliberately does not do: run a call, approve one, speak to a
// server, or render anything. Those are package tools's and the UI's.
package toolrun
