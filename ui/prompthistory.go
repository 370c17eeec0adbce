package ui

// This file is the composer's prompt history beyond this process: the
// prompts of the resumed session and of earlier sessions (from the store),
// recalled with up after this process's own, and searched with the
// HistorySearch dialog. The history child (history.go) loads them and
// posts them to the composer (setPastMsg).

import (
	"runnel/session"
)

// SetPast gives the composer the prompts sent before this process, newest
// first: the resumed session's, then earlier sessions'. Up reaches them
// after this process's prompts; a text in both lists is recalled once, at
// its newest place. Recall starts again from the empty composer.
func (c *Composer) SetPast(past []string) {
	c.past = append([]string(nil), past...)
	c.rebuildHistory()
	c.recall = len(c.history)
}

// rebuildHistory derives history from own and past: newest first, own then
// past, each text once, at most historyMax; then stored oldest first.
func (c *Composer) rebuildHistory() {
	seen := make(map[string]bool, len(c.own)+len(c.past))
	newest := make([]string, 0, min(len(c.own)+len(c.past), historyMax))
	add := func(s string) {
		if s != "" && !seen[s] && len(newest) < historyMax {
			seen[s] = true
			newest = append(newest, s)
		}
	}
	for i := len(c.own) - 1; i >= 0; i-- {
		add(c.own[i])
	}
	for _, p := range c.past {
		add(p)
	}
	c.history = make([]string, 0, len(newest)) // fresh: copies of the composer share no array
	for i := len(newest) - 1; i >= 0; i-- {
		c.history = append(c.history, newest[i])
	}
}

// Recent returns the history newest first, for the history search.
func (c Composer) Recent() []string {
	out := make([]string, len(c.history))
	for i, h := range c.history {
		out[len(c.history)-1-i] = h
	}
	return out
}

// setValueMsg puts text in the composer (through updateComposer, which
// re-lays out when its height changes).
type setValueMsg struct{ text string }

// promptsOf is a conversation's prompts, newest first.
func promptsOf(c *session.Conversation) []string {
	var out []string
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if p := c.Turns[i].Prompt; p != "" {
			out = append(out, p)
		}
	}
	return out
}
