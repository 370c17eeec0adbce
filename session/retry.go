package session

// This file is /retry: asking again for the last answer.

import "errors"

// ErrNothingToRetry is Retry's error before the first turn.
var ErrNothingToRetry = errors.New("nothing to retry yet: send a message first")

// Retry starts a turn that asks again for the last turn's answer: the same
// input, sent from the same previous_response_id, with the current
// settings (so /model then /retry asks another model). Both turns stay in
// the conversation and the history; once the new one completes, the chain
// continues from it and the local history (FullInput) leaves the older
// answer out (store.Session.RebuildInput). Should it fail, the chain stays
// on the older answer. In conversations mode the retry leaves the server's
// conversation, which holds the turn asked again, and chains by id.
func (c *Conversation) Retry() (*Turn, error) {
	if len(c.Turns) == 0 {
		return nil, ErrNothingToRetry
	}
	last := c.Turns[len(c.Turns)-1]
	earlier := &Conversation{Turns: c.Turns[:len(c.Turns)-1]}
	prev := last.Request.PreviousResponseID
	if c.Settings.Conversation != "" {
		// the server's conversation holds the turn asked again: the retry
		// leaves it (as an edit does) and chains from the answer before
		c.Settings.Conversation = ""
		prev = chainOf(earlier.Turns)
	}
	t := c.newTurn(last.Prompt, last.Input, prev, earlier)
	t.Window, t.Retry = last.Window, true
	c.add(t)
	return t, nil
}
