package stream

// This file is how resuming a background response ends when the server
// does not let it finish: too many reconnects or too long without new
// events (resumeLimitError), or a reopened stream that does not go on where
// the last one stopped (resumeOrderError). Each is one line.

import (
	"errors"
	"fmt"
	"time"
)

// resumeLimitError ends a turn whose stream was reopened as often
// (MaxResumes), or went as long without new events (ResumeBudget), as one
// turn may. It unwraps to the last drop's error.
type resumeLimitError struct {
	id      string
	resumes int
	outage  time.Duration
	timeUp  bool // ResumeBudget, not MaxResumes, ran out
	drop    error
}

func (e *resumeLimitError) Error() string {
	why := "the stream kept dropping"
	if errors.Is(e.drop, ErrIdleTimeout) {
		why = "the stream kept going quiet"
	}
	if e.timeUp {
		return fmt.Sprintf("gave up resuming response %s: %s, %s without new events over %d reconnects, so the reply is incomplete — try again later",
			shortID(e.id), why, e.outage.Round(time.Second), e.resumes)
	}
	return fmt.Sprintf("gave up resuming response %s after %d reconnects: %s, so the reply is incomplete — try again later",
		shortID(e.id), e.resumes, why)
}

func (e *resumeLimitError) Unwrap() error { return e.drop }

// resumeOrderError ends a turn whose reopened stream carried another
// response (other), or went back (from last to seq).
type resumeOrderError struct {
	id, other string
	last, seq int64
}

func (e *resumeOrderError) Error() string {
	if e.other != "" {
		return fmt.Sprintf("the resumed stream of response %s carried response %s instead, so runnel stopped it and the reply is incomplete — try again",
			shortID(e.id), shortID(e.other))
	}
	return fmt.Sprintf("the resumed stream of response %s went back from event %d to %d, so runnel stopped it and the reply is incomplete — try again",
		shortID(e.id), e.last, e.seq)
}

// shortID is a server's response id fit for a message.
func shortID(id string) string { return truncateRunes(SanitizeLine(id), 60) }
