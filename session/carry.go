package session

// This file is what the next request owes the chain: the turns after the
// chain's newest response never reached the server's stored state (stopped
// with esc, interrupted by a kill, cut off), so the next request carries
// their input and their partial output as input items, and every client-side
// call of the chain's response gets an output. Without it the model forgets
// the interrupted prompt, and a call left without an output makes the server
// answer 400 "No tool output found for function call …" for ever.

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"

	"runnel/session/tools"
	"runnel/stream"
)

// Outputs given to calls that never got a real one.
const (
	// InterruptedOutput answers a call that was running when runnel stopped
	// (killed, terminal closed); what the call printed so far follows it.
	InterruptedOutput = "interrupted: runnel stopped before this call finished"
	// NotRunOutput answers a call whose turn ended before it could run.
	NotRunOutput = "not run: the turn ended before this call could run"
)

// OutputStatusRunning marks a function_call_output recorded while its call
// still ran (the API's own item status "in_progress").
const OutputStatusRunning = "in_progress"

// chainTurn finds the turn holding the chain's response: its index (-1 when
// the chain is empty) and the response.
func (c *Conversation) chainTurn() (int, *stream.Snapshot) {
	if c.chainID == "" {
		return -1, nil
	}
	for i := len(c.Turns) - 1; i >= 0; i-- {
		for _, s := range c.Turns[i].Responses {
			if s.ID == c.chainID {
				return i, s
			}
		}
	}
	return -1, nil
}

// carries reports whether a turn that did not move the chain is carried
// whole (its prompt and partial answer) by the next request: it was stopped,
// interrupted or cut off, or refused only because the chain held a call
// without output (a session an older runnel left stuck). A turn the server refused or failed is not: its
// input could be what the server refused, and sending it again would fail
// again. Its tool outputs are carried either way.
func (t *Turn) carries() bool {
	if t.Stopped || t.Interrupted() {
		return true
	}
	if len(t.Responses) == 0 && t.Err != nil && strings.Contains(strings.ToLower(t.Err.Error()), "no tool output found") {
		return true // refused for the chain's open call, not for what it said
	}
	if t.Stored == "" && len(t.Responses) > 0 {
		last := t.Responses[len(t.Responses)-1]
		return last.CutOff && !last.ErrorEvent && last.Status != "failed"
	}
	return false
}

// Carried reports whether the next request carries the last turn whole (its
// prompt and partial answer), for the notice that says so.
func (c *Conversation) Carried() bool {
	k, _ := c.chainTurn()
	return k < len(c.Turns)-1 && c.Turns[len(c.Turns)-1].carries()
}

// carry returns the items the next request sends before input: the last
// unchained turn's input (which holds what the turns before it carried) with
// calls still marked running answered as interrupted, its partial output,
// and an output for every call of the chain's response that nothing answers.
// Outputs that input already holds are left out.
func (c *Conversation) carry(input []json.RawMessage) []json.RawMessage {
	k, resp := c.chainTurn()
	answered := map[string]bool{}
	for _, in := range input {
		if key := answerKey(in); key != "" {
			answered[key] = true
		}
	}
	// outputs for the chain's calls go first, as a round's request sends
	// them; the rest keeps its order (a carried call before its output)
	ofChain := map[string]bool{}
	if resp != nil {
		for _, it := range resp.Items {
			if it.Type == "function_call" && it.CallID != "" {
				ofChain[it.CallID] = true
			}
			if it.Type == "mcp_approval_request" && it.ID != "" {
				ofChain["approval "+it.ID] = true
			}
		}
	}
	var front, rest []json.RawMessage
	if k < len(c.Turns)-1 {
		last := c.Turns[len(c.Turns)-1]
		whole := last.carries()
		for _, in := range last.Input {
			key := answerKey(in)
			switch {
			case key == "" && whole:
				rest = append(rest, in)
			case key == "" || answered[key]:
			case ofChain[key]:
				answered[key] = true
				front = append(front, finishOutput(in))
			case whole: // answers a call carried with it
				answered[key] = true
				rest = append(rest, finishOutput(in))
			}
		}
		if whole {
			rest = append(rest, partialInput(last, answered)...)
		}
	}
	if resp != nil {
		for _, it := range resp.Items {
			if it.Type == "function_call" && ofChain[it.CallID] && !answered[it.CallID] {
				answered[it.CallID] = true
				front = append(front, stream.OutputItem(it.CallID, NotRunOutput))
			}
		}
	}
	return append(front, rest...)
}

// partialInput is a turn's partial output as input items: its assistant
// text as an assistant message, and each finished function call with an
// output saying it did not run. Reasoning and hosted tool items are left
// out: the server cannot resolve them by id from a response it never kept.
func partialInput(t *Turn, answered map[string]bool) []json.RawMessage {
	var out []json.RawMessage
	for _, s := range t.Responses {
		for _, it := range s.Items {
			switch {
			case it.Type == "message" && (it.Role == "" || it.Role == "assistant") && it.Text() != "":
				out = append(out, AssistantText(it.Text()))
			case it.Type == "function_call" && it.Done && it.CallID != "":
				b, _ := json.Marshal(map[string]string{"type": "function_call", "call_id": it.CallID, "name": it.Name, "arguments": it.Arguments})
				out = append(out, b)
				if !answered[it.CallID] {
					answered[it.CallID] = true
					out = append(out, stream.OutputItem(it.CallID, NotRunOutput))
				}
			}
		}
	}
	return out
}

// AssistantText is an assistant message input item holding text.
func AssistantText(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"type": "message", "role": "assistant",
		"content": []map[string]any{{"type": "output_text", "text": text, "annotations": []any{}}},
	})
	return b
}

// RunningOutput is the function_call_output recorded for a call that still
// runs: what it printed so far, with status in_progress. The request never
// carries it as is (see InterruptedText).
func RunningOutput(callID, printed string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "function_call_output", "call_id": callID, "output": printed, "status": OutputStatusRunning})
	return b
}

// InterruptedText is the output of a call that was running when runnel
// stopped, with what it had printed.
func InterruptedText(printed string) string {
	if strings.TrimSpace(printed) == "" {
		return InterruptedOutput
	}
	return InterruptedOutput + "; its output so far:\n" + printed
}

// outputFields are the fields of a function_call_output runnel reads back.
type outputFields struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
	Status string `json:"status"`
}

// answerKey names what an input item answers: a call id for a tool output,
// "approval ID" for an approval response, "" for anything else.
func answerKey(raw json.RawMessage) string {
	id, approval := stream.Answers(raw)
	if approval && id != "" {
		return "approval " + id
	}
	return id
}

// finishOutput turns an output recorded while its call ran into the
// interrupted output; any other item is returned as is.
func finishOutput(raw json.RawMessage) json.RawMessage {
	var f outputFields
	if json.Unmarshal(raw, &f) != nil || f.Type != "function_call_output" || f.Status != OutputStatusRunning {
		return raw
	}
	return stream.OutputItem(f.CallID, InterruptedText(f.Output))
}

// CallState is where a client-side call of the chain's response stands.
type CallState int

const (
	CallUnanswered  CallState = iota // no output recorded: it waited for approval, or never started
	CallInterrupted                  // it was running when runnel stopped
	CallAnswered                     // it has its output
)

// ChainCall is a client-side call of the chain's newest response.
type ChainCall struct {
	Item   *stream.Item
	State  CallState
	Output string // the output recorded (for CallInterrupted, the interrupted text)
	// Run is how runnel's run of the call ended, for CallInterrupted and
	// CallAnswered: StatusInterrupted, or the outcome the round recorded,
	// else StatusUnrecorded (never read from Output).
	Run tools.Run
}

// ChainCalls lists the function calls of the chain's newest response and
// what the turns after it recorded for each: after a resume, the unanswered
// ones are asked about again, the interrupted ones show their output, and
// the answered ones how their run ended.
func (c *Conversation) ChainCalls() []ChainCall {
	k, resp := c.chainTurn()
	if resp == nil {
		return nil
	}
	rec := map[string]outputFields{}
	var runs map[string]tools.Run
	if k < len(c.Turns)-1 {
		runs = c.Turns[len(c.Turns)-1].Runs
		for _, in := range c.Turns[len(c.Turns)-1].Input {
			var f outputFields
			if json.Unmarshal(in, &f) == nil && f.Type == "function_call_output" && f.CallID != "" {
				rec[f.CallID] = f
			}
		}
	}
	var out []ChainCall
	for _, it := range resp.Items {
		if it.Type != "function_call" || it.CallID == "" {
			continue
		}
		cc := ChainCall{Item: it}
		if f, ok := rec[it.CallID]; ok {
			cc.State, cc.Output = CallAnswered, f.Output
			cc.Run = tools.Run{Phase: tools.RunEnded, Outcome: tools.StatusUnrecorded}
			if r, ok := runs[it.CallID]; ok {
				cc.Run = r
			}
			if f.Status == OutputStatusRunning {
				cc.State, cc.Output = CallInterrupted, InterruptedText(f.Output)
				cc.Run = tools.Run{Phase: tools.RunEnded, Outcome: tools.StatusInterrupted}
			}
		}
		out = append(out, cc)
	}
	return out
}

// RoundInput is what a tool round records while it runs: for each call in
// order, its final output, its running output, or nothing while it waits
// for approval; a call listed twice is recorded once.
func RoundInput(callIDs []string, outputs map[string]json.RawMessage) []json.RawMessage {
	var in []json.RawMessage
	done := map[string]bool{}
	for _, id := range callIDs {
		if o := outputs[id]; o != nil && !done[id] {
			done[id] = true
			in = append(in, o)
		}
	}
	return in
}

// maxRepairs bounds how many missing outputs one turn adds before giving up
// (a server that names a new call every time would otherwise loop).
const maxRepairs = 16

var missingOutputRE = regexp.MustCompile("(?i)no tool output found for (?:function |custom tool |tool )?call ['\"`]?([A-Za-z0-9_.:-]+)")

// MissingOutput reports whether err is the server's 400 "No tool output found
// for function call CALL_ID": the chain holds a call that no request
// answered. It returns the call id.
func MissingOutput(err error) (callID string, ok bool) {
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
		return "", false
	}
	m := missingOutputRE.FindStringSubmatch(apiErr.Message)
	if m == nil {
		return "", false
	}
	return strings.TrimRight(m[1], "."), true
}

// Repair adds to t (the last turn) an output for callID, the call the server
// says has none, saying runnel stopped before it finished, and returns the
// request to send again. ok is false when t already answers callID or was
// repaired too often: the caller then falls back to local history or gives
// up.
func (c *Conversation) Repair(t *Turn, callID string) (req stream.Request, ok bool) {
	for _, in := range t.Input {
		if answerKey(in) == callID {
			return t.Request, false
		}
	}
	if t.Repairs >= maxRepairs {
		return t.Request, false
	}
	t.Repairs++
	t.Input = append([]json.RawMessage{stream.OutputItem(callID, InterruptedOutput)}, t.Input...)
	if t.Request.PreviousResponseID != "" {
		t.Request.Input = t.Input
	} else {
		earlier := &Conversation{Turns: c.Turns[:len(c.Turns)-1]}
		t.Request.Input = earlier.FullInput(t.Input...)
	}
	return t.Request, true
}
