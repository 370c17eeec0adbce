package ui

// This file is the chat's side of background responses (background = true):
// the reconnect and poll notices, the fallback to foreground mode, and
// cancelling a stopped response on the server.

import (
	"errors"
	"fmt"
	"time"

	"runnel/stream"
)

// cancelTimeout bounds the cancel request esc sends for a background
// response.
const cancelTimeout = 10 * time.Second

// retryText is the countdown line of a retry notice: a retry before the
// first byte, a background stream reconnecting, or a poll of a server that
// cannot resume streams.
func retryText(r *stream.RetryInfo) string {
	switch {
	case r.Resume:
		why := retryReason(r.Err)
		switch {
		case errors.Is(r.Err, stream.ErrIdleTimeout):
			why = "the stream went quiet"
		case r.Attempt == 1:
			why = "the stream dropped"
		}
		return fmt.Sprintf("%s — reconnecting %d/%d", why, r.Attempt, r.Max)
	case r.Poll:
		return fmt.Sprintf("%s — checking %d/%d", retryReason(r.Err), r.Attempt, r.Max)
	}
	return fmt.Sprintf("%s — retry %d of %d", retryReason(r.Err), r.Attempt, r.Max)
}

// endReattach settles a attach turn when its stream ends: an answer the
// server finished is no longer an interrupted turn; one that could not be
// picked up (the response expired, the server is gone) stays interrupted,
// so the next message still carries its prompt and partial answer.
func (t *turn) endReattach() {
	if s := t.acc.Current(); t.bg.attach && s != nil && s.Terminal {
		t.sess.Stored = ""
	}
}

// noteBackground tracks the background response a batch moved, for the
// journal: a runnel killed now reattaches after bgSeq.
func (t *turn) noteBackground(ev *stream.Event) {
	if !t.req.Background {
		return
	}
	if ev.Response != nil && ev.Response.ID != "" {
		t.bg.id = ev.Response.ID
	}
	if ev.HasSeq && ev.Seq > t.bg.seq {
		t.bg.seq = ev.Seq
	}
}

// resumeOutcome words how a reconnect or poll notice settles; other retry
// notices keep outcome.
func resumeOutcome(t *turn, outcome string) string {
	if !t.retry.reconn {
		return outcome
	}
	switch outcome {
	case "the retry worked":
		if t.retry.polling {
			return "the response ended"
		}
		return "reconnected"
	case "failed":
		return "could not reconnect"
	}
	return outcome
}

// retryReason is what failed, without advice to wait and try again (runnel
// is retrying on its own) or what to check (the failure says it, if the
// retries run out): an error's Brief when it has one.
func retryReason(err error) string {
	var brief interface{ Brief() string }
	if errors.As(err, &brief) {
		return stream.SanitizeLine(brief.Brief())
	}
	return stream.SanitizeLine(err.Error())
}
