package tools

// This file runs one round of client-side calls: each is checked against
// its schema and approved in call order, then the approved ones run, at
// most MaxParallel at once, and the results come back in call order.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"runnel/stream"
)

// Hooks are how a Runner reaches the user. Every field may be nil.
type Hooks struct {
	// Approve answers approval requests. Nil means nobody can be asked
	// (one-shot without --yes): calls that need approval are refused, with
	// an explanation as their output and a Notice for stderr.
	Approve Approver
	// AskReason, when set, is used instead of Approve: it also returns the
	// user's reason for a denial ("" for none), which the model is given
	// in the call's output.
	AskReason func(ctx context.Context, req ApprovalRequest) (Decision, string)
	// Output gets a local command's output as it arrives, for a live
	// panel. Calls run concurrently, so it must be safe for concurrent
	// use; it gets raw bytes as text, to be sanitized before display.
	Output func(call Call, chunk string, stderr bool)
	// Progress gets an MCP tool's progress notifications (concurrently,
	// like Output).
	Progress func(call Call, p Progress)
	// Start is told when a call begins to run: approved, or needing no
	// approval (concurrently, like Output). Nil is fine.
	Start func(call Call)
	// Done gets each call's result as soon as it is known, before Run
	// returns them all (concurrently, like Output). Nil is fine.
	Done func(Result)
	// Secrets are hidden in everything a call produces: the output the
	// model gets, stderr, notices, live output and progress. RequestTools
	// adds the hosted MCP tokens it reads. Nil hides nothing.
	Secrets *stream.Redactor
}

// Runner runs the client-side calls of one session.
//
// Invariants: cfg and mcp do not change after NewRunner; approvals only
// grow; schemas caches one compiled schema per function name (nil when it
// does not compile, which Validate rules out for config functions).
type Runner struct {
	cfg   Config
	mcp   *Manager // nil when no MCP servers are configured
	hooks Hooks

	approvals approvals
	mu        sync.Mutex
	schemas   map[string]*Schema
}

// NewRunner makes the runner for one session. m may be nil.
func NewRunner(c Config, m *Manager, h Hooks) *Runner {
	return &Runner{cfg: c, mcp: m, hooks: h, schemas: map[string]*Schema{}}
}

// RequestTools is Config.RequestTools plus the enabled MCP servers' tools
// as function tools. It may hold secrets: see Redact.
func (r *Runner) RequestTools(enabled func(name string) bool, env func(string) string) ([]json.RawMessage, error) {
	out, err := r.cfg.RequestTools(enabled, env)
	if err != nil {
		return nil, err
	}
	r.hooks.Secrets.Add(stream.ToolSecrets(out)...)
	return append(out, r.mcp.FunctionTools(enabled)...), nil
}

// Run answers every call: the results are in call order, one per call,
// whatever happened. Cancelling ctx kills running commands and ends MCP
// calls; every call not finished by then ends StatusCancelled.
func (r *Runner) Run(ctx context.Context, calls []Call) []Result {
	results := make([]Result, len(calls))
	type job struct {
		i   int
		run func(context.Context) Result
	}
	var jobs []job
	for i, c := range calls {
		res, run := r.prepare(ctx, c)
		if run == nil {
			results[i] = r.done(res)
			continue
		}
		jobs = append(jobs, job{i, run})
	}
	sem := make(chan struct{}, MaxParallel)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				results[j.i] = r.done(cancelled(calls[j.i]))
				return
			}
			if r.hooks.Start != nil {
				r.hooks.Start(calls[j.i])
			}
			results[j.i] = r.done(j.run(ctx))
		})
	}
	wg.Wait()
	return results
}

// done hides the secrets in a finished call's result and tells the Done
// hook; it returns the result to keep.
func (r *Runner) done(res Result) Result {
	res = r.redact(res)
	if r.hooks.Done != nil {
		r.hooks.Done(res)
	}
	return res
}

// redact hides the secrets in what a call produced.
func (r *Runner) redact(res Result) Result {
	sec := r.hooks.Secrets
	res.Output, res.Stderr, res.Notice = sec.String(res.Output), sec.String(res.Stderr), sec.String(res.Notice)
	return res
}

// prepare validates and approves one call. It returns either a finished
// result (run == nil) or the function that runs the call.
func (r *Runner) prepare(ctx context.Context, c Call) (res Result, run func(context.Context) Result) {
	if ctx.Err() != nil {
		return cancelled(c), nil
	}
	req := ApprovalRequest{Call: c}
	var schema *Schema
	if f := r.cfg.function(c.Name); f != nil {
		schema = r.schema(f)
		req.Tool, req.Kind, req.Policy, req.Command = f.Name, KindFunction, f.Approval, f.argv()
		run = func(ctx context.Context) Result { return r.runFunction(ctx, f, c) }
	} else if t, ok := r.mcp.lookup(c.Name); ok {
		schema = t.schema()
		req.Tool, req.Kind, req.Policy = t.server.cfg.Name, KindServer, t.server.cfg.Approval
		req.Command = []string{t.server.cfg.Name, t.tool}
		run = func(ctx context.Context) Result { return r.runMCP(ctx, t, c) }
	} else {
		return ended(c, StatusUnknown, fmt.Sprintf("There is no tool named %q here; use one of the tools you were given.", c.Name)), nil
	}
	if err := schema.Check(c.Arguments); err != nil {
		return ended(c, StatusInvalid, err.Error()), nil
	}
	if !r.approvals.needs(c.Name, req.Policy) {
		return Result{}, run
	}
	var (
		d      Decision
		reason string
	)
	switch {
	case r.hooks.AskReason != nil:
		d, reason = r.hooks.AskReason(ctx, req)
	case r.hooks.Approve != nil:
		d = r.hooks.Approve(ctx, req)
	default:
		res = ended(c, StatusRefused, refusedOutput(c.Name))
		res.Notice = refusedNotice(c.Name, req.Policy)
		return res, nil
	}
	if ctx.Err() != nil {
		return cancelled(c), nil
	}
	r.approvals.record(c.Name, req.Policy, d)
	if d == Deny {
		return ended(c, StatusDenied, deniedOutput(c.Name, reason)), nil
	}
	return Result{}, run
}

// schema compiles a function's parameters once.
func (r *Runner) schema(f *Function) *Schema {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.schemas[f.Name]
	if !ok {
		if f.Parameters != nil {
			s, _ = CompileSchema(f.Parameters) // nil if it does not compile: JSON is still checked
		}
		r.schemas[f.Name] = s
	}
	return s
}

// argv is what runs for the function.
func (f *Function) argv() []string {
	if f.Shell {
		return []string{"sh", "-c", f.Command[0]}
	}
	return f.Command
}

func (r *Runner) runFunction(ctx context.Context, f *Function, c Call) Result {
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		args = "{}"
		c.Arguments = args
	}
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var live func(string, bool)
	if r.hooks.Output != nil {
		// One guard per stream: capture calls live from one goroutine each.
		guards := [2]*stream.TextGuard{r.hooks.Secrets.Guard(), r.hooks.Secrets.Guard()}
		live = func(chunk string, stderr bool) {
			g := guards[0]
			if stderr {
				g = guards[1]
			}
			if chunk = g.Next(chunk); chunk != "" {
				r.hooks.Output(c, chunk, stderr)
			}
		}
	}
	start := time.Now()
	x := runCommand(ctx, f.argv(), f.Dir, commandEnv(r.cfg.hiddenEnv(f.PassAPIKey, f.EnvPassthrough), c), args, timeout, live)
	res := Result{
		Call: c, Output: x.modelOutput(timeout), Stderr: x.Stderr, ExitCode: x.ExitCode,
		Truncated: x.Truncated(), Duration: time.Since(start), Status: x.status(),
	}
	return res
}

func (r *Runner) runMCP(ctx context.Context, t *mcpTool, c Call) Result {
	var progress func(Progress)
	if r.hooks.Progress != nil {
		progress = func(p Progress) {
			p.Message = r.hooks.Secrets.String(p.Message)
			r.hooks.Progress(c, p)
		}
	}
	start := time.Now()
	out, isError, err := r.mcp.call(ctx, t, c.Arguments, progress)
	res := Result{Call: c, ExitCode: -1, Duration: time.Since(start)}
	res.Output, res.Truncated = stream.CutToolResult(out) // the one bound of every tool result
	switch {
	case ctx.Err() != nil:
		res.Status, res.Output = StatusCancelled, CancelledOutput
	case errors.As(err, new(*callTimeoutError)):
		// One line naming the server and the tool, for the model and stderr.
		res.Status, res.Output, res.Notice = StatusTimedOut, "error: "+err.Error(), err.Error()
	case err != nil:
		res.Status, res.Output = StatusFailed, "error: "+err.Error()
	case isError:
		res.Status = StatusFailed
	}
	return res
}

// ended is a result for a call that did not run.
func ended(c Call, s Status, output string) Result {
	return Result{Call: c, Status: s, Output: output, ExitCode: -1}
}

func cancelled(c Call) Result { return ended(c, StatusCancelled, CancelledOutput) }
