package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
	"runnel/ui/block"
)

var (
	ctrlC = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	ctrlO = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	altO  = tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}
)

// hostedAsking is a chat whose first turn (a real recorded stream) ended in
// a hosted MCP approval request, with the dialog open.
func hostedAsking(t *testing.T) (*Model, *streamtest.Server) {
	t.Helper()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/openai-mcp-approval-request.sse")))
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m.Init()
	m.Update(SubmitMsg{Text: "shorten https://ai-sdk.dev/"})
	pump(t, m, nil)
	if m.dialog == nil || m.statusBar.status.State != AwaitingApproval {
		t.Fatalf("no approval dialog; state %v", m.statusBar.status.State)
	}
	return m, srv
}

// TestApprovalDialogShowsTheTranscript: the dialog is drawn below the
// transcript, so the prompt and the panels that led to the request stay on
// screen (issue 10 item 2: the transcript went blank).
func TestApprovalDialogShowsTheTranscript(t *testing.T) {
	t.Parallel()
	m, _ := hostedAsking(t)
	v := plain(m)
	q := strings.Index(v, "Allow this tool call?")
	if q < 0 {
		t.Fatalf("no question:\n%s", v)
	}
	above := v[:q]
	for _, want := range []string{"zip1.create_short_url", "awaiting approval"} { // the reasoning before the panels has nothing to show: it draws nothing
		if !strings.Contains(above, want) {
			t.Errorf("%q is not visible above the dialog:\n%s", want, v)
		}
	}
	if n := strings.Count(v, "\n") + 1; n != 30 {
		t.Errorf("view has %d lines, want 30", n)
	}
}

// TestApprovalCtrlCDeniesAndStops: ctrl+c in the hosted approval dialog
// denies, sends nothing, and the denial goes with the next message.
func TestApprovalCtrlCDeniesAndStops(t *testing.T) {
	t.Parallel()
	m, srv := hostedAsking(t)
	req := m.approvals.pending[0]
	_, cmd := m.Update(ctrlC)
	if m.dialog != nil || len(m.approvals.pending) != 0 || m.statusBar.status.State != Idle || m.turns.cur != nil {
		t.Fatalf("after ctrl+c: dialog %v, pending %d, state %v, streaming %v", m.dialog != nil, len(m.approvals.pending), m.statusBar.status.State, m.turns.cur != nil)
	}
	if a, ok := req.b.(block.Approver); ok {
		if _, pending := a.Approval(); pending {
			t.Error("the request still shows as pending")
		}
	}
	runCmd(m, cmd)
	if len(srv.Requests()) != 1 {
		t.Fatalf("ctrl+c sent a request: %d", len(srv.Requests()))
	}
	if !strings.Contains(plain(m), "denied and stopped") {
		t.Errorf("no notice:\n%s", plain(m))
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_next", "next answer")})
	m.Update(SubmitMsg{Text: "something else"})
	pump(t, m, nil)
	body := string(srv.Requests()[1].Body)
	if !strings.Contains(body, `"type":"mcp_approval_response"`) || !strings.Contains(body, `"approve":false`) || !strings.Contains(body, "something else") {
		t.Errorf("the next message does not carry the denial: %s", body)
	}
}

// TestApprovalTimerRuns: while the dialog waits, a slow tick moves the
// clock, so "awaiting approval · Ns" counts up (it froze at 1s).
func TestApprovalTimerRuns(t *testing.T) {
	t.Parallel()
	m, _ := hostedAsking(t)
	if !m.turns.pacer.WaitTicking() && !m.turns.pacer.Scheduled() {
		t.Fatal("nothing is scheduled to move the timer")
	}
	start := m.statusBar.status.Started
	m.Update(waitTickMsg{now: start.Add(7 * time.Second)})
	if s := ansiStripped(m.statusBar.statusView(m.frame)); !strings.Contains(s, "awaiting approval") || !strings.Contains(s, "7s") {
		t.Errorf("status line: %q", s)
	}
	_, cmd := m.Update(waitTickMsg{now: start.Add(8 * time.Second)})
	if cmd == nil || !m.turns.pacer.WaitTicking() {
		t.Error("the wait tick was not re-armed")
	}
}

// TestApprovalStatusKeysWork: every key the status line offers while an
// approval waits does something with the dialog open: ctrl+o opens the
// asked call's panel, alt+o is not swallowed by the dialog, y approves.
func TestApprovalStatusKeysWork(t *testing.T) {
	t.Parallel()
	m, _ := hostedAsking(t)
	hint := ansiStripped(m.statusBar.hint(m.frame))
	for _, k := range []string{"a/y approve once", "s approve for the session", "d/n deny", "ctrl+c stop", "ctrl+o details", "? keys"} {
		if !strings.Contains(hint, k) {
			t.Errorf("hint lacks %q: %q", k, hint)
		}
	}
	x := m.approvals.hostedAsk.b.(block.Expander)
	m.Update(ctrlO)
	if !x.Expanded() || m.dialog == nil {
		t.Fatalf("ctrl+o: expanded %v, dialog open %v", x.Expanded(), m.dialog != nil)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	if cmd == nil {
		t.Fatal("y decided nothing")
	}
}

// TestPanelListOpensAnyPanel: alt+o lists every tool panel; choosing one
// that is not the last opens it (ctrl+o only reached the last).
func TestPanelListOpensAnyPanel(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/openai-mcp-tool-two-calls.sse")
	pump(t, m, nil)
	if len(m.items.panels) < 2 {
		t.Fatalf("%d panels", len(m.items.panels))
	}
	m.Update(altO)
	pl, ok := m.dialog.(dlg[PanelList])
	if !ok {
		t.Fatalf("alt+o opened %T", m.dialog)
	}
	if pl.v.Selected() != len(m.items.panels)-1 {
		t.Errorf("the list starts at %d, not the last panel", pl.v.Selected())
	}
	v := plain(m)
	if !strings.Contains(v, "Tool panels") || !strings.Contains(v, "dmcp: 2 tools") {
		t.Errorf("panel list:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runCmd(m, cmd)
	first := m.items.panels[0]
	if x, ok := first.b.(block.Expander); !ok || !x.Expanded() {
		t.Fatalf("the first panel (%s) did not open", first.it.Type)
	}
	if m.dialog != nil {
		t.Error("the list stayed open")
	}
	if v := plain(m); !strings.Contains(v, "web_search_exa") {
		t.Errorf("the opened tool list is not on screen:\n%s", v)
	}
}

func ansiStripped(s string) string { return ansi.Strip(s) }

// TestLocalApprovalCtrlCStops: ctrl+c in a local tool's approval dialog
// denies the call and stops the round; nothing is sent until the next
// message, and the transcript stays visible behind the dialog meanwhile.
func TestLocalApprovalCtrlCStops(t *testing.T) {
	t.Parallel()
	m, d, srv, _ := atSlowToolApproval(t)
	v := plain(m)
	if q := strings.Index(v, "Allow this tool call?"); q < 0 || !strings.Contains(v[:q], "run the slow tool") {
		t.Errorf("the prompt is not visible above the dialog:\n%s", v)
	}
	d.send(ctrlC)
	if m.dialog != nil {
		t.Fatal("ctrl+c left the dialog open")
	}
	d.until("the round to stop", func() bool { return !m.tools.busy() && m.statusBar.status.State == Idle })
	if len(srv.Requests()) != 1 {
		t.Errorf("ctrl+c sent %d requests", len(srv.Requests())-1)
	}
	if v := plain(m); !strings.Contains(v, "tools stopped") {
		t.Errorf("no notice:\n%s", v)
	}
}

// TestLocalApprovalWaitsWithoutFrames: while a local tool's question waits
// and nothing else moves, the 30 Hz frame tick stops and the slow wait tick
// keeps the timer running; answering brings the frames back.
func TestLocalApprovalWaitsWithoutFrames(t *testing.T) {
	t.Parallel()
	m, d, _, fifo := atSlowToolApproval(t)
	d.until("the frames to stop", func() bool { return !m.turns.pacer.Scheduled() && m.turns.pacer.WaitTicking() })
	before := m.frame.now
	d.until("the wait tick", func() bool { return m.frame.now.After(before) })
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the answer and the frames back", func() bool { return m.dialog == nil && m.turns.pacer.Scheduled() })
	d.until("the tool running", func() bool { return m.statusBar.status.State == RunningTool })
	os.WriteFile(fifo, []byte("done\n"), 0o600)
}
