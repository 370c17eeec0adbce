package main

// This file is -p's side of the turn engine (session/engine.go): it does,
// with blocking calls, what the engine answers, and prints its lines on
// stderr. The rules (what is sent again, and what is remembered) are the
// engine's.

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"time"

	"runnel/session"
	"runnel/stream"
)

// providerMemory is where what a provider refuses is remembered: beside
// the history database (as the chat's, beside the model lists).
func providerMemory(o options) session.ProviderMemory {
	if o.dbPathErr == nil && o.dbPath != "" {
		return session.ProviderMemory{Dir: filepath.Dir(o.dbPath)}
	}
	return session.ProviderMemory{}
}

// sendFunc streams one request of the turn; guard is drive's check of the
// first response object.
type sendFunc func(req stream.Request, guard func(*stream.Snapshot, bool) bool) (*stream.Accumulator, error)

// runTurn sends the turn as the engine's first action a says, and again
// as long as it answers Resend; the engine records the turn in its
// conversation when it ends. It returns the last stream and its error.
func runTurn(ctx context.Context, engine *session.Engine, a session.Action, send sendFunc, log *session.TurnLog, turn *session.Turn, say func([]session.Notice)) (*stream.Accumulator, error) {
	var acc *stream.Accumulator
	var err error
	for a.Kind == session.Send || a.Kind == session.Resend {
		say(a.Notices)
		if a.InputChanged && log != nil {
			log.SetInput(turn.Input)
		}
		var again *session.Action
		acc, err = send(a.Request, func(s *stream.Snapshot, shown bool) bool {
			next := engine.Next(session.Event{Kind: session.Created, Snapshot: s, Shown: shown, Now: time.Now()})
			if next.Kind == session.Resend {
				again = &next // nothing of this stream was printed
				return true
			}
			say(next.Notices)
			return false
		})
		if again != nil && errors.Is(err, errChainIgnored) {
			a = *again
			continue
		}
		a = engine.Next(session.Event{Kind: session.Ended, Responses: acc.Responses(), Err: err, Stopped: errors.Is(err, context.Canceled), Now: time.Now()})
	}
	say(a.Notices)
	return acc, err
}

// sayOn prints the engine's lines on stderr.
func sayOn(stderr io.Writer) func([]session.Notice) {
	return func(notices []session.Notice) {
		for _, n := range notices {
			warnf(stderr, "%s", n.Text)
		}
	}
}
