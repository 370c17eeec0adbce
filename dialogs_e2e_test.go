package main

// End-to-end tests of the dialogs (issue 10 items 2 and 6): the approval
// dialog does not trap the user, and any tool panel can be opened.

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

var awaitingRE = regexp.MustCompile(`awaiting approval · (\d+)s`)

// TestTmuxApprovalDialogDoesNotTrap: in the demo's hosted MCP approval, the
// transcript stays visible above the dialog, the timer counts, and ctrl+c
// denies and stops; the next message is answered.
func TestTmuxApprovalDialogDoesNotTrap(t *testing.T) {
	t.Parallel()
	p := startPane(t, 100, 30, nil, binary(t), "--demo")
	p.waitText("Ask anything")
	p.say("please deploy")
	s := p.waitText("Allow this tool call?")
	q := strings.Index(s, "Allow this tool call?")
	for _, want := range []string{"please deploy", "demo-deploy: 2 tools", "deploy_preview · rollback"} {
		if !strings.Contains(s[:q], want) {
			t.Errorf("%q is not visible above the dialog:\n%s", want, s)
		}
	}
	p.waitFor("the approval timer to count", func(s string) bool {
		m := awaitingRE.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		n, _ := strconv.Atoi(m[1])
		return n >= 2
	})
	p.keys("?")
	p.waitText("Approval keys")
	p.keys("?")
	p.keys("C-c")
	s = p.waitText("denied and stopped")
	if strings.Contains(s, "Allow this tool call?") {
		t.Errorf("the dialog is still open after ctrl+c:\n%s", s)
	}
	p.waitFor("ready", func(s string) bool { return strings.Contains(lastLines(s, 2), "ready") })
	p.say("show me markdown")
	p.waitFor("the next answer", func(s string) bool {
		return strings.Contains(s, "More showcases") && strings.Contains(lastLines(s, 2), "ready")
	})
}

// TestTmuxPanelListOpensAnyPanel: a real recorded hosted MCP stream; the
// server's tool list panel names its tools, and alt+o lists the panels so
// that the first one (not only the last) opens with the descriptions.
func TestTmuxPanelListOpensAnyPanel(t *testing.T) {
	t.Parallel()
	dir := sharedtest.RealDir(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(filepath.Join(dir, "vercel__ai", "openai-mcp-tool-two-calls.sse")))
	p := chatPane(t, srv)
	p.say("search the web")
	p.waitText("(by borough/district)?") // the end of the reply: the status read "ready" before it was sent too
	p.waitTurnEnd()
	p.keys("M-o")
	s := p.waitText("Tool panels")
	if !strings.Contains(s, "dmcp: 2 tools") {
		t.Errorf("the list lacks the tool list panel:\n%s", s)
	}
	p.keys("Home", "Enter")
	s = p.waitFor("the first panel open", func(s string) bool {
		return !strings.Contains(s, "Tool panels") && strings.Contains(s, "web_search_exa  ") && strings.Contains(s, "get_code_context_exa  ")
	})
	if !strings.Contains(s, "dmcp: 2 tools") {
		t.Errorf("the opened panel is not in view:\n%s", s)
	}
}

// TestTmuxLocalApprovalCtrlC: the same for a local tool's approval: the
// prompt stays visible above the dialog, the timer counts, ctrl+c denies
// and stops the round, and the next message carries the call's output.
func TestTmuxLocalApprovalCtrlC(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	env, _ := slowToolEnv(t, srv)
	srv.Enqueue(streamtest.Reply{SSE: slowCallStream("resp_call")})
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.say("run the slow tool")
	s := p.waitText("Allow this tool call?")
	if q := strings.Index(s, "Allow this tool call?"); !strings.Contains(s[:q], "run the slow tool") {
		t.Errorf("the prompt is not visible above the dialog:\n%s", s)
	}
	p.waitFor("the approval timer to count", func(s string) bool {
		m := awaitingRE.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		n, _ := strconv.Atoi(m[1])
		return n >= 1
	})
	p.keys("C-c")
	s = p.waitText("tools stopped")
	if strings.Contains(s, "Allow this tool call?") {
		t.Errorf("the dialog is still open after ctrl+c:\n%s", s)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_after", "understood")})
	p.say("never mind")
	p.waitText("understood")
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].PreviousResponseID() != "resp_call" {
		t.Fatalf("%d requests; the next: %s", len(reqs), reqs[len(reqs)-1].Body)
	}
	if _, ok := outputsOf(t, reqs[1])["call_slow"]; !ok {
		t.Errorf("the next request: %s", reqs[len(reqs)-1].Body)
	}
}
