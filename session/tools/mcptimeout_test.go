package tools

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// A tool that never answers ends at the server's timeout with one line
// naming the server and the tool, as the model's output and as a notice;
// the server stays usable.
func TestMCPCallTimeout(t *testing.T) {
	m, _ := startTest(t, func(s *Server) { s.Timeout = 150 * time.Millisecond })
	r := NewRunner(Config{}, m, Hooks{})
	res := r.Run(context.Background(), []Call{{CallID: "c1", Name: "test__hang", Arguments: "{}"}})[0]
	want := "mcp server test: tool hang did not answer within 150ms (timeout in [[mcp_servers]])"
	if res.Status != StatusTimedOut || res.Output != "error: "+want || res.Notice != want {
		t.Errorf("hung call: %v %q notice %q", res.Status, res.Output, res.Notice)
	}
	if strings.Contains(res.Output, "\n") {
		t.Errorf("output is not one line: %q", res.Output)
	}
	res = r.Run(context.Background(), []Call{{CallID: "c2", Name: "test__echo", Arguments: `{"text":"alive"}`}})[0]
	if res.Status != StatusOK || res.Output != "echo: alive" {
		t.Errorf("after a timed-out call: %+v", res)
	}
	// A server that ignored a cancellation is not given the grace period.
	start := time.Now()
	m.Close()
	if d := time.Since(start); d >= mcpGrace {
		t.Errorf("Close took %s with a hung call; want < %s", d, mcpGrace)
	}
}

// A cancelled call is still a cancellation, not a timeout.
func TestMCPCancelBeforeTimeout(t *testing.T) {
	m, _ := startTest(t, func(s *Server) { s.Timeout = time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	r := NewRunner(Config{}, m, Hooks{Progress: func(c Call, p Progress) { cancel() }})
	res := r.Run(ctx, []Call{{CallID: "c1", Name: "test__block", Arguments: "{}"}})[0]
	if res.Status != StatusCancelled {
		t.Errorf("cancelled call: %+v", res)
	}
}

// A server that never answers initialize fails its start at
// startup_timeout with one line naming it, and is announced while runnel
// waits.
func TestMCPStartupTimeout(t *testing.T) {
	rep := newReports()
	var mu sync.Mutex
	var starting []string
	start := time.Now()
	m := StartMCPWith(context.Background(), Config{Servers: []Server{
		{Name: "mute", Command: mcpServerBinary(t), Args: []string{"silent"}, StartupTimeout: 200 * time.Millisecond},
	}}, StartHooks{Report: rep.add, Starting: func(name string) {
		mu.Lock()
		starting = append(starting, name)
		mu.Unlock()
	}})
	defer m.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("StartMCP took %s with a 200ms startup_timeout", d)
	}
	err := rep.wait(t)
	want := "mcp server mute did not start: no answer to initialize within 200ms (startup_timeout in [[mcp_servers]])"
	if err == nil || err.Error() != want {
		t.Errorf("report = %v\nwant     %s", err, want)
	}
	mu.Lock()
	if len(starting) != 1 || starting[0] != "mute" {
		t.Errorf("Starting calls = %q, want [mute]", starting)
	}
	mu.Unlock()
	if s := m.Summary(); !strings.Contains(s, "not running: mute") {
		t.Errorf("Summary = %q", s)
	}
}

// A server that starts before SlowAfter is not announced.
func TestMCPStartingQuietWhenFast(t *testing.T) {
	called := make(chan string, 1)
	m := StartMCPWith(context.Background(), Config{Servers: []Server{
		{Name: "test", Command: mcpServerBinary(t)},
	}}, StartHooks{Starting: func(name string) { called <- name }, SlowAfter: time.Hour})
	defer m.Close()
	select {
	case n := <-called:
		t.Errorf("Starting(%q) for a server that started at once", n)
	default:
	}
}

func TestMCPTimeoutConfig(t *testing.T) {
	if got := (Server{}).callTimeout(); got != DefaultMCPTimeout {
		t.Errorf("default call timeout %s", got)
	}
	if got := (Server{}).startupTimeout(); got != DefaultMCPStartupTimeout {
		t.Errorf("default startup timeout %s", got)
	}
}

// A Manager made by NewMCP says which servers it is starting until Start
// returns, offers no tools before, and Close ends a Start still waiting on
// a silent server.
func TestMCPStartInBackground(t *testing.T) {
	m := NewMCP(Config{Servers: []Server{
		{Name: "mute", Command: mcpServerBinary(t), Args: []string{"silent"}, StartupTimeout: time.Hour},
	}}, StartHooks{})
	if got := m.Summary(); got != "starting MCP server mute…" {
		t.Errorf("Summary while starting = %q", got)
	}
	started := make(chan struct{})
	go func() {
		close(started)
		m.Start(context.Background())
	}()
	<-started
	if m.ToolNames() != nil || m.FunctionTools(nil) != nil || m.ListItems() != nil {
		t.Error("tools offered before Start returned")
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end a Start waiting on a silent server")
	}
	select {
	case <-m.Ready():
	default:
		t.Error("Ready is open after Close")
	}

	m = NewMCP(Config{Servers: []Server{{Name: "test", Command: mcpServerBinary(t)}}}, StartHooks{})
	m.Start(context.Background())
	defer m.Close()
	<-m.Ready()
	if len(m.ToolNames()) == 0 || !strings.HasPrefix(m.Summary(), "mcp: 1 server") {
		t.Errorf("after Start: %q %q", m.ToolNames(), m.Summary())
	}
}
