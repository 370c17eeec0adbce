package toolrun

// This file is runnel's own run of a function call, as typed data: where it
// stands, how it ended and how long it took; and the record of how runs
// ended that the journal keeps beside a round's outputs, so that a resumed
// session shows the same outcome without reading it out of the text the
// model was sent.

import (
	"encoding/json"
	"fmt"
	"time"
)

// Run is runnel's own run of a call the model made (a function call run on
// this machine). It is the one record that the call's panel (header state,
// duration and body), the chat's status line and the one-shot summary line
// read, so they cannot disagree. The UI keeps one per call_id; it is never
// sent to the model (the call's output item carries the result), and the
// journal keeps only how it ended (EncodeRuns).
//
// Invariants: Started is zero until the call starts running; Took and
// Outcome are set only once Phase is RunEnded.
type Run struct {
	Phase   RunPhase
	Outcome Status        // when ended
	Detail  string        // a progress message while running; once denied, the user's reason (the chat's, not recorded); untrusted
	Started time.Time     // when it started running
	Took    time.Duration // how long it ran, when it ended (0: it never ran, or unknown)
}

// RunPhase is where a run stands.
type RunPhase uint8

const (
	RunWaiting RunPhase = iota // for approval, or for its turn
	RunRunning
	RunEnded
)

// Ended is the run of a call that ended as r says.
func Ended(r Result) Run {
	return Run{Phase: RunEnded, Outcome: r.Status, Took: r.Duration}
}

// State is the one word that says where the run stands: "waiting",
// "running", "completed" for a run that succeeded, else its outcome
// ("failed", "cancelled", "denied", "timed out", "interrupted", "outcome
// unknown"…).
func (r Run) State() string {
	switch r.Phase {
	case RunWaiting:
		return "waiting"
	case RunRunning:
		return "running"
	}
	if r.Outcome == StatusOK {
		return "completed"
	}
	return r.Outcome.String()
}

// Failed reports whether the run ended in an error (as opposed to being
// stopped, denied or skipped by someone, or ending we do not know how).
func (r Run) Failed() bool {
	if r.Phase != RunEnded {
		return false
	}
	switch r.Outcome {
	case StatusFailed, StatusTimedOut, StatusInvalid, StatusUnknown:
		return true
	}
	return false
}

// Elapsed is how long the call has run: to now while it runs, its whole run
// once ended, 0 while waiting or for a run that never started.
func (r Run) Elapsed(now time.Time) time.Duration {
	switch {
	case r.Phase == RunRunning && !r.Started.IsZero() && now.After(r.Started):
		return now.Sub(r.Started)
	case r.Phase == RunEnded:
		return r.Took
	}
	return 0
}

// statusCodes are the stable names a Status is recorded under (String is
// for people and may change).
var statusCodes = map[Status]string{
	StatusOK:          "ok",
	StatusFailed:      "failed",
	StatusInvalid:     "invalid_arguments",
	StatusDenied:      "denied",
	StatusRefused:     "refused",
	StatusTimedOut:    "timed_out",
	StatusCancelled:   "cancelled",
	StatusUnknown:     "unknown_tool",
	StatusSkipped:     "skipped",
	StatusInterrupted: "interrupted",
}

// MarshalText records a status by its stable code. StatusUnrecorded has
// none: it is what a missing record reads as.
func (s Status) MarshalText() ([]byte, error) {
	if c, ok := statusCodes[s]; ok {
		return []byte(c), nil
	}
	return nil, fmt.Errorf("status %v has no recorded form", s)
}

// UnmarshalText reads a code MarshalText wrote.
func (s *Status) UnmarshalText(b []byte) error {
	for st, c := range statusCodes {
		if c == string(b) {
			*s = st
			return nil
		}
	}
	return fmt.Errorf("unknown run outcome %q", b)
}

// runRecord is how one ended run is recorded.
type runRecord struct {
	Outcome Status `json:"outcome"`
	TookMS  int64  `json:"took_ms,omitempty"`
}

// EncodeRuns is the record of the ended runs among runs, for the journal:
// a JSON object by call_id, {"call_1": {"outcome": "timed_out", "took_ms":
// 30000}}. Runs that have not ended, or ended unrecorded, are left out; nil
// when none is left.
func EncodeRuns(runs map[string]Run) json.RawMessage {
	rec := map[string]runRecord{}
	for id, r := range runs {
		if _, ok := statusCodes[r.Outcome]; ok && r.Phase == RunEnded && id != "" {
			rec[id] = runRecord{Outcome: r.Outcome, TookMS: r.Took.Milliseconds()}
		}
	}
	if len(rec) == 0 {
		return nil
	}
	b, _ := json.Marshal(rec) // map keys sorted: the same runs make the same bytes
	return b
}

// DecodeRuns reads EncodeRuns' record back: each call's ended run, typed.
// A record that is not a JSON object gives nothing, and an entry without
// an outcome this runnel knows (a newer one wrote it) is left out, so that
// call reads as unrecorded: nothing is guessed.
func DecodeRuns(raw json.RawMessage) map[string]Run {
	var entries map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &entries) != nil {
		return nil
	}
	runs := map[string]Run{}
	for id, e := range entries {
		var r struct {
			Outcome *Status `json:"outcome"`
			TookMS  int64   `json:"took_ms"`
		}
		if json.Unmarshal(e, &r) != nil || r.Outcome == nil || r.TookMS < 0 {
			continue
		}
		runs[id] = Run{Phase: RunEnded, Outcome: *r.Outcome, Took: time.Duration(r.TookMS) * time.Millisecond}
	}
	return runs
}
