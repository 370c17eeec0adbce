package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// runCmd runs a Cmd and feeds what it returns back in (one level; batches
// are not expanded).
func runCmd(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if msg := cmd(); msg != nil {
		m.Update(msg)
	}
}

// TestHostedApprovalAlwaysAndDenyReason: "approve for the session" answers
// the next request for the same tool without asking; a denial carries its
// reason.
func TestHostedApprovalAlwaysAndDenyReason(t *testing.T) {
	t.Parallel()
	req := sharedtest.Real(t, "vercel__ai/openai-mcp-approval-request.sse")
	after := sharedtest.Real(t, "vercel__ai/openai-mcp-call-after-approval.sse")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(req), streamtest.FromFile(after), streamtest.FromFile(req), streamtest.FromFile(after))
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m.Init()
	m.Update(SubmitMsg{Text: "shorten it"})
	pump(t, m, nil)
	if m.dialog == nil {
		t.Fatal("no approval dialog")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	runCmd(m, cmd)
	pump(t, m, nil)
	m.Update(SubmitMsg{Text: "again"})
	pump(t, m, nil) // the approval request: answered at once, and the follow-up streams
	pump(t, m, nil)
	if m.dialog != nil {
		t.Error("asked again for a tool approved for the session")
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || !strings.Contains(string(reqs[3].Body), `"approve":true`) {
		t.Fatalf("%d requests; last: %s", len(reqs), reqs[len(reqs)-1].Body)
	}

	srv.Enqueue(streamtest.FromFile(req), streamtest.Reply{SSE: streamtest.Text("resp_d", "fine, not doing it")})
	m2 := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m2.Init()
	m2.Update(SubmitMsg{Text: "shorten it"})
	pump(t, m2, nil)
	m2.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	for _, r := range "not today" {
		m2.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	_, cmd = m2.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runCmd(m2, cmd)
	pump(t, m2, nil)
	last := string(srv.Requests()[len(srv.Requests())-1].Body)
	if !strings.Contains(last, `"approve":false`) || !strings.Contains(last, `"reason":"not today"`) {
		t.Errorf("denial: %s", last)
	}
}
