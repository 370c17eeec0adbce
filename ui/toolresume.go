package ui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// This file is the tools child's resume: it takes up a tool round that a
// killed runnel left open, from the journal: the record of which calls
// already ran. A call the journal says ran (answered, interrupted, or
// answered by an earlier round of the same user turn) never runs again.

// resumeCalls takes up the calls a resumed session's chain left open
// (runnel was killed or its terminal closed during a tool round): a call that
// waited for approval is asked about again; a call that was running shows
// the interrupted output with what it had printed, which goes with the next
// message (see session.Conversation.ChainCalls). A call_id listed twice is
// one call, and one an earlier round of the user turn answered is not run
// again. conv is the resumed conversation, j its journal (nil: none);
// canSend is false in a replay, where nothing is taken up.
func (k *toolKit) resumeCalls(conv *session.Conversation, canSend bool, j *session.Journal, f *frameState) tea.Cmd {
	ccs := conv.ChainCalls()
	if len(ccs) == 0 || !canSend {
		return nil
	}
	ask := map[string]bool{}
	seen := map[string]bool{}
	var interrupted []string
	var resp *stream.Snapshot
	for _, cc := range ccs {
		it := cc.Item
		if resp == nil {
			resp = snapshotOf(conv.Turns, it)
		}
		if seen[it.CallID] {
			continue
		}
		seen[it.CallID] = true
		switch cc.State {
		case session.CallUnanswered:
			ask[it.CallID] = true
		case session.CallInterrupted:
			interrupted = append(interrupted, stream.SanitizeLine(it.Name))
			it.Output, _ = json.Marshal(cc.Output)
			k.setRun(it, cc.Run, f) // interrupted
			f.post(panelChangedMsg{it})
		case session.CallAnswered:
			if it.Output == nil {
				it.Output, _ = json.Marshal(cc.Output)
				// ran in an earlier process: its header says how, as its round
				// recorded it (unrecorded in a session an older runnel saved)
				k.setRun(it, cc.Run, f)
				f.post(panelChangedMsg{it})
			}
		}
	}
	if len(interrupted) > 0 {
		f.post(noticeMsg{block.Warning, "interrupted — runnel stopped while " + strings.Join(interrupted, ", ") + " ran; the output it had printed is kept and goes to the model with your next message"})
	}
	if len(ask) == 0 || resp == nil {
		f.post(toolFramesMsg{}) // the panels given their outputs redraw
		return nil
	}
	ran := ranBefore(conv.Turns, resp)
	for id := range seen {
		if !ask[id] {
			ran = append(ran, id)
		}
	}
	calls := k.round.loop.Resume(resp, ran, f.clock())
	if len(calls) == 0 {
		f.post(toolFramesMsg{})
		return nil
	}
	// the resumed round's record starts with the outputs the others have
	seed := map[string]json.RawMessage{}
	for _, cc := range ccs {
		if cc.State != session.CallUnanswered {
			seed[cc.Item.CallID] = stream.OutputItem(cc.Item.CallID, cc.Output)
		}
	}
	cmd := k.runRound([]*stream.Snapshot{resp}, resp.ID, calls, seed, j, f)
	for _, cc := range ccs { // the new record keeps how the seeded calls ended, too
		if cc.State != session.CallUnanswered {
			k.record.ran(cc.Item.CallID, cc.Run)
		}
	}
	return cmd
}

// ranBefore lists the call_ids that the rounds of resp's user turn before
// resp answered, as the journal recorded them: the inputs of the turns
// after the one the user's message started, up to the turn holding resp.
func ranBefore(turns []*session.Turn, resp *stream.Snapshot) []string {
	at := -1
	for i := len(turns) - 1; i >= 0 && at < 0; i-- {
		for _, s := range turns[i].Responses {
			if s == resp {
				at = i
			}
		}
	}
	var ran []string
	for i := at; i > 0 && !startsUserTurn(turns[i]); i-- {
		for _, in := range turns[i].Input {
			if id, approval := stream.Answers(in); id != "" && !approval {
				ran = append(ran, id)
			}
		}
	}
	return ran
}

// startsUserTurn reports whether t sent a user's message (not a tool
// round's outputs or approval answers).
func startsUserTurn(t *session.Turn) bool {
	if t.Prompt != "" {
		return true
	}
	for _, in := range t.Input {
		var f struct {
			Role string `json:"role"`
		}
		if json.Unmarshal(in, &f) == nil && f.Role == "user" {
			return true
		}
	}
	return false
}

// snapshotOf finds the response of turns holding it.
func snapshotOf(turns []*session.Turn, it *stream.Item) *stream.Snapshot {
	for i := len(turns) - 1; i >= 0; i-- {
		for _, s := range turns[i].Responses {
			for _, x := range s.Items {
				if x == it {
					return s
				}
			}
		}
	}
	return nil
}
