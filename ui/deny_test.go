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
// reason shows "denied: <reason>" once, on the call's panel, and sends the
// reason to the model in the call's function_call_output, as a hosted MCP
// denial does.
func TestDenyReasonReachesModel(t *testing.T) {
	t.Parallel()
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
	d.until("the answer", func() bool { return len(srv.Requests()) == 2 && m.turns.cur == nil && m.statusBar.status.State == Idle })
	v := plain(m)
	if strings.Count(v, "denied: no thanks") != 1 {
		t.Errorf("the reason is not shown once:\n%s", v)
	}
	for l := range strings.Lines(v) {
		if strings.Contains(l, "denied: no thanks") && !strings.HasPrefix(l, "│") {
			t.Errorf("the reason is shown outside the call's panel: %q\n%s", l, v)
		}
	}
	if strings.Contains(v, "The user denied") {
		t.Errorf("the panel shows the words meant for the model:\n%s", v)
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
