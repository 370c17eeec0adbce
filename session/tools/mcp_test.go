package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/session/tools/mcptest"
)

// serveMCPEnv, set to 1, makes the test binary the test MCP server
// (mcptest.Main) instead of running tests: TestMain sets it for the
// servers it starts, so no test builds a server program.
const serveMCPEnv = "RUNNEL_TOOLS_TEST_SERVE_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(serveMCPEnv) == "1" {
		mcptest.Main(os.Args[1:])
		os.Exit(0)
	}
	os.Setenv(serveMCPEnv, "1")
	os.Exit(m.Run())
}

// mcpServerBinary is the test MCP server: this test binary, which its
// children inherit serveMCPEnv from (TestMain).
func mcpServerBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("the test MCP server is this binary: %v", err)
	}
	return exe
}

// reports collects what a Manager reports.
type reports struct {
	mu   sync.Mutex
	errs []error
	c    chan error
}

func newReports() *reports { return &reports{c: make(chan error, 16)} }

func (r *reports) add(err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	r.c <- err
}

// wait returns the next report, failing the test if none comes in 10s.
func (r *reports) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.c:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("no report from the MCP manager within 10s")
		return nil
	}
}

// startTest starts the test server as "test" with the given changes.
func startTest(t *testing.T, edit func(*Server)) (*Manager, *reports) {
	t.Helper()
	s := Server{Name: "test", Command: mcpServerBinary(t), Approval: ApproveNever}
	if edit != nil {
		edit(&s)
	}
	rep := newReports()
	m := StartMCP(context.Background(), Config{Servers: []Server{s}, SecretEnv: []string{"OPENAI_API_KEY"}}, rep.add)
	t.Cleanup(func() { m.Close() })
	return m, rep
}

func TestMCPListsTools(t *testing.T) {
	m, rep := startTest(t, nil)
	want := []string{"test__echo", "test__big", "test__env", "test__slow", "test__fail", "test__broken", "test__picture", "test__block", "test__hang", "test__crash", "test__hidden_tool"}
	got := m.ToolNames()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ToolNames = %q, want %q", got, want)
	}
	if s := m.Summary(); s != "mcp: 1 server, 11 tools" {
		t.Errorf("Summary = %q", s)
	}
	if len(rep.errs) != 0 {
		t.Errorf("reports: %v", rep.errs)
	}

	var echo map[string]any
	for _, raw := range m.FunctionTools(nil) {
		var tool map[string]any
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		if tool["name"] == "test__echo" {
			echo = tool
		}
	}
	if echo == nil || echo["type"] != "function" || echo["strict"] != false || echo["description"] != "Echo text back" {
		t.Fatalf("echo tool = %v", echo)
	}
	props, _ := echo["parameters"].(map[string]any)["properties"].(map[string]any)
	if _, ok := props["text"]; !ok {
		t.Errorf("echo parameters lack the text property: %v", echo["parameters"])
	}
	if got := m.FunctionTools(func(string) bool { return false }); len(got) != 0 {
		t.Errorf("a disabled server still offers %d tools", len(got))
	}

	r := NewRunner(Config{Functions: []Function{{Name: "git_status", Command: []string{"git", "status"}}}}, m, Hooks{})
	all, err := r.RequestTools(nil, nil)
	if err != nil || len(all) != 1+len(want) || !strings.Contains(string(all[0]), `"name":"git_status"`) {
		t.Errorf("Runner.RequestTools: %d tools, %v", len(all), err)
	}
	if !r.Handles("test__echo") || !r.Handles("git_status") || r.Handles("echo") {
		t.Error("Handles")
	}
}

func TestMCPAllowedTools(t *testing.T) {
	m, rep := startTest(t, func(s *Server) { s.AllowedTools = []string{"echo", "hidden.tool", "nope"} })
	if got := m.ToolNames(); !slices.Equal(got, []string{"test__echo", "test__hidden_tool"}) {
		t.Errorf("ToolNames = %q", got)
	}
	if err := rep.wait(t); !strings.Contains(err.Error(), `mcp server test offers no tool "nope"`) {
		t.Errorf("report = %v", err)
	}
	r := NewRunner(Config{}, m, Hooks{})
	res := r.Run(context.Background(), []Call{{CallID: "c1", Name: "test__hidden_tool", Arguments: "{}"}})
	if res[0].Status != StatusOK || res[0].Output != "hidden" {
		t.Errorf("hidden.tool through its sanitized name: %+v", res[0])
	}
}

func TestMCPCallsProgressAndErrors(t *testing.T) {
	m, _ := startTest(t, func(s *Server) { s.Env = map[string]string{"LOG_LEVEL": "warn"} })
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")

	var mu sync.Mutex
	var progress []Progress
	r := NewRunner(Config{}, m, Hooks{Progress: func(c Call, p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if c.Name == "test__slow" {
			progress = append(progress, p)
		}
	}})
	calls := []Call{
		{CallID: "c0", Name: "test__echo", Arguments: `{"text":"hi"}`},
		{CallID: "c1", Name: "test__slow", Arguments: ""},
		{CallID: "c2", Name: "test__fail", Arguments: "{}"},
		{CallID: "c3", Name: "test__broken", Arguments: "{}"},
		{CallID: "c4", Name: "test__picture", Arguments: "{}"},
		{CallID: "c5", Name: "test__echo", Arguments: `{"text":7}`},
		{CallID: "c6", Name: "test__env", Arguments: `{"text":"LOG_LEVEL"}`},
	}
	res := r.Run(context.Background(), calls)
	want := []struct {
		status Status
		output string // prefix
	}{
		{StatusOK, "echo: hi"},
		{StatusOK, "done"},
		{StatusFailed, "error: the disk is full"},
		{StatusFailed, "error: mcp server test: "},
		{StatusOK, "a red dot\n[image: 12 KB png]"},
		{StatusInvalid, "the arguments do not match the tool's schema"},
		{StatusOK, `LOG_LEVEL="warn" set=true`},
	}
	for i, w := range want {
		if res[i].Status != w.status || !strings.HasPrefix(res[i].Output, w.output) {
			t.Errorf("call %s: %v %q; want %v %q…", calls[i].CallID, res[i].Status, res[i].Output, w.status, w.output)
		}
	}
	if !strings.Contains(res[3].Output, "internal failure in broken") {
		t.Errorf("protocol error output %q lacks the server's message", res[3].Output)
	}
	wantProgress := []Progress{{1, 2, "step one"}, {2, 2, "step two"}}
	mu.Lock()
	if !slices.Equal(progress, wantProgress) {
		t.Errorf("progress = %+v, want %+v", progress, wantProgress)
	}
	mu.Unlock()

	res = r.Run(context.Background(), []Call{{CallID: "c7", Name: "test__env", Arguments: `{"text":"OPENAI_API_KEY"}`}})
	if res[0].Output != `OPENAI_API_KEY="" set=false` {
		t.Errorf("the server saw the API key: %q", res[0].Output)
	}
}

func TestMCPCancel(t *testing.T) {
	m, _ := startTest(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := NewRunner(Config{}, m, Hooks{Progress: func(c Call, p Progress) {
		if p.Message == "waiting" {
			cancel()
		}
	}})
	res := r.Run(ctx, []Call{{CallID: "c1", Name: "test__block", Arguments: "{}"}})
	if res[0].Status != StatusCancelled || res[0].Output != CancelledOutput {
		t.Errorf("cancelled call: %+v", res[0])
	}
	res = r.Run(context.Background(), []Call{{CallID: "c2", Name: "test__echo", Arguments: `{"text":"still here"}`}})
	if res[0].Output != "echo: still here" {
		t.Errorf("after a cancelled call: %+v", res[0])
	}
}

func TestMCPCrashRestartsOnce(t *testing.T) {
	m, rep := startTest(t, nil)
	r := NewRunner(Config{}, m, Hooks{})
	run := func(name string) Result {
		args := "{}"
		if name == "test__echo" {
			args = `{"text":"x"}`
		}
		return r.Run(context.Background(), []Call{{CallID: "c", Name: name, Arguments: args}})[0]
	}

	res := run("test__crash")
	if res.Status != StatusFailed || !strings.Contains(res.Output, "mcp server test stopped") || !strings.Contains(res.Output, "during the call") {
		t.Errorf("crash: %+v", res)
	}
	if err := rep.wait(t); !strings.Contains(err.Error(), "mcp server test stopped") ||
		!strings.Contains(err.Error(), "crashing on purpose") || !strings.Contains(err.Error(), "restarted on its next use") {
		t.Errorf("report = %v", err)
	}
	if s := m.Summary(); !strings.Contains(s, "not running: test") {
		t.Errorf("Summary after the crash = %q", s)
	}

	if res := run("test__echo"); res.Status != StatusOK || res.Output != "echo: x" {
		t.Errorf("after the restart: %+v", res)
	}

	run("test__crash")
	if err := rep.wait(t); !strings.Contains(err.Error(), "stays stopped") {
		t.Errorf("second report = %v", err)
	}
	if res := run("test__echo"); res.Status != StatusFailed || !strings.Contains(res.Output, "restarted once already") {
		t.Errorf("after the second crash: %+v", res)
	}
}

func TestMCPStartFailure(t *testing.T) {
	rep := newReports()
	m := StartMCP(context.Background(), Config{Servers: []Server{
		{Name: "missing", Command: filepath.Join(t.TempDir(), "no-such-server")},
	}}, rep.add)
	defer m.Close()
	if err := rep.wait(t); !strings.Contains(err.Error(), "mcp server missing: start") {
		t.Errorf("report = %v", err)
	}
	if s := m.Summary(); s != "mcp: 0 servers, 0 tools (1 server not running: missing)" {
		t.Errorf("Summary = %q", s)
	}
}

func TestMCPClose(t *testing.T) {
	m, _ := startTest(t, nil)
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return")
	}
	r := NewRunner(Config{}, m, Hooks{})
	res := r.Run(context.Background(), []Call{{CallID: "c", Name: "test__echo", Arguments: `{"text":"x"}`}})
	if res[0].Status != StatusFailed || !strings.Contains(res[0].Output, "shut down") {
		t.Errorf("a call after Close: %+v", res[0])
	}
	var nilManager *Manager
	if nilManager.Close() != nil || nilManager.Summary() != "" || nilManager.FunctionTools(nil) != nil {
		t.Error("a nil Manager is not empty")
	}
}
