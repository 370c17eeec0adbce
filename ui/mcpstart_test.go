package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestChatShowsMCPStarting: while a local MCP server starts, the status line
// names it and a message waits in the composer; once the start has failed
// (a silent server, past its startup_timeout) the failure is a notice and
// the status line says the server is not running.
func TestChatShowsMCPStarting(t *testing.T) {
	t.Parallel()
	reports := make(chan error, 4)
	mgr := tools.NewMCP(tools.Config{Servers: []tools.Server{
		{Name: "mute", Command: "sh", Args: []string{"-c", "cat >/dev/null"}, StartupTimeout: 50 * time.Millisecond},
	}}, tools.StartHooks{Report: func(err error) { reports <- err }})
	t.Cleanup(func() { mgr.Close() })
	m := newTestModel(t, Options{Tools: &Tools{MCP: mgr, Reports: reports}})
	m.Init()
	if s := plain(m); !strings.Contains(s, "starting MCP server mute…") {
		t.Fatalf("no starting line:\n%s", s)
	}
	m.Update(SubmitMsg{Text: "hello"})
	if s := plain(m); !strings.Contains(s, "your message goes out once they are up") || m.tools.mcp.waiting == nil {
		t.Errorf("a message sent while starting does not wait: composer %q\n%s", m.composer.Value(), s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.tools.mcp.waiting != nil || m.composer.Value() != "hello" {
		t.Errorf("esc did not take the waiting message back: composer %q", m.composer.Value())
	}
	mgr.Start(context.Background())
	m.Update(mcpReadyMsg{})
	m.Update(mcpReportMsg{<-reports})
	s := plain(m)
	if !strings.Contains(s, "mcp server mute did not start") || !strings.Contains(s, "not running: mute") || strings.Contains(s, "starting MCP server") {
		t.Errorf("after the start failed:\n%s", s)
	}
}

// TestChatSendsOnceMCPIsUp: a message sent while a local MCP server starts
// goes out, once, when the servers are up; the user does not press enter
// again. (It used to be refused with "send again once…".)
func TestChatSendsOnceMCPIsUp(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "hi there")})
	mgr := tools.NewMCP(tools.Config{Servers: []tools.Server{
		{Name: "mute", Command: "sh", Args: []string{"-c", "cat >/dev/null"}, StartupTimeout: 50 * time.Millisecond},
	}}, tools.StartHooks{Report: func(error) {}})
	t.Cleanup(func() { mgr.Close() })
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true},
		Tools: &Tools{MCP: mgr}})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	if m.turns.cur != nil || len(srv.Requests()) != 0 {
		t.Fatal("sent before the MCP servers were up")
	}
	if s := plain(m); !strings.Contains(s, "your message goes out once they are up") {
		t.Errorf("the status line does not say the message waits:\n%s", s)
	}
	mgr.Start(context.Background())
	<-mgr.Ready()
	m.Update(mcpReadyMsg{})
	if m.turns.cur == nil {
		t.Fatal("the waiting message was not sent once the servers were up")
	}
	pump(t, m, nil)
	if got := srv.Requests(); len(got) != 1 {
		t.Fatalf("%d requests, want 1", len(got))
	}
	if s := plain(m); !strings.Contains(s, "hi there") || strings.Count(s, "hello") != 1 {
		t.Errorf("after the servers came up:\n%s", s)
	}
}
