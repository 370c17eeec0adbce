package block

import (
	"fmt"
	"time"

	"runnel/stream"
)

// state is where an item's work stands, as a panel or header shows it.
type state uint8

const (
	stateRunning     state = iota // still streaming or working
	stateDone                     // completed
	stateFailed                   // failed, or an MCP call that carries an error
	stateIncomplete               // the server stopped it early
	stateInterrupted              // the response ended before the item finished
)

var stateNames = [...]string{"running", "completed", "failed", "incomplete", "interrupted"}

func (s state) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state?"
}

// stateOf reads an item's state. ended says the response is over, so an item
// that never finished was interrupted.
func stateOf(it *stream.Item, ended bool) state {
	switch it.Status {
	case "failed":
		return stateFailed
	case "incomplete":
		return stateIncomplete
	}
	if it.Type == "mcp_call" && len(it.Error) > 0 {
		return stateFailed
	}
	switch {
	case it.Done || it.Status == "completed":
		return stateDone
	case ended:
		return stateInterrupted
	}
	return stateRunning
}

// timing records when an item was first seen and when it stopped running,
// from the times given to its block's Update. Nothing here reads the clock.
//
// Invariants: start is set by the first observe; end is zero while the item
// runs and, once set, never moves.
type timing struct {
	start time.Time
	end   time.Time
}

func (t *timing) observe(now time.Time, running bool) {
	if t.start.IsZero() {
		t.start = now
	}
	if !running && t.end.IsZero() {
		t.end = now
	}
}

// elapsed is the running time so far (to now) or the whole duration once the
// item stopped.
func (t timing) elapsed(now time.Time) time.Duration {
	end := t.end
	if end.IsZero() {
		end = now
	}
	if t.start.IsZero() || end.Before(t.start) {
		return 0
	}
	return end.Sub(t.start)
}

// spinnerFrames turn once per second at spinnerStep per frame.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerStep = 100 * time.Millisecond

// spinner returns the frame to show at now for something running since
// start: a pure function of the two times.
func spinner(start, now time.Time) string {
	d := now.Sub(start)
	if d < 0 || start.IsZero() {
		d = 0
	}
	return spinnerFrames[int(d/spinnerStep)%len(spinnerFrames)]
}

// duration formats d for a header: "0.4s", "12.3s", "2m05s", "1h02m".
func duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
