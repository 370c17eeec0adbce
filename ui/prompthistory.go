package ui

// This file is the composer's recall part: the prompts up and down bring
// back, this process's own and those sent before it (the resumed session's
// and earlier sessions', from the store), also searched with the
// HistorySearch dialog. The history child (history.go) loads the earlier
// ones and posts them to the composer (setPastMsg).

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"runnel/session"
)

// recall is what up and down bring back.
//
// Invariants: 0 ≤ at ≤ len(history); at == len(history) means not
// recalling. history is derived from own and past (rebuild): newest first
// own then past, each text once, at most historyMax, stored oldest first.
type recall struct {
	history []string // what up/down recall, oldest first
	own     []string // prompts and commands sent from this composer, oldest first
	past    []string // prompts sent before this process, newest first (setPast)
	at      int      // history index being shown
}

// remember adds a sent text to the history as its newest entry and leaves
// recall.
func (r *recall) remember(text string) {
	if n := len(r.own); n == 0 || r.own[n-1] != text {
		r.own = append(r.own, text)
		if len(r.own) > historyMax {
			r.own = append(r.own[:0:0], r.own[len(r.own)-historyMax:]...)
		}
	}
	r.rebuild()
	r.reset()
}

// setPast gives the recall the prompts sent before this process, newest
// first: the resumed session's, then earlier sessions'. Up reaches them
// after this process's prompts; a text in both lists is recalled once, at
// its newest place. Recall starts again from the empty composer.
func (r *recall) setPast(past []string) {
	r.past = append([]string(nil), past...)
	r.rebuild()
	r.reset()
}

// rebuild derives history from own and past.
func (r *recall) rebuild() {
	seen := make(map[string]bool, len(r.own)+len(r.past))
	newest := make([]string, 0, min(len(r.own)+len(r.past), historyMax))
	add := func(s string) {
		if s != "" && !seen[s] && len(newest) < historyMax {
			seen[s] = true
			newest = append(newest, s)
		}
	}
	for i := len(r.own) - 1; i >= 0; i-- {
		add(r.own[i])
	}
	for _, p := range r.past {
		add(p)
	}
	r.history = make([]string, 0, len(newest)) // fresh: copies of the composer share no array
	for i := len(newest) - 1; i >= 0; i-- {
		r.history = append(r.history, newest[i])
	}
}

// reset leaves recall: the next up starts from the newest entry.
func (r *recall) reset() { r.at = len(r.history) }

// recalling reports whether an entry is shown.
func (r recall) recalling() bool { return r.at < len(r.history) }

// show moves to entry i and returns its text; i == len(history) is the
// empty composer.
func (r *recall) show(i int) string {
	r.at = max(0, min(i, len(r.history)))
	if r.at == len(r.history) {
		return ""
	}
	return r.history[r.at]
}

// key takes up (prev) and down (next) when a recall step applies, and
// puts the entry they reach in ta; it reports whether it did. Up recalls
// from the empty composer or the first line of a recalled entry; down
// moves on from the last line of one, past the newest to the empty
// composer.
func (r *recall) key(k tea.KeyPressMsg, prev, next key.Binding, ta *textarea.Model) bool {
	switch {
	case key.Matches(k, prev):
		if r.at > 0 && (ta.Value() == "" || r.recalling() && ta.Line() == 0) {
			ta.SetValue(r.show(r.at - 1))
			return true
		}
	case key.Matches(k, next):
		if r.recalling() && ta.Line() == ta.LineCount()-1 {
			if text := r.show(r.at + 1); r.recalling() {
				ta.SetValue(text)
			} else {
				ta.Reset()
			}
			return true
		}
	}
	return false
}

// recent returns the history newest first, for the history search.
func (r recall) recent() []string {
	out := make([]string, len(r.history))
	for i, h := range r.history {
		out[len(r.history)-1-i] = h
	}
	return out
}

// Recent returns the history newest first, for the history search.
func (c Composer) Recent() []string { return c.hist.recent() }

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
