package ui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestDenyReasonReachesModel: denying a local call with d and a typed
// reason shows the reason and sends it to the model in the call's
// function_call_output, as a hosted MCP denial does.
func TestDenyReasonReachesModel(t *testing.T) {
	srv := streamtest.New(t)
	tl, _ := blockingTool(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...)})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_after", "ok")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl})
	d := newDriver(t, m)
	d.send(SubmitMsg{Text: "run it"})
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	d.send(tea.KeyPressMsg{Code: 'd', Text: "d"})
	for _, r := range "no thanks" {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until("the answer", func() bool { return len(srv.Requests()) == 2 && m.cur == nil && m.status.State == Idle })
	if v := plain(m); !strings.Contains(v, "denied: no thanks") {
		t.Errorf("the reason is not shown:\n%s", v)
	}
	var body struct {
		Input []struct {
			Type   string `json:"type"`
			Output string `json:"output"`
		} `json:"input"`
	}
	r := srv.Requests()[1]
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, in := range body.Input {
		if in.Type == "function_call_output" {
			found = true
			if !strings.Contains(in.Output, "denied") || !strings.Contains(in.Output, `"no thanks"`) {
				t.Errorf("function_call_output = %q, want the denial with the reason", in.Output)
			}
		}
	}
	if !found {
		t.Errorf("no function_call_output in %s", r.Body)
	}
}
