package tools

import "strings"

// OutcomeOf reads how a call ended from the output runnel sent the model
// for it, for a call that ran in an earlier process (a resumed session):
// the outputs of calls that did not run or did not finish start with
// runnel's own words (cancelled, denied, refused, timed out, could not
// run). Anything else is StatusOK: a command's exit status is not told
// apart from what it printed.
func OutcomeOf(output string) Status {
	switch {
	case strings.HasPrefix(output, CancelledOutput):
		return StatusCancelled
	case strings.HasPrefix(output, deniedPrefix):
		return StatusDenied
	case strings.HasSuffix(strings.SplitN(output, "\n", 2)[0], refusedSuffix):
		return StatusRefused
	case strings.HasPrefix(output, timedOutPrefix):
		return StatusTimedOut
	case strings.HasPrefix(output, startFailedPrefix):
		return StatusFailed
	}
	return StatusOK
}

// The fixed parts of the outputs above (the test makes them with the
// functions that write them, so a change to one shows).
var (
	deniedPrefix, _, _  = strings.Cut(deniedOutput("\x00", ""), "\x00")
	_, refusedSuffix, _ = strings.Cut(refusedOutput("\x00"), "\x00")
)

const (
	timedOutPrefix    = "timed out after "
	startFailedPrefix = "runnel could not run the command: "
)
