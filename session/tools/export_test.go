package tools

import (
	"context"
	"fmt"
)

// String names the state, for test failures.
func (s State) String() string {
	switch s {
	case StateIdle:
		return "idle"
	case StateStreaming:
		return "streaming"
	case StateRunning:
		return "running"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// State is where the turn is.
func (l *Loop) State() State { return l.state }

// Owed reports how many outputs the next user message will carry.
func (l *Loop) Owed() int { return len(l.owed) }

// Ran reports whether the call_id was handed out to run (or answered) in
// this user turn: Next and Resume never hand it out again.
func (l *Loop) Ran(callID string) bool { return l.ran[callID] }

// Handles reports whether name is a local function or an MCP tool.
func (r *Runner) Handles(name string) bool {
	if r.cfg.function(name) != nil {
		return true
	}
	_, ok := r.mcp.lookup(name)
	return ok
}

// ToolNames lists the function names of every MCP tool, in order.
func (m *Manager) ToolNames() []string {
	if m == nil || !m.started() {
		return nil
	}
	out := make([]string, len(m.tools))
	for i, t := range m.tools {
		out[i] = t.name
	}
	return out
}

// StartMCP launches every server in c concurrently, lists their tools and
// returns when all have started or failed (each within its
// startup_timeout). report gets one error per problem, as
// StartHooks.Report; it may be nil. ctx bounds the start only.
func StartMCP(ctx context.Context, c Config, report func(error)) *Manager {
	return StartMCPWith(ctx, c, StartHooks{Report: report})
}
