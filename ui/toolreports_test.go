package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestRoundEndIsReportedToTheRoot: the tools child ends a round by
// reporting, not by reaching into the root: handed the runner's result, it
// posts the panels' redraw, the status and last ToolsSettledMsg with the
// round's outputs, and no turn begins. Routed, that message starts the next
// turn, which sends the output once and gets the answer.
func TestRoundEndIsReportedToTheRoot(t *testing.T) {
	t.Parallel()
	tl, runs := countingTool(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(weatherCallEvents("resp_call")...)},
		streamtest.Reply{SSE: streamtest.Text("resp_after", "It is sunny.")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "weather in Paris?"})
	done := awaitMsg[toolDoneMsg](d, "the round's result")

	if cmd := m.tools.Update(done, m.frame); cmd != nil {
		t.Error("the round's end returned a Cmd; it reports through messages")
	}
	posted := m.frame.outbox
	m.frame.outbox = nil
	settled, ok := posted[len(posted)-1].(ToolsSettledMsg)
	if !ok {
		t.Fatalf("the last report is %T, want ToolsSettledMsg: %#v", posted[len(posted)-1], posted)
	}
	if m.turns.cur != nil || len(srv.Requests()) != 1 || m.tools.busy() {
		t.Fatalf("before the root routed the report: turn %v, %d requests, round running %v", m.turns.cur != nil, len(srv.Requests()), m.tools.busy())
	}
	if len(settled.input) != 1 || !strings.Contains(string(settled.input[0]), `"call_id":"call_1"`) || !strings.Contains(string(settled.input[0]), "sunny") {
		t.Errorf("the round's outputs: %s", settled.input)
	}
	var ended bool
	for _, p := range posted {
		if e, ok := p.(panelEndedMsg); ok && e.it.CallID == "call_1" {
			ended = true
		}
	}
	if !ended {
		t.Errorf("no redraw of the call's panel among %#v", posted)
	}

	for _, p := range posted {
		d.send(p)
		if _, last := p.(ToolsSettledMsg); last && m.turns.cur == nil {
			t.Fatal("ToolsSettledMsg did not start the next turn")
		}
	}
	d.until("the answer", func() bool { return m.turns.cur == nil && len(srv.Requests()) == 2 && m.statusBar.status.State == Idle })
	if n := runs(); n != 1 {
		t.Errorf("get_weather ran %d times, want 1", n)
	}
	if n := outputsIn(t, srv.Requests()[1], "call_1"); n != 1 {
		t.Errorf("the next request answers call_1 %d times: %s", n, srv.Requests()[1].Body)
	}
	if v := plain(m); !strings.Contains(v, "It is sunny.") {
		t.Errorf("screen:\n%s", v)
	}
}

// TestApprovalsReportTheirAnswers: approving a hosted request makes the
// approvals child post its notice and the answers (answersMsg); the root
// starts the chained turn only when it routes them.
func TestApprovalsReportTheirAnswers(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/openai-mcp-approval-request.sse")),
		streamtest.FromFile(sharedtest.Real(t, "vercel__ai/openai-mcp-call-after-approval.sse")))
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m.Init()
	m.Update(SubmitMsg{Text: "shorten it"})
	pump(t, m, nil)
	if len(m.approvals.pending) == 0 {
		t.Fatal("no approval request pending")
	}
	m.approvals.Update(ApprovalDecisionMsg{ID: m.approvals.pending[0].it.ID, Decision: tools.Allow}, m.frame)
	posted := m.frame.outbox
	m.frame.outbox = nil
	answers, ok := posted[len(posted)-1].(answersMsg)
	if !ok || len(answers.input) != 1 || !strings.Contains(string(answers.input[0]), `"approve":true`) {
		t.Fatalf("the last report is %#v, want the approval's answer", posted[len(posted)-1])
	}
	if m.turns.cur != nil || len(srv.Requests()) != 1 || m.dialog == nil {
		t.Fatalf("before the root routed the reports: turn %v, %d requests, dialog open %v", m.turns.cur != nil, len(srv.Requests()), m.dialog != nil)
	}
	for _, p := range posted {
		m.Update(p)
	}
	if m.turns.cur == nil || m.dialog != nil {
		t.Fatalf("after routing: turn %v, dialog open %v", m.turns.cur != nil, m.dialog != nil)
	}
	pump(t, m, nil)
	if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"approve":true`) {
		t.Errorf("%d requests; last: %s", len(reqs), reqs[len(reqs)-1].Body)
	}
}

// TestDidMsgKeepsWhatItIsTold: a fact changes only the parts of the
// status line it names; the state is the engine's, refined by the fact.
func TestDidMsgKeepsWhatItIsTold(t *testing.T) {
	t.Parallel()
	at := time.Unix(1_700_000_000, 0)
	for _, tt := range []struct {
		name  string
		phase session.Phase
		msg   didMsg
		want  Status
	}{
		{"an ask and what it names", session.PhaseApproval, didMsg{what: hapAsked, detail: "rm"}, Status{State: AwaitingApproval, Detail: "rm", Started: at, Model: "m"}},
		{"settled clears the detail", session.PhaseIdle, didMsg{what: hapSettled}, Status{State: Idle, Started: at, Model: "m"}},
		{"detail kept", session.PhaseTools, didMsg{what: hapCallOnWay, keepDetail: true}, Status{State: CallingTool, Detail: "echo_args", Started: at, Model: "m"}},
		{"handed off: the detail goes", session.PhaseTools, didMsg{what: hapHandedOff}, Status{State: RunningTool, Started: at, Model: "m"}},
		{"a wait's start", session.PhaseApproval, didMsg{what: hapAsked, detail: "x", since: at.Add(time.Minute)}, Status{State: AwaitingApproval, Detail: "x", Started: at.Add(time.Minute), Model: "m"}},
	} {
		b := statusBar{status: Status{Started: at, Model: "m"}, said: hapToolRuns, detail: "echo_args"}
		b.Update(tt.msg)
		b.sync(&session.Conversation{}, activityOf(tt.phase, b.saidLast(), chatFacts{}))
		if got := b.status; got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// awaitMsg delivers d's messages until one of type T arrives, and returns
// it undelivered (a deadline only guards against a hang).
func awaitMsg[T tea.Msg](d *driver, what string) T {
	d.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case msg := <-d.msgs:
			if v, ok := msg.(T); ok {
				return v
			}
			d.send(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; screen:\n%s", what, plain(d.m))
		}
	}
}
