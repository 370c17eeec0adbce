package main

// This file drives a stream to the end for the one-shot and replay commands:
// it applies every event, hands it to the output format, reports problems on
// stderr one line each, and turns the result into an exit status.

import (
	"context"
	"errors"
	"fmt"
	"io"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/output"
)

// Exit statuses.
const (
	exitOK         = 0
	exitFailure    = 1 // something unexpected (an output write failed)
	exitUsage      = 2 // bad flags, no prompt, unreadable input
	exitIncomplete = 3
	exitFailed     = 4 // response.failed, an error event, or an HTTP/API error
	exitCutOff     = 5 // the stream ended without a terminal event
	exitInterrupt  = 130
)

// errChainIgnored ends a stream whose server ignored previous_response_id
// (see guard in drive).
var errChainIgnored = errors.New("the server ignored previous_response_id")

// drive consumes h until it closes, folding it into acc (whose Limit and
// DropText the caller set). A response that reaches the limit stops the
// stream: nothing after it is applied or printed, and the error returned is
// the *stream.LimitError. The caller closes p when all its streams are done.
//
// guard, when not nil, is asked once, at the first event that brings a
// response object, before that event is printed; shown says whether items
// were printed before it. When it answers true the stream stops there and
// drive returns errChainIgnored: nothing of the stream was printed.
func drive(h *stream.Handle, acc *stream.Accumulator, p output.Printer, stderr io.Writer, guard func(s *stream.Snapshot, shown bool) bool) (*stream.Accumulator, error) {
	var finalErr error
	ended := map[*stream.Snapshot]bool{}
	shown := false
	for b := range h.Chan() {
		if b.Retry != nil {
			warnf(stderr, "%s — %s", retryLine(b.Retry.Err), b.Retry.Next())
		}
		for i := range b.Events {
			if acc.LimitErr() != nil {
				break // reading stopped at the limit
			}
			ev := &b.Events[i]
			it, err := acc.Apply(ev)
			if errors.Is(err, stream.ErrLimit) {
				h.Cancel(err) // the event itself, cut to fit, is still printed
			} else if err != nil {
				warnf(stderr, "warning: %s", errLine(err))
				continue
			}
			if ev.Note != "" { // read leniently: applied, and said once
				warnf(stderr, "warning: %s", stream.SanitizeLine(ev.Note))
			}
			s := acc.Current()
			if guard != nil && s != nil && s.Echoed {
				stop := guard(s, shown)
				guard = nil
				if stop {
					h.Cancel(errChainIgnored)
					for range h.Chan() { // the rest is dropped; wait for the end
					}
					return acc, errChainIgnored
				}
			}
			shown = shown || it != nil
			p.Event(ev, s, it)
			// A response ends on its terminal event; one that an earlier
			// response's successor replaced is reported then too.
			for _, r := range acc.Responses() {
				if r.Terminal && !ended[r] {
					ended[r] = true
					p.Response(r)
				}
			}
		}
		if b.Final {
			finalErr = b.Err
		}
	}
	acc.Finish()
	if le := acc.LimitErr(); le != nil {
		finalErr = le
	}
	for _, r := range acc.Responses() {
		if !ended[r] {
			ended[r] = true
			p.Response(r)
		}
	}
	return acc, finalErr
}

// report prints why a stream ended badly and returns the exit status.
func report(acc *stream.Accumulator, err error, stderr io.Writer) int {
	rs := acc.Responses()
	for _, s := range rs {
		if s.Error != nil && (s.ErrorEvent || s.Status == "failed") {
			warnf(stderr, "response failed: %s", s.Error.Line())
		}
	}
	if s := acc.Current(); s != nil && s.Status == "incomplete" {
		warnf(stderr, "%s", stream.IncompleteText(s.IncompleteDetails))
	}
	var limitErr *stream.LimitError
	switch {
	case errors.As(err, &limitErr):
		warnf(stderr, "%s", session.LimitNotice(limitErr))
		return exitCutOff
	case errors.Is(err, context.Canceled):
		warnf(stderr, "interrupted — partial output above")
		return exitInterrupt
	case err != nil && len(rs) == 0:
		warnf(stderr, "%s", errLine(err))
		return exitFailed
	case err != nil:
		warnf(stderr, "stream broken: %s — the output above is partial", errLine(err))
	}
	for _, s := range rs {
		if s.ErrorEvent || s.Status == "failed" {
			return exitFailed
		}
	}
	if len(rs) == 0 {
		warnf(stderr, "the stream held no response")
		return exitCutOff
	}
	last := rs[len(rs)-1]
	switch {
	case last.CutOff:
		if err == nil {
			warnf(stderr, "%s — the output above is partial", stream.CutOffNote)
		}
		return exitCutOff
	case last.Status == "incomplete":
		return exitIncomplete
	}
	return exitOK
}

func errLine(err error) string {
	if err == nil {
		return "unknown error"
	}
	return stream.SanitizeLine(err.Error())
}

// retryLine is what failed before a retry, without the advice to wait and
// try again that the retry itself follows.
func retryLine(err error) string {
	var apiErr *stream.APIError
	if errors.As(err, &apiErr) {
		return stream.SanitizeLine(apiErr.Brief())
	}
	return errLine(err)
}

func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "runnel: "+format+"\n", args...)
}
