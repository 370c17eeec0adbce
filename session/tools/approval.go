package tools

// This file decides whether a call may run: the tool's policy, what the
// user already allowed this session, and the question put to whoever
// answers (the TUI, or -p --yes).

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Decision is the user's answer to an approval request.
type Decision int

const (
	Deny            Decision = iota // do not run it; the model is told the user said no
	Allow                           // run this call
	AllowForSession                 // run it, and every later call of this tool this session
)

func (d Decision) String() string {
	switch d {
	case Deny:
		return "deny"
	case Allow:
		return "allow"
	case AllowForSession:
		return "allow for the session"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// ApprovalRequest is what the user is asked about.
type ApprovalRequest struct {
	Call    Call
	Tool    string   // the config's name: the function, or the MCP server
	Kind    Kind     // KindFunction or KindServer
	Policy  Approval // why we ask: ApproveAlways or ApproveOnce
	Command []string // what will run: the argv (sh -c LINE with shell), or server and tool
}

// Approver answers approval requests. It is called on Run's goroutine, one
// request at a time, in call order; it should return promptly when ctx is
// done (the answer is then ignored and the call is cancelled).
type Approver func(ctx context.Context, req ApprovalRequest) Decision

// AutoApprove allows everything: -p --yes.
func AutoApprove(context.Context, ApprovalRequest) Decision { return Allow }

// approvals remembers, for one session, which tools the user allowed for
// the rest of it.
//
// Invariants: a name in allowed stays there for the life of the session;
// names are the call names the model uses (one per MCP tool, not per
// server).
type approvals struct {
	mu      sync.Mutex
	allowed map[string]bool
}

// needs reports whether a call of name under policy must be asked about.
func (a *approvals) needs(name string, policy Approval) bool {
	if policy == ApproveNever {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.allowed[name]
}

// record notes an answer: a yes to a once-per-session tool, or a yes for
// the session to any tool, holds from now on.
func (a *approvals) record(name string, policy Approval, d Decision) {
	if d == AllowForSession || d == Allow && policy == ApproveOnce {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.allowed == nil {
			a.allowed = map[string]bool{}
		}
		a.allowed[name] = true
	}
}

// Outputs and notices for calls that did not run.
// deniedOutput tells the model the user said no, with the user's reason
// when one was given (the same words a hosted MCP denial sends as reason).
func deniedOutput(name, reason string) string {
	out := fmt.Sprintf("The user denied this call of %s; it was not run.", name)
	if reason = strings.TrimSpace(reason); reason != "" {
		out += fmt.Sprintf(" The user's reason: %q", reason)
	}
	return out
}

func refusedOutput(name string) string {
	return fmt.Sprintf("%s was not run: it needs the user's approval and runnel is running non-interactively without --yes. Do not call it again in this run.", name)
}

func refusedNotice(name string, policy Approval) string {
	return fmt.Sprintf("tool %s not run: it needs approval (approval = %q); rerun with --yes to allow tools, or set approval = \"never\" for it", name, policy)
}
