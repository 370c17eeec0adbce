package session

import (
	"encoding/json"
	"errors"
	"fmt"

	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
)

// FromStore rebuilds a conversation from a stored session: every turn with
// its input and its responses' items as received, and the chain at the last
// stored response that completed or ended incomplete. Items that fail to
// decode are skipped and reported; the rest loads.
func FromStore(s *store.Session) (*Conversation, []error) {
	c := &Conversation{Settings: SettingsFromJSON(s.Settings), chainID: s.LastResponseID()}
	var probs []error
	for _, st := range s.Turns {
		t := &Turn{Prompt: st.Prompt, Input: st.Input, Stored: st.Status, Window: windowLen(st.Input), Row: st.ID, Background: st.Background, Runs: tools.DecodeRuns(st.Runs)}
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
			}
		}
		c.Turns = append(c.Turns, t)
	}
	return c, probs
}

// Interrupted reports whether a stored turn was cut short by the process
// dying (it shows as "interrupted").
func (t *Turn) Interrupted() bool {
	return t.Stored == store.StatusInterrupted || t.Stored == store.StatusStreaming
}
