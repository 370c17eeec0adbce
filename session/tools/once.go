package tools

// This file keeps a call from running twice. A stream may repeat a call:
// llama.cpp's output_item.done and its terminal response list the
// function_call again, with no item id and no output_index, and a server may
// hand out a call_id again in a later round of the same user turn. Whatever
// the snapshot holds, a Loop hands out each call_id at most once per user
// turn, so the command runs once and the next request carries one output
// for it.

import (
	"encoding/json"
	"fmt"
	"strings"

	"runnel/stream"
)

// pick reads the client-side calls of items, in order of first appearance:
// one per call_id, however often the stream repeated it. A repeat's fields
// replace the earlier copy's (the terminal response's item comes last and is
// the server's final word, its call_id included). A call_id in ran (handed
// out earlier in the user turn) is left out and listed in repeated.
func pick(items []*stream.Item, ran map[string]bool) (calls []Call, repeated []Call) {
	at := map[string]int{}    // call_id → its index in calls
	seen := map[string]bool{} // call_ids in repeated
	for _, it := range items {
		if it.Type != "function_call" || it.CallID == "" || seen[it.CallID] {
			continue
		}
		if i, ok := at[it.CallID]; ok {
			calls[i] = callFromItem(it, i)
			continue
		}
		if ran[it.CallID] {
			seen[it.CallID] = true
			repeated = append(repeated, callFromItem(it, len(repeated)))
			continue
		}
		at[it.CallID] = len(calls)
		calls = append(calls, callFromItem(it, len(calls)))
	}
	return calls, repeated
}

// markRan records that calls were handed out in this user turn.
func (l *Loop) markRan(calls []Call) {
	for _, c := range calls {
		l.markID(c.CallID)
	}
}

func (l *Loop) markID(callID string) {
	if l.ran == nil {
		l.ran = map[string]bool{}
	}
	l.ran[callID] = true
}

// repeatedNotice says that a response held only calls that already ran in
// this user turn, which the loop did not run again.
func repeatedNotice(repeated []Call) string {
	var names []string
	for _, c := range repeated {
		names = append(names, fmt.Sprintf("%s (%s)", c.Name, c.CallID))
	}
	them := "it"
	if len(repeated) > 1 {
		them = "them"
	}
	return fmt.Sprintf("not run again: %s already ran in this turn and the response repeated %s; runnel runs a call once — send a message to continue",
		strings.Join(names, ", "), them)
}

// uniqueOutputs keeps the first output for each call_id of in (and every
// item that is no output), in order: a request never answers a call twice.
func uniqueOutputs(in []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	seen := map[string]bool{}
	for _, raw := range in {
		id, approval := stream.Answers(raw)
		if id != "" && !approval {
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, raw)
	}
	return out
}
