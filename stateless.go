package main

// This file is one-shot's side of a server that keeps no conversation state
// (session/stateless.go): a chained request whose server ignored the chain
// (seen at its first response object) or lost or refused it (an HTTP
// error) is sent again once with the history, with one `runnel:` line on
// stderr; a provider that keeps no state is remembered beside the model
// lists, so that the next -c -p sends the history from the start.

import (
	"errors"
	"io"
	"path/filepath"
	"time"

	"runnel/session"
	"runnel/stream"
)

// chainWatch watches one run's chained requests.
//
// Invariants: conv.Stateless is set once the provider is known to keep no
// state (remembered, or found in this run); each turn is sent again at most
// once (session.Turn.Fallback).
type chainWatch struct {
	conv   *session.Conversation
	memory session.StatelessMemory
	key    string
	stderr io.Writer
}

// newChainWatch reads the memory for the provider at baseURL (kept beside
// the history database, when there is a data directory) and makes conv
// send the history from the start when it is known to keep no state.
func newChainWatch(o options, baseURL string, conv *session.Conversation, stderr io.Writer) *chainWatch {
	w := &chainWatch{conv: conv, key: session.ProviderKey(baseURL), stderr: stderr}
	if o.dbPathErr == nil && o.dbPath != "" {
		w.memory.Dir = filepath.Dir(o.dbPath)
	}
	if w.memory.Known(w.key, time.Now()) {
		conv.Stateless = true
	}
	return w
}

// remember marks the conversation stateless, says so and writes it down.
func (w *chainWatch) remember(why string) {
	w.conv.Stateless = true
	warnf(w.stderr, "%s", session.StatelessNotice(session.ProviderName(w.key), why))
	if err := w.memory.Remember(w.key, why, time.Now()); err != nil {
		warnf(w.stderr, "cannot remember it for the next run: %s", errLine(err))
	}
}

// guard is drive's check of turn's first response object: true stops a
// stream whose server ignored the chain. When items were printed before
// the response object said so, the answer stands (it is on stdout), and
// only later turns send the history.
func (w *chainWatch) guard(turn *session.Turn) func(*stream.Snapshot, bool) bool {
	if turn.Request.PreviousResponseID == "" {
		return nil
	}
	return func(s *stream.Snapshot, shown bool) bool {
		if !session.ChainIgnored(turn.Request, s) {
			return false
		}
		w.remember(session.WhyIgnored)
		if shown {
			warnf(w.stderr, "this answer came before the server said so: it may not have seen the earlier turns")
			return false
		}
		return true
	}
}

// resend returns the request that sends turn again with the history, when
// its stream ended with errChainIgnored or its server answered that the
// chain is not found (before any response); ok is false otherwise, and for
// a turn already sent again.
func (w *chainWatch) resend(turn *session.Turn, acc *stream.Accumulator, err error) (req stream.Request, ok bool) {
	if turn.Fallback {
		return stream.Request{}, false
	}
	switch {
	case errors.Is(err, errChainIgnored):
		return w.conv.ResendStateless(turn), true
	case len(acc.Responses()) == 0 && session.ChainLost(err):
		if w.conv.KeepsNoState(turn, err) {
			w.remember(session.StatelessWhy(err))
			return w.conv.ResendStateless(turn), true
		}
		warnf(w.stderr, "the server no longer has the previous response — resending the conversation from local history")
		return w.conv.Rebuild(turn), true
	}
	return stream.Request{}, false
}
