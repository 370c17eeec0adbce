package tools

// This file drives a Loop and a Runner to the end of one user turn, for a
// caller that can block: the one-shot command (and tests). The TUI makes
// the same calls from its messages instead.

import (
	"context"
	"encoding/json"
	"time"

	"runnel/stream"
)

// Step is one request of a turn.
type Step struct {
	Input []json.RawMessage
	// PreviousResponseID is the response this request continues: "" for
	// the turn's first request (continue the conversation's chain), else
	// the response whose calls Input answers. A session.Conversation
	// chains to the same id by itself; a sender that chains on its own
	// uses this.
	PreviousResponseID string
	Round              int // 0 for the user's message, then 1, 2, …
}

// Sender sends one request and returns its response once it has ended
// (printing or rendering it as it streams is the sender's business). A nil
// snapshot means nothing came back; err says why.
type Sender func(ctx context.Context, step Step) (*stream.Snapshot, error)

// Drive runs one user turn: input goes out (after any outputs owed from a
// cancelled round), then each response's calls run through r and their
// outputs go back, until the model answers without calls, the round cap,
// an error, or ctx ends. done, if not nil, gets each round's results (for
// panels and one-shot stderr notices). It returns the loop's stop notice
// ("" for a plain end) and the error that ended the turn (ctx's when it was
// cancelled; the owed outputs are then kept in l for the next turn).
func Drive(ctx context.Context, l *Loop, r *Runner, input []json.RawMessage, send Sender, done func([]Result)) (stop string, err error) {
	owed := l.Begin(time.Now())
	step := Step{Input: append(owed, input...)}
	for {
		resp, err := send(ctx, step)
		if ctx.Err() != nil {
			l.Cancel(nil, time.Now())
			return "", ctx.Err()
		}
		calls, stop := l.Next(resp, time.Now())
		if err != nil || len(calls) == 0 {
			return stop, err
		}
		results := r.Run(ctx, calls)
		if done != nil {
			done(results)
		}
		if ctx.Err() != nil {
			l.Cancel(results, time.Now())
			return "", ctx.Err()
		}
		in, prev := l.Finish(results, time.Now())
		step = Step{Input: in, PreviousResponseID: prev, Round: l.Round()}
	}
}
