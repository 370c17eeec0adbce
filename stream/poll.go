package stream

// This file polls a background response on a server that cannot stream it
// again (GET /responses/{id} until it ends), and turns the fetched final
// object into the terminal event that would have carried it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// errStillRunning is the reason a poll waits.
var errStillRunning = errors.New("the server cannot resume the stream; the response is still running")

// poll fetches the response until it ends, with backoff, at most MaxPolls
// times and for at most PollWindow; its final object is queued as one
// terminal event.
func (r *resumer) poll() {
	base, maxDelay := orDefault(r.c.BaseDelay, defaultBaseDelay), orDefault(r.c.MaxDelay, defaultMaxDelay)
	start := r.clock.Now()
	var cause error = errStillRunning
	checks := 0
	for i := range MaxPolls {
		raw, err := r.c.Retrieve(r.ctx, r.id)
		checks++
		switch {
		case r.ctx.Err() != nil:
			r.finish(context.Cause(r.ctx))
			return
		case err == nil:
			ev, ok, err := r.final(raw)
			if err != nil || ok {
				if ok {
					r.pending = append(r.pending, ev)
					r.ended = true
				}
				r.finish(err)
				return
			}
			cause = errStillRunning
		case !retryable(err):
			r.finish(err)
			return
		default:
			cause = err
		}
		if i == MaxPolls-1 {
			break
		}
		wait := retryWait(cause, i, base, maxDelay, r.clock.Jitter)
		if r.clock.Now().Sub(start)+wait > PollWindow {
			break // the next check would come after the window
		}
		r.notify(RetryInfo{Attempt: i + 1, Max: MaxPolls, Wait: wait, Err: cause, Poll: true})
		if err := r.clock.Sleep(r.ctx, wait); err != nil {
			r.finish(err)
			return
		}
	}
	r.finish(fmt.Errorf("response %s did not finish within %s (%d checks), so the reply is incomplete — try again later",
		SanitizeLine(r.id), PollWindow, checks))
}

// final reads a fetched response object: ok with its terminal event when
// it has ended, an error when it is another response than the one resumed.
func (r *resumer) final(raw json.RawMessage) (ev Event, ok bool, err error) {
	var head struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &head) == nil && head.ID != "" && head.ID != r.id {
		return Event{}, false, &resumeOrderError{id: r.id, other: head.ID}
	}
	ev, ok = terminalEvent(raw, r.secrets)
	return ev, ok, nil
}

// terminalEvent turns a fetched response object that has ended into the
// terminal event that would have carried it; ok is false while it runs.
func terminalEvent(raw json.RawMessage, secrets *Redactor) (Event, bool) {
	var head struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return Event{}, false
	}
	typ := ""
	switch head.Status {
	case "completed":
		typ = "response.completed"
	case "incomplete":
		typ = "response.incomplete"
	case "failed", "cancelled":
		typ = "response.failed"
	default:
		return Event{}, false
	}
	var b strings.Builder
	b.WriteString("event: " + typ + "\ndata: {\"type\":\"" + typ + "\",\"response\":")
	b.Write(compactJSON(raw))
	b.WriteString("}\n\n")
	d := NewDecoder(strings.NewReader(b.String()))
	d.SetRedactor(secrets)
	if !d.Next() {
		return Event{}, false
	}
	return *d.Event(), true
}

// compactJSON puts a JSON value on one line (an SSE data line cannot hold
// a newline); raw is valid JSON (Retrieve checked it).
func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return bytes.ReplaceAll(raw, []byte("\n"), []byte(" "))
	}
	return buf.Bytes()
}
