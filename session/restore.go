package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"runnel/session/knob"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
)

// FromStore rebuilds a conversation from a stored session: every turn with
// its input and its responses' items as received, and the chain at the last
// stored response that completed or ended incomplete. Items that fail to
// decode are skipped and reported; the rest loads. The path is the
// session's (Turns, to its tip); the other branches' turns (Off) are kept
// beside it, each after its parent.
func FromStore(s *store.Session) (*Conversation, []error) {
	c := &Conversation{Settings: knob.FromJSON(s.Settings), chainID: s.LastResponseID()}
	probs := c.loadTurns(s.Turns, &c.Turns)
	probs = append(probs, c.loadTurns(s.Off, &c.off)...)
	bySeq := map[int]*Turn{}
	for _, t := range c.All() {
		bySeq[t.order] = t
	}
	for _, t := range c.All() {
		t.Parent = bySeq[t.parentSeq]
	}
	c.restoreWindow(s.Compacted)
	return c, probs
}

// loadTurns rebuilds stored turns into *into.
func (c *Conversation) loadTurns(turns []store.Turn, into *[]*Turn) []error {
	var probs []error
	for i, st := range turns {
		t := &Turn{Prompt: st.Prompt, Input: st.Input, Stored: st.Status, Window: windowLen(st.Input), Row: st.ID, Background: st.Background, Runs: tools.DecodeRuns(st.Runs)}
		t.Retry = i > 0 && st.Retries(&turns[i-1]) && turns[i-1].Seq == st.Parent
		t.order, t.parentSeq = st.Seq, st.Parent
		c.made = max(c.made, st.Seq)
		t.Request.PreviousResponseID = st.PreviousResponseID
		// A stream cut off before its response finished is not an error
		// that ended the turn: it comes back as it was live, the last
		// response cut off.
		cutOff := st.Status == store.StatusFailed && st.Error == stream.CutOffNote
		if st.Error != "" && !cutOff {
			t.Err = errors.New(st.Error)
		}
		t.Stopped = st.Status == store.StatusStopped
		for ri, r := range st.Responses {
			snap := &stream.Snapshot{ID: r.ID, Status: string(st.Status)}
			if ri < len(st.ResponseIDs) && snap.ID == "" {
				snap.ID = st.ResponseIDs[ri]
			}
			switch {
			case cutOff && ri == len(st.Responses)-1:
				snap.CutOff, snap.Status = true, "in_progress"
			case st.Status == store.StatusCompleted, st.Status == store.StatusIncomplete, st.Status == store.StatusFailed:
				snap.Terminal = true
			default:
				snap.CutOff, snap.Status = true, "in_progress"
			}
			for _, raw := range r.Items {
				it, err := stream.ItemFromJSON(raw.Raw)
				if err != nil {
					probs = append(probs, fmt.Errorf("turn %d, item %d: %w — skipped", st.Seq, raw.OutputIndex, err))
					continue
				}
				it.Index = raw.OutputIndex
				if !raw.Done {
					it.Done, it.Status = false, "incomplete"
				}
				snap.Items = append(snap.Items, it)
			}
			t.Responses = append(t.Responses, snap)
		}
		if n := len(t.Responses); n > 0 && len(st.Usage) > 0 {
			var u turnUsage
			if json.Unmarshal(st.Usage, &u) == nil {
				t.Responses[n-1].Usage = &u.Usage // the turn's usage, for the status line
				if t.Responses[n-1].Model == "" {
					t.Responses[n-1].Model = u.Model // the model that answered, for its price
				}
				t.Responses[n-1].ServiceTier = u.ServiceTier // the tier it ran on, for its price too
			}
		}
		*into = append(*into, t)
	}
	return probs
}

// restoreWindow makes a stored compacted window the start of the model's
// context again, as Compacted did, unless a turn that sent it has since
// chained (a response to it finished): the turns at the end that sent it
// are the ones since the compaction.
func (c *Conversation) restoreWindow(window []json.RawMessage) {
	if windowLen(window) == 0 {
		return
	}
	last := window[windowLen(window)-1] // its newest compaction item
	at := len(c.Turns)
	for at > 0 && slices.ContainsFunc(c.Turns[at-1].Input[:c.Turns[at-1].Window], func(raw json.RawMessage) bool { return bytes.Equal(raw, last) }) {
		at--
	}
	for _, t := range c.Turns[at:] {
		if t.Stored == store.StatusCompleted || t.Stored == store.StatusIncomplete {
			return // the chain holds it now
		}
	}
	c.window = append([]json.RawMessage(nil), window...)
	c.windowAt, c.chainID = at, ""
}

// Window is the compacted window the next request sends instead of the
// chain, nil when there is none.
func (c *Conversation) Window() []json.RawMessage { return c.window }

// Interrupted reports whether a stored turn was cut short by the process
// dying (it shows as "interrupted").
func (t *Turn) Interrupted() bool {
	return t.Stored == store.StatusInterrupted || t.Stored == store.StatusStreaming
}
