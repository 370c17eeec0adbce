package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"runnel/session/tools"
)

// TestChatShowsMCPStarting: while a local MCP server starts, the status line
// names it and a message waits in the composer; once the start has failed
// (a silent server, past its startup_timeout) the failure is a notice and
// the status line says the server is not running.
func TestChatShowsMCPStarting(t *testing.T) {
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
	if s := plain(m); !strings.Contains(s, "MCP servers are still starting") || m.composer.Value() != "hello" {
		t.Errorf("a message sent while starting: composer %q\n%s", m.composer.Value(), s)
	}
	mgr.Start(context.Background())
	m.Update(mcpReadyMsg{})
	m.Update(mcpReportMsg{<-reports})
	s := plain(m)
	if !strings.Contains(s, "mcp server mute did not start") || !strings.Contains(s, "not running: mute") || strings.Contains(s, "starting MCP server") {
		t.Errorf("after the start failed:\n%s", s)
	}
}
