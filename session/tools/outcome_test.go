package tools

import (
	"errors"
	"testing"
	"time"
)

// TestOutcomeOf: the outputs runnel writes for calls that did not run or
// did not finish read back as their status; anything else is ok.
func TestOutcomeOf(t *testing.T) {
	for _, c := range []struct {
		out  string
		want Status
	}{
		{execResult{Cancelled: true}.modelOutput(time.Second), StatusCancelled},
		{execResult{Cancelled: true, Stdout: "half"}.modelOutput(time.Second), StatusCancelled},
		{deniedOutput("rm_rf", ""), StatusDenied},
		{refusedOutput("rm_rf"), StatusRefused},
		{execResult{TimedOut: true, Stdout: "partial"}.modelOutput(3 * time.Second), StatusTimedOut},
		{execResult{StartErr: errors.New("no such file")}.modelOutput(0), StatusFailed},
		{execResult{Stdout: "hello"}.modelOutput(0), StatusOK},
		{"the user denied nothing", StatusOK},
	} {
		if got := OutcomeOf(c.out); got != c.want {
			t.Errorf("OutcomeOf(%q) = %v, want %v", c.out, got, c.want)
		}
	}
}
