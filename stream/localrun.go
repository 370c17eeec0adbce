package stream

import "time"

// LocalRun is runnel's own run of a call the model made (a function call
// run on this machine): where it stands, how it ended and how long it took.
// It is the one record that the call's panel (header state, duration and
// body), the chat's status line and the one-shot summary line read, so they
// cannot disagree. It is never sent or stored: the call's output item
// carries the result to the model.
//
// Invariants: Started is zero until the call starts running; Took and
// Outcome are set only once Phase is RunEnded.
type LocalRun struct {
	Phase   RunPhase
	Outcome string        // when ended: "ok", "failed", "cancelled", "denied", "timed out", "interrupted", …
	Detail  string        // a progress message while running; untrusted
	Started time.Time     // when it started running
	Took    time.Duration // how long it ran, when it ended (0: it never ran, or unknown)
}

// RunPhase is where a local run stands.
type RunPhase uint8

const (
	RunWaiting RunPhase = iota // for approval, or for its turn
	RunRunning
	RunEnded
)

// State is the one word that says where the run stands: "waiting",
// "running", "completed" for a run that succeeded, else its outcome.
func (r *LocalRun) State() string {
	switch r.Phase {
	case RunWaiting:
		return "waiting"
	case RunRunning:
		return "running"
	}
	switch r.Outcome {
	case "ok", "":
		return "completed"
	}
	return r.Outcome
}

// Failed reports whether the run ended in an error (as opposed to being
// stopped, denied or skipped by someone).
func (r *LocalRun) Failed() bool {
	if r.Phase != RunEnded {
		return false
	}
	switch r.Outcome {
	case "failed", "timed out", "invalid arguments", "unknown tool":
		return true
	}
	return false
}

// Elapsed is how long the call has run: to now while it runs, its whole run
// once ended, 0 while waiting or for a run that never started.
func (r *LocalRun) Elapsed(now time.Time) time.Duration {
	switch {
	case r.Phase == RunRunning && !r.Started.IsZero() && now.After(r.Started):
		return now.Sub(r.Started)
	case r.Phase == RunEnded:
		return r.Took
	}
	return 0
}
