package toolrun

import (
	"encoding/json"
	"testing"
	"time"
)

// TestRunState: a run says where it stands in one word, its outcome's
// once ended ("completed" for ok), and only errors count as failed.
func TestRunState(t *testing.T) {
	if s := (Run{Phase: RunWaiting}).State(); s != "waiting" {
		t.Errorf("waiting: %q", s)
	}
	if s := (Run{Phase: RunRunning}).State(); s != "running" {
		t.Errorf("running: %q", s)
	}
	for _, c := range []struct {
		status Status
		state  string
		failed bool
	}{
		{StatusOK, "completed", false},
		{StatusFailed, "failed", true},
		{StatusInvalid, "invalid arguments", true},
		{StatusDenied, "denied", false},
		{StatusRefused, "refused", false},
		{StatusTimedOut, "timed out", true},
		{StatusCancelled, "cancelled", false},
		{StatusUnknown, "unknown tool", true},
		{StatusSkipped, "skipped", false},
		{StatusInterrupted, "interrupted", false},
		{StatusUnrecorded, "outcome unknown", false},
	} {
		r := Ended(Result{Status: c.status, Duration: 2 * time.Second})
		if r.State() != c.state || r.Failed() != c.failed || r.Elapsed(time.Time{}) != 2*time.Second {
			t.Errorf("%v: state %q failed %v took %v; want %q %v 2s", c.status, r.State(), r.Failed(), r.Elapsed(time.Time{}), c.state, c.failed)
		}
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if d := (Run{Phase: RunRunning, Started: start}).Elapsed(start.Add(1500 * time.Millisecond)); d != 1500*time.Millisecond {
		t.Errorf("running elapsed %v", d)
	}
}

// TestRunsRecordRoundTrip: every outcome a run can end with is recorded
// by a stable code and read back typed, with its duration; runs that did
// not end, or whose outcome was never recorded, are not recorded.
func TestRunsRecordRoundTrip(t *testing.T) {
	runs := map[string]Run{
		"waits":   {Phase: RunWaiting},
		"runs":    {Phase: RunRunning, Started: time.Now()},
		"unknown": {Phase: RunEnded, Outcome: StatusUnrecorded},
	}
	for s := StatusOK; s < StatusUnrecorded; s++ {
		runs[s.String()] = Run{Phase: RunEnded, Outcome: s, Took: time.Duration(s) * time.Second}
	}
	raw := EncodeRuns(runs)
	got := DecodeRuns(raw)
	for id, r := range runs {
		back, ok := got[id]
		ended := r.Phase == RunEnded && r.Outcome != StatusUnrecorded
		if ok != ended || ok && back != r {
			t.Errorf("%s: read back %+v (%v), want %+v", id, back, ok, r)
		}
	}
	if string(EncodeRuns(runs)) != string(raw) {
		t.Error("the same runs encode differently")
	}
	if EncodeRuns(map[string]Run{"x": {Phase: RunRunning}}) != nil {
		t.Error("a record with nothing ended is not nil")
	}
	var codes map[string]struct{ Outcome string }
	if err := json.Unmarshal(raw, &codes); err != nil || codes["timed out"].Outcome != "timed_out" || codes["ok"].Outcome != "ok" {
		t.Errorf("codes %v (%v)", codes, err)
	}
}

// TestDecodeRunsGuessesNothing: a damaged record, an entry without an
// outcome, with one a newer runnel wrote, or with a negative duration is
// left out: that call reads as unrecorded, never as ok.
func TestDecodeRunsGuessesNothing(t *testing.T) {
	for _, bad := range []string{``, `null`, `[]`, `{"c":`, `"ok"`} {
		if got := DecodeRuns(json.RawMessage(bad)); len(got) != 0 {
			t.Errorf("DecodeRuns(%q) = %v", bad, got)
		}
	}
	got := DecodeRuns(json.RawMessage(`{"a":{},"b":{"outcome":"exploded"},"c":{"outcome":"ok","took_ms":-5},"d":7,"e":{"outcome":"denied"}}`))
	if len(got) != 1 || got["e"] != (Run{Phase: RunEnded, Outcome: StatusDenied}) {
		t.Errorf("got %+v, want only e, denied", got)
	}
}
