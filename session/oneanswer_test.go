package session_test

import (
	"encoding/json"
	"testing"

	"runnel/session"
	"runnel/stream"
)

// A session an older runnel journaled after it ran a repeated call twice
// (llama.cpp lists the call again in output_item.done and the terminal
// response): the call appears twice and its round sent two outputs. Local
// history, for store = false and for a resend after the server lost the
// chain, answers the call once.
func TestFullInputAnswersEachCallOnce(t *testing.T) {
	call, _ := stream.ItemFromJSON([]byte(`{"type":"function_call","call_id":"fc_1","name":"get_weather","arguments":"{}","status":"completed"}`))
	again, _ := stream.ItemFromJSON([]byte(`{"type":"function_call","call_id":"fc_1","name":"get_weather","arguments":"{}","status":"completed"}`))
	again.Index = 1
	answer, _ := stream.ItemFromJSON([]byte(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"sunny"}]}`))
	done := func(id string, items ...*stream.Item) []*stream.Snapshot {
		return []*stream.Snapshot{{ID: id, Status: "completed", Terminal: true, Items: items}}
	}
	turns := func() []*session.Turn {
		return []*session.Turn{
			{Prompt: "weather?", Input: []json.RawMessage{stream.UserText("weather?")}, Responses: done("resp_1", call, again)},
			{Input: []json.RawMessage{stream.OutputItem("fc_1", "sunny"), stream.OutputItem("fc_1", "sunny")}, Responses: done("resp_2", answer)},
		}
	}
	count := func(in []json.RawMessage) int {
		n := 0
		for _, raw := range in {
			if id, _ := stream.Answers(raw); id == "fc_1" {
				n++
			}
		}
		return n
	}

	c := &session.Conversation{Settings: session.Settings{Model: "m"}, Turns: turns()}
	if n := count(c.FullInput(stream.UserText("and tomorrow?"))); n != 1 {
		t.Errorf("FullInput answers fc_1 %d times", n)
	}
	// an output in extra for a call the history answered is left out too
	if in := c.FullInput(stream.OutputItem("fc_1", "late"), stream.UserText("x")); count(in) != 1 || string(in[len(in)-1]) != string(stream.UserText("x")) {
		t.Errorf("FullInput with a second answer in extra: %s", in)
	}
	// store = false: every request is built from local history
	if n := count(c.Say("and tomorrow?").Request.Input); n != 1 {
		t.Errorf("a store = false request answers fc_1 %d times", n)
	}
	// a resend after the server lost the chain
	c = &session.Conversation{Settings: session.Settings{Model: "m", Store: true}, Turns: turns()}
	c.Finish(c.Turns[1], c.Turns[1].Responses, nil, false)
	tn := c.Say("and tomorrow?")
	if n := count(c.Rebuild(tn).Input); n != 1 {
		t.Errorf("Rebuild answers fc_1 %d times", n)
	}
}

// A round's record lists a call once, however often the stream listed it.
func TestRoundInputRecordsACallOnce(t *testing.T) {
	out := map[string]json.RawMessage{"fc_1": stream.OutputItem("fc_1", "a"), "fc_2": stream.OutputItem("fc_2", "b")}
	in := session.RoundInput([]string{"fc_1", "fc_2", "fc_1"}, out)
	if len(in) != 2 || string(in[0]) != string(out["fc_1"]) || string(in[1]) != string(out["fc_2"]) {
		t.Errorf("RoundInput = %s", in)
	}
}
