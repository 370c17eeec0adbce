package session_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// inputOf decodes a recorded request's input items.
func inputOf(t *testing.T, r streamtest.Recorded) []map[string]any {
	t.Helper()
	var body struct {
		Input []map[string]any `json:"input"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Input
}

// texts lists the input items as "role: text" or "type call_id: output".
func texts(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		switch it["type"] {
		case "function_call_output":
			out = append(out, "output "+it["call_id"].(string)+": "+it["output"].(string))
		case "function_call":
			out = append(out, "call "+it["call_id"].(string))
		default:
			role, _ := it["role"].(string)
			var text string
			switch c := it["content"].(type) {
			case string:
				text = c
			case []any:
				for _, p := range c {
					pm, _ := p.(map[string]any)
					s, _ := pm["text"].(string)
					text += s
				}
			}
			out = append(out, role+": "+text)
		}
	}
	return out
}

func callStream(respID, callID string) []byte {
	return streamtest.Events(
		`{"type":"response.created","response":{"id":"`+respID+`","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_`+callID+`","name":"echo_args","call_id":"`+callID+`","arguments":"{\"x\":41}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"`+respID+`","status":"completed","output":[]}}`,
	)
}

// TestStoppedTurnIsCarried: a turn stopped with esc never reached the
// server's chain; the next request carries its prompt and its partial answer
// as input items, chained to the last complete response.
func TestStoppedTurnIsCarried(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "half an ", "answer", " NEVER"), DropAfter: 6},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "ok")})
	send(t, c, cl, c.Say("q1"), nil)
	t2 := c.Say("q2")
	send(t, c, cl, t2, nil)
	c.Finish(t2, t2.Responses, nil, true) // as esc leaves it
	if !c.Carried() {
		t.Fatal("a stopped turn is not carried")
	}
	send(t, c, cl, c.Say("q3"), nil)
	r := srv.Requests()[2]
	got := strings.Join(texts(inputOf(t, r)), " | ")
	if r.PreviousResponseID() != "resp_1" || !strings.HasPrefix(got, "user: q2 | assistant: half an") || !strings.HasSuffix(got, "| user: q3") || strings.Contains(got, "NEVER") {
		t.Errorf("third request (prev %q): %s", r.PreviousResponseID(), got)
	}
	// the carried items do not pile up: the next request starts afresh
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "ok")})
	send(t, c, cl, c.Say("q4"), nil)
	if got := texts(inputOf(t, srv.Requests()[3])); len(got) != 1 || got[0] != "user: q4" {
		t.Errorf("fourth request: %q", got)
	}
}

// TestKilledTurnIsCarriedAfterResume: a turn whose process died mid-stream
// is stored streaming; resumed, the next request carries its prompt and the
// partial text that reached the disk.
func TestKilledTurnIsCarriedAfterResume(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first answer")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "saved part", " NEVER"), DropAfter: 5})
	t1 := c.Say("q1")
	send(t, c, cl, t1, j.Begin(t1))
	t2 := c.Say("q2")
	l := j.Begin(t2)
	var acc stream.Accumulator
	for b := range stream.Start(t.Context(), cl, t2.Request).Chan() {
		for i := range b.Events {
			acc.Apply(&b.Events[i])
		}
	}
	l.Note(time.Now().Add(time.Hour), acc.Responses(), func(*stream.Item) bool { return true })
	// no End: the process died here
	j.Close()
	rc, probs := reload(t, db, j.ID())
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if !rc.Turns[1].Interrupted() || !rc.Carried() {
		t.Fatalf("the killed turn: stored %q, carried %v", rc.Turns[1].Stored, rc.Carried())
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_3", "ok")})
	send(t, rc, cl, rc.Say("q3"), nil)
	r := srv.Requests()[2]
	got := strings.Join(texts(inputOf(t, r)), " | ")
	if r.PreviousResponseID() != "resp_1" || got != "user: q2 | assistant: saved part | user: q3" {
		t.Errorf("request after resume (prev %q): %s", r.PreviousResponseID(), got)
	}
}

// TestKilledToolRound: a tool round is recorded as it runs. Killed while a
// call waited for approval, the call is unanswered after a resume; killed
// while it ran, it is interrupted, and the next message sends the
// interrupted output with what the call had printed, chained to the call.
func TestKilledToolRound(t *testing.T) {
	for _, running := range []bool{false, true} {
		srv := streamtest.New(t)
		cl := &stream.Client{BaseURL: srv.URL}
		db := openStore(t)
		c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
		j := session.NewJournal(db, c.Settings)
		srv.Enqueue(streamtest.Reply{SSE: callStream("resp_call", "call_1")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "ok")})
		t1 := c.Say("run it")
		send(t, c, cl, t1, j.Begin(t1))
		round := j.BeginRound("resp_call")
		if running {
			round.SetInput([]json.RawMessage{session.RunningOutput("call_1", "line one\n")})
		}
		j.Close()
		rc, _ := reload(t, db, j.ID())
		calls := rc.ChainCalls()
		want := session.CallUnanswered
		if running {
			want = session.CallInterrupted
		}
		if len(calls) != 1 || calls[0].State != want || calls[0].Item.CallID != "call_1" {
			t.Fatalf("running %v: chain calls %+v", running, calls)
		}
		send(t, rc, cl, rc.Say("what happened?"), nil)
		r := srv.Requests()[1]
		got := strings.Join(texts(inputOf(t, r)), " | ")
		wantOut := "output call_1: " + session.NotRunOutput
		if running {
			wantOut = "output call_1: " + session.InterruptedOutput + "; its output so far:\nline one\n"
		}
		if r.PreviousResponseID() != "resp_call" || got != wantOut+" | user: what happened?" {
			t.Errorf("running %v: request (prev %q): %q", running, r.PreviousResponseID(), got)
		}
		if strings.Contains(string(r.Body), `"in_progress"`) {
			t.Errorf("the running status went to the server: %s", r.Body)
		}
	}
}

// TestRepairMissingToolOutput: a server that answers 400 "No tool output
// found for function call X" gets an output for X with the request sent
// again, and the turn then goes through.
func TestRepairMissingToolOutput(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first")}, missingOutput("call_old"), streamtest.Reply{SSE: streamtest.Text("resp_2", "fine")})
	send(t, c, cl, c.Say("q1"), nil)
	t2 := c.Say("q2")
	send(t, c, cl, t2, nil)
	id, ok := session.MissingOutput(t2.Err)
	if !ok || id != "call_old" {
		t.Fatalf("MissingOutput(%v) = %q, %v", t2.Err, id, ok)
	}
	req, ok := c.Repair(t2, id)
	if !ok {
		t.Fatal("no repair")
	}
	t2.Request = req
	send(t, c, cl, t2, nil)
	if t2.Err != nil || c.ChainID() != "resp_2" {
		t.Fatalf("after the repair: err %v, chain %q", t2.Err, c.ChainID())
	}
	got := strings.Join(texts(inputOf(t, srv.Requests()[2])), " | ")
	if got != "output call_old: "+session.InterruptedOutput+" | user: q2" {
		t.Errorf("repaired request: %s", got)
	}
	if _, ok := c.Repair(t2, "call_old"); ok {
		t.Error("repaired the same call twice")
	}
}

func missingOutput(callID string) streamtest.Reply {
	return streamtest.Reply{Status: 400, Body: []byte(`{"error":{"message":"No tool output found for function call ` + callID + `.","type":"invalid_request_error","param":"input","code":null}}`)}
}

// TestStuckSessionCarriesRefusedPrompt: a session an older runnel left with
// a call and no output had its next prompt refused with 400 "No tool output
// found"; resumed, the calls are unanswered and the next request answers
// them and carries the refused prompt too.
func TestStuckSessionCarriesRefusedPrompt(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: callStream("resp_call", "call_1")}, missingOutput("call_1"), streamtest.Reply{SSE: streamtest.Text("resp_2", "ok")})
	send(t, c, cl, c.Say("run it"), nil)
	t2 := c.Say("hello again")
	t2.Input, t2.Request.Input = t2.Input[1:], t2.Request.Input[1:] // as an older runnel sent it: no output
	send(t, c, cl, t2, nil)
	if calls := c.ChainCalls(); len(calls) != 1 || calls[0].State != session.CallUnanswered {
		t.Fatalf("chain calls: %+v", calls)
	}
	send(t, c, cl, c.Say("and now?"), nil)
	got := strings.Join(texts(inputOf(t, srv.Requests()[2])), " | ")
	if got != "output call_1: "+session.NotRunOutput+" | user: hello again | user: and now?" {
		t.Errorf("request: %s", got)
	}
}

// TestCarriedCallsStayPaired: a stopped turn's finished function call is
// carried with an output saying it did not run, right after it; carried
// again by a later stopped turn, it is neither lost nor doubled.
func TestCarriedCallsStayPaired(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first")},
		streamtest.Reply{SSE: callStream("resp_x", "call_x"), DropAfter: 2},
		streamtest.Reply{SSE: streamtest.Text("resp_y", "some ", "words"), DropAfter: 5},
		streamtest.Reply{SSE: streamtest.Text("resp_z", "ok")})
	send(t, c, cl, c.Say("q1"), nil)
	for _, p := range []string{"qa", "qb"} {
		tt := c.Say(p)
		send(t, c, cl, tt, nil)
		c.Finish(tt, tt.Responses, nil, true)
	}
	send(t, c, cl, c.Say("qc"), nil)
	got := strings.Join(texts(inputOf(t, srv.Requests()[3])), " | ")
	want := "user: qa | call call_x | output call_x: " + session.NotRunOutput + " | user: qb | assistant: some  | user: qc"
	if got != want {
		t.Errorf("request:\n got %s\nwant %s", got, want)
	}
}

// TestMissingOutputForms: the call id is found however the message words
// or quotes it; other 400s are not taken for it.
func TestMissingOutputForms(t *testing.T) {
	for msg, want := range map[string]string{
		"No tool output found for function call call_abc.":    "call_abc",
		"No tool output found for function call 'call_q1'.":   "call_q1",
		"no tool output found for custom tool call `ctc_9`":   "ctc_9",
		"No tool output found for function call fc-1:2.":      "fc-1:2",
		"Invalid value for 'input': something else entirely.": "",
	} {
		got, ok := session.MissingOutput(&stream.APIError{Status: 400, Message: msg})
		if got != want || ok != (want != "") {
			t.Errorf("%q: got %q, %v", msg, got, ok)
		}
	}
	if _, ok := session.MissingOutput(&stream.APIError{Status: 500, Message: "No tool output found for function call x"}); ok {
		t.Error("a 500 taken for a missing output")
	}
}
