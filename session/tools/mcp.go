package tools

// This file runs local MCP servers over stdio with the official Go SDK:
// start them all at session start, list their tools, call them with
// progress and cancellation, restart a server that died once, and shut
// them down.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

const mcpGrace = 2 * time.Second // after closing stdin, before SIGTERM, then before SIGKILL

// callTimeoutError is a call that ended at its server's timeout: one line
// naming the server and the tool.
type callTimeoutError struct {
	server, tool string
	after        time.Duration
}

func (e *callTimeoutError) Error() string {
	return fmt.Sprintf("mcp server %s: tool %s did not answer within %s (timeout in [[mcp_servers]])", e.server, e.tool, e.after)
}

// StartHooks are how StartMCPWith reaches the user. Every field may be nil.
type StartHooks struct {
	// Report gets one error per problem, now and later (a server that
	// failed to start, that stopped, that offers none of allowed_tools).
	// It must be safe for concurrent use.
	Report func(error)
	// Starting is called with a server's name when it has not finished
	// starting after SlowAfter (0: as soon as it starts), so a slow or
	// silent server is visible while runnel waits for it. It is called
	// at most once per server, concurrently for different servers.
	Starting  func(server string)
	SlowAfter time.Duration
	// Secrets are hidden in every report (a server's stderr may print
	// its environment).
	Secrets *stream.Redactor
}

// Manager owns the session's local MCP servers. A nil *Manager has no
// servers and no tools.
//
// Invariants: servers is set by NewMCP; tools and byName are set by Start
// before it closes ready, are read only after, and never change (a
// restarted server keeps its tools and names); progress holds a callback
// only while its call runs.
type Manager struct {
	client *mcp.Client
	cfg    Config // for the variables to hide from servers
	hooks  StartHooks
	report func(error)
	ready  chan struct{} // closed when Start has returned

	stopMu    sync.Mutex
	stopStart context.CancelFunc // ends a Start still running; set by Start
	closed    bool

	servers []*server
	tools   []*mcpTool // config order, then the server's order
	byName  map[string]*mcpTool

	token    atomic.Int64
	progress sync.Map // progress token (string) → func(Progress)
}

// server is one configured server and its current connection.
//
// Invariants: conn is nil before a successful start, after the connection
// ended, and after Close; restarted is set by the one restart a server
// gets; once closed is set, nothing starts again.
type server struct {
	cfg    Server
	m      *Manager
	stderr *tail // the last of the server's stderr, for messages

	mu        sync.Mutex
	conn      *conn
	err       error // why it is not running: a start failure or how it ended
	restarted bool
	closed    bool
	hung      bool // a call ran into its timeout: Close does not wait for a graceful exit

	refused refusal // what the HTTP policy last refused it (mcphttp.go)

	prompts   []Prompt   // listed by the first start, read after Start (mcpprompts.go)
	resources []Resource // likewise
}

// conn is one running server process and its session.
type conn struct {
	cs   *mcp.ClientSession
	pid  int           // the process (and its group); 0 for a server on the network
	done chan struct{} // closed when the connection has ended
	cut  *refusal      // a message past mcp_message_bytes that ended it (stdio; the HTTP policy's refusals are the server's)
	cuts *listingCuts  // the listings whose pages its reader cut at their bound (mcplisting.go)
	// starting is set while the server's start lists its tools (guarded by
	// the server's mu): an end then is the start's to report, not watch's.
	starting bool
}

// mcpTool is one tool a server offers, under the name the model sees.
type mcpTool struct {
	name        string // the function name: server__tool, sanitized
	tool        string // the server's own name for it
	server      *server
	description string
	params      json.RawMessage // its input schema, as the server sent it
	// schema compiles params at the tool's first call: a compiled schema
	// costs a few hundred times its JSON (a wide one of 56 KiB, 180 ms
	// and 28 MB), so a start neither compiles hundreds of them nor holds
	// them. It is nil when params does not compile: only JSON is checked.
	schema func() *Schema
}

// StartMCPWith launches every server in c concurrently, lists their tools
// and returns when all have started or failed (each within its
// startup_timeout). h reaches the user; ctx bounds the start only.
func StartMCPWith(ctx context.Context, c Config, h StartHooks) *Manager {
	m := NewMCP(c, h)
	m.Start(ctx)
	return m
}

// NewMCP returns the Manager of c's servers, not started: Start starts
// them. Until Start has returned, the Manager offers no tools, Summary
// names the servers starting and Ready is open, so a chat can show itself
// at once and say what it waits for.
func NewMCP(c Config, h StartHooks) *Manager {
	report := h.Report
	if report == nil {
		report = func(error) {}
	}
	if h.Secrets != nil {
		inner := report
		report = func(err error) { inner(h.Secrets.Error(err)) }
	}
	m := &Manager{cfg: c, hooks: h, report: report, byName: map[string]*mcpTool{}, ready: make(chan struct{})}
	m.client = mcp.NewClient(&mcp.Implementation{Name: "runnel", Version: "1"}, &mcp.ClientOptions{
		Capabilities:                &mcp.ClientCapabilities{}, // no roots, sampling or elicitation
		ProgressNotificationHandler: m.onProgress,
	})
	for _, cfg := range c.Servers {
		m.servers = append(m.servers, &server{cfg: cfg, m: m, stderr: &tail{}})
	}
	return m
}

// Ready is closed when Start has returned. A nil Manager is ready.
func (m *Manager) Ready() <-chan struct{} {
	if m == nil {
		return closedChan
	}
	return m.ready
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// started reports whether Start has returned, after which servers, tools
// and byName no longer change.
func (m *Manager) started() bool {
	select {
	case <-m.ready:
		return true
	default:
		return false
	}
}

// Start launches every server concurrently, lists their tools and returns
// when all have started or failed (each within its startup_timeout). ctx
// bounds the start only. Call it once.
func (m *Manager) Start(ctx context.Context) {
	defer close(m.ready)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m.stopMu.Lock()
	if m.closed {
		cancel()
	}
	m.stopStart = cancel
	m.stopMu.Unlock()
	h, report := m.hooks, m.report
	listed := make([][]*mcp.Tool, len(m.servers))
	var wg sync.WaitGroup
	for i, s := range m.servers {
		wg.Go(func() {
			if h.Starting != nil {
				t := time.AfterFunc(h.SlowAfter, func() { h.Starting(s.cfg.Name) })
				defer t.Stop()
			}
			tools, err := s.startAndList(ctx)
			if err != nil {
				report(err)
				return
			}
			listed[i] = tools
		})
	}
	wg.Wait()

	used := map[string]bool{}
	for _, f := range m.cfg.Functions {
		used[f.Name] = true
	}
	for i, s := range m.servers {
		for _, t := range listed[i] {
			params := toolParams(t)
			mt := &mcpTool{
				name: exposedName(s.cfg.Name, t.Name, used), tool: t.Name, server: s,
				description: t.Description, params: params,
				schema: sync.OnceValue(func() *Schema { c, _ := CompileSchema(params); return c }),
			}
			m.tools = append(m.tools, mt)
			m.byName[mt.name] = mt
		}
	}
}

// startAndList starts s and returns the tools it offers that allowed_tools
// lets through.
func (s *server) startAndList(ctx context.Context) ([]*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.startupTimeout())
	defer cancel()
	c, err := s.start(ctx)
	s.mu.Lock()
	if s.closed && err == nil { // Close came first: this connection is not wanted
		s.mu.Unlock()
		_ = c.cs.Close()
		return nil, fmt.Errorf("mcp server %s is shut down", s.cfg.Name)
	}
	s.conn, s.err = c, err
	if c != nil {
		c.starting = true // until the listing is done, its failure is this start's (watch leaves it)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var ( // written by the listing: read only when it ended in time
		tools   []*mcp.Tool
		bounds  toolBounds
		listErr error
	)
	if inTime(ctx, func() { tools, bounds, listErr = s.listTools(ctx, c) }) {
		err = listErr
	} else {
		err = s.cutOff(c) // the SDK is still decoding the page; nothing waits on it
		if err == nil {
			err = s.startTimedOut("tools/list")
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("mcp server %s: list tools: %v", s.cfg.Name, ctx.Err())
			}
		}
	}
	if err != nil {
		s.mu.Lock()
		s.conn, s.err = nil, err // not running, as Summary says
		s.mu.Unlock()
		s.abandon(c)
		return nil, err
	}
	if line := bounds.line(s.cfg.Name); line != "" {
		s.m.report(errors.New(line))
	}
	for _, want := range s.cfg.AllowedTools {
		if !slices.ContainsFunc(tools, func(t *mcp.Tool) bool { return t.Name == want }) {
			s.m.report(fmt.Errorf("mcp server %s offers no tool %q (named in allowed_tools)", s.cfg.Name, want))
		}
	}
	var (
		prompts   []Prompt
		resources []Resource
		lines     []error
	)
	if inTime(ctx, func() { prompts, resources, lines = s.listExtras(ctx, c) }) {
		s.prompts, s.resources = prompts, resources
		for _, line := range lines {
			s.m.report(line)
		}
	} else {
		s.m.report(s.extrasLate())
	}
	s.mu.Lock()
	c.starting = false
	ended := false
	select {
	case <-c.done: // it ended while starting: watch left the line to us
		ended = true
	default:
	}
	s.mu.Unlock()
	if ended {
		err := s.cutOff(c)
		if err == nil {
			err = fmt.Errorf("mcp server %s stopped as it started%s", s.cfg.Name, s.stderr.hint())
		}
		s.mu.Lock()
		if s.conn == c {
			s.conn, s.err = nil, err
		}
		s.mu.Unlock()
		return nil, err
	}
	return tools, nil
}

// listTools lists the tools c offers that allowed_tools lets through, held
// to the listing bounds (mcpbounds.go). It changes nothing of s, so a start
// that stops waiting for it (inTime) leaves no state behind.
func (s *server) listTools(ctx context.Context, c *conn) ([]*mcp.Tool, toolBounds, error) {
	var tools []*mcp.Tool
	var bounds toolBounds
	for t, err := range c.cs.Tools(ctx, nil) {
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // the start stopped waiting: the rest is nobody's
		}
		if err != nil {
			if r := s.cutOff(c); r != nil {
				err = r
			} else if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = s.startTimedOut("tools/list")
			} else {
				err = fmt.Errorf("mcp server %s: list tools: %v", s.cfg.Name, err)
			}
			return nil, bounds, err
		}
		if len(s.cfg.AllowedTools) > 0 && !slices.Contains(s.cfg.AllowedTools, t.Name) {
			continue
		}
		if len(tools) == stream.Limits().MCPTools {
			bounds.more = true
			break // the listing stops here: no more pages are asked for
		}
		if bounds.admit(t) {
			tools = append(tools, t)
		}
	}
	if c.cuts.was(listTools) { // a page held more than mcp_tools: the reader cut it
		bounds.more = true
	}
	return tools, bounds, nil
}

// listings counts the listings inTime runs, those a start stopped waiting
// for included: tests wait for them, so that what one left decoding is not
// the next one's heap.
var listings sync.WaitGroup

// inTime runs list, a listing whose page the SDK decodes whole before it
// returns anything, and waits for it or for the end of ctx, whichever
// comes first: a page that takes longer to decode than startup_timeout
// (one under mcp_message_bytes can hold hundreds of thousands of tiny
// tools) does not hold the start. It reports whether list ended; when it
// did not, list is still running and what it writes must not be read.
func inTime(ctx context.Context, list func()) bool {
	done := make(chan struct{})
	listings.Go(func() {
		defer close(done)
		list()
	})
	select {
	case <-done:
		return true
	case <-ctx.Done():
		select {
		case <-done: // both at once: the listing is whole, take it
			return true
		default:
			return false
		}
	}
}

// start launches the process and opens the session. The caller records the
// result.
func (s *server) start(ctx context.Context) (*conn, error) {
	if s.cfg.URL != "" {
		return s.startHTTP(ctx)
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	secrets := s.m.cfg.hiddenEnv(s.cfg.PassAPIKey, s.cfg.EnvPassthrough)
	extra := make([]string, 0, len(s.cfg.Env))
	for k, v := range s.cfg.Env {
		extra = append(extra, k+"="+v)
	}
	slices.Sort(extra)
	cmd.Env = ChildEnv(secrets, extra...)
	cmd.Stderr = s.stderr
	ownGroup(cmd) // the terminal's ^C is runnel's to handle
	cmd.WaitDelay = mcpGrace
	var unwatch func() bool
	cut, cuts := &refusal{}, &listingCuts{}
	cs, err := s.m.client.Connect(ctx, stdioTransport{cmd: cmd, unwatch: &unwatch, cut: cut, cuts: cuts}, nil)
	if unwatch != nil {
		unwatch()
	}
	if err != nil {
		if cmd.Process != nil {
			_ = killGroup(cmd.Process.Pid, true)
			releaseGroup(cmd.Process.Pid)
		}
		if r := cut.take(); r != nil {
			return nil, fmt.Errorf("mcp server %s: %v", s.cfg.Name, r)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, s.startTimedOut("initialize")
		}
		return nil, fmt.Errorf("mcp server %s: %s%s", s.cfg.Name, startLine(s.cfg.Command, err), s.stderr.hint())
	}
	c := &conn{cs: cs, pid: cmd.Process.Pid, done: make(chan struct{}), cut: cut, cuts: cuts}
	go s.watch(c)
	return c, nil
}

// abandon ends c, a server that failed its start, without waiting on it:
// a process gets no grace (it may be blocked writing a listing nobody
// reads), and the session closes in the background, so the start is held
// to its startup_timeout.
func (s *server) abandon(c *conn) {
	if c.pid > 0 {
		_ = killGroup(c.pid, true)
	}
	go func() { _ = c.cs.Close() }() // its error is only how the process exited
}

// cutOff is why c ended when a bound ended it: a message past
// mcp_message_bytes, or another of the HTTP policy's refusals; nil when
// neither did.
func (s *server) cutOff(c *conn) error {
	r := s.refused.take()
	if c.cut != nil {
		r = c.cut.peek()
	}
	if r == nil {
		return nil
	}
	return fmt.Errorf("mcp server %s: %w", s.cfg.Name, r)
}

// extrasLate is the line for a server whose prompts and resources were
// not listed within its startup_timeout.
func (s *server) extrasLate() error {
	return fmt.Errorf("mcp server %s: its prompts and resources were not listed within %s (startup_timeout in [[mcp_servers]]): none are offered", s.cfg.Name, s.cfg.startupTimeout())
}

// startTimedOut is the error for a server that did not answer step (its
// initialize or tools/list request) within its startup_timeout.
func (s *server) startTimedOut(step string) error {
	return fmt.Errorf("mcp server %s did not start: no answer to %s within %s (startup_timeout in [[mcp_servers]])%s",
		s.cfg.Name, step, s.cfg.startupTimeout(), s.stderr.hint())
}

// watch waits for a connection to end and reports it if nobody asked.
func (s *server) watch(c *conn) {
	err := c.cs.Wait()
	if c.pid > 0 {
		releaseGroup(c.pid) // Windows: what the server left running ends with its job
	}
	s.mu.Lock()
	close(c.done)
	unexpected := !s.closed && s.conn == c && !c.starting
	if unexpected {
		s.conn = nil
		s.err = fmt.Errorf("mcp server %s stopped%s%s", s.cfg.Name, exitReason(err), s.stderr.hint())
		if c.cut != nil {
			if r := c.cut.peek(); r != nil {
				s.err = fmt.Errorf("mcp server %s: %v", s.cfg.Name, r)
			}
		}
	}
	again := s.restarted
	why := s.err
	s.mu.Unlock()
	if !unexpected {
		return
	}
	if again {
		s.m.report(fmt.Errorf("%v; it was restarted once already and stays stopped", why))
	} else {
		s.m.report(fmt.Errorf("%v; it will be restarted on its next use", why))
	}
}

func exitReason(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// ensure returns a live connection, restarting the server once in the
// session if it is not running.
func (s *server) ensure(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, fmt.Errorf("mcp server %s is shut down", s.cfg.Name)
	case s.conn != nil:
		return s.conn, nil
	case s.restarted:
		return nil, fmt.Errorf("%v; it was restarted once already: restart runnel to use it again", s.err)
	}
	s.restarted = true
	ctx, cancel := context.WithTimeout(ctx, s.cfg.startupTimeout())
	defer cancel()
	c, err := s.start(ctx)
	if err != nil {
		s.err = err
		return nil, fmt.Errorf("restart: %w", err)
	}
	s.conn, s.err = c, nil
	return c, nil
}

// lookup finds the tool the model calls name.
func (m *Manager) lookup(name string) (*mcpTool, bool) {
	if m == nil || !m.started() {
		return nil, false
	}
	t, ok := m.byName[name]
	return t, ok
}

// call runs one tool call. The output is the result's text; isError says
// the tool reported a failure (the output then starts with "error: "). err
// is a failure to get a result at all: the server is gone, it answered with
// a protocol error, ctx ended, or the server's timeout passed (the error
// then is a *callTimeoutError, which names the server and the tool).
func (m *Manager) call(ctx context.Context, t *mcpTool, arguments string, progress func(Progress)) (output string, isError bool, err error) {
	parent := ctx
	timeout := t.server.cfg.callTimeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := t.server.ensure(ctx)
	if err != nil {
		return "", false, err
	}
	args := json.RawMessage(strings.TrimSpace(arguments))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	params := &mcp.CallToolParams{Name: t.tool, Arguments: args}
	if progress != nil {
		tok := fmt.Sprintf("runnel-%d", m.token.Add(1))
		params.SetProgressToken(tok)
		m.progress.Store(tok, progress)
		defer m.progress.Delete(tok)
	}
	res, err := c.cs.CallTool(ctx, params)
	var refused error
	if err != nil {
		refused = t.server.cutOff(c)
	}
	switch {
	case err == nil:
		out := resultText(res)
		if res.IsError {
			out = "error: " + out
		}
		return out, res.IsError, nil
	case parent.Err() != nil:
		return "", false, parent.Err()
	case ctx.Err() != nil:
		t.server.mu.Lock()
		t.server.hung = true
		t.server.mu.Unlock()
		return "", false, &callTimeoutError{server: t.server.cfg.Name, tool: t.tool, after: timeout}
	case refused != nil: // its line, not the SDK's wrapping of it (with the URL's query)
		return "", false, refused
	case connectionLost(err):
		// Let the watcher record how it ended, so the message says why.
		select {
		case <-c.done:
		case <-time.After(mcpGrace):
		}
		t.server.mu.Lock()
		why := t.server.err
		t.server.mu.Unlock()
		if why == nil {
			why = fmt.Errorf("mcp server %s: the connection broke", t.server.cfg.Name)
		}
		return "", false, fmt.Errorf("%v during the call", why)
	}
	return "", false, fmt.Errorf("mcp server %s: %v", t.server.cfg.Name, err)
}

// connectionLost reports whether a call failed because the connection
// ended rather than because the server answered with an error: a server's
// answer is a JSON-RPC error with a code of its own, while the SDK reports
// a lost connection as ErrConnectionClosed, as "server is closing" (-32004)
// or "client is closing" (-32003), or as a plain transport error.
func connectionLost(err error) bool {
	if errors.Is(err, mcp.ErrConnectionClosed) {
		return true
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code == -32004 || we.Code == -32003
	}
	return true
}

func (m *Manager) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	if p == nil {
		return
	}
	if f, ok := m.progress.Load(fmt.Sprint(p.ProgressToken)); ok {
		f.(func(Progress))(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// FunctionTools returns the tools of the enabled servers (enabled is asked
// with the server's name) as function tools for a request.
func (m *Manager) FunctionTools(enabled func(name string) bool) []json.RawMessage {
	if m == nil || !m.started() {
		return nil
	}
	var out []json.RawMessage
	for _, t := range m.tools {
		if enabled == nil || enabled(t.server.cfg.Name) {
			out = append(out, functionTool(t.name, t.description, t.params))
		}
	}
	return out
}

// Summary is one line for the session start: "mcp: 2 servers, 7 tools",
// with the servers that failed to start named after it.
func (m *Manager) Summary() string {
	if m == nil || len(m.servers) == 0 {
		return ""
	}
	if !m.started() { // name the servers not started (or failed) yet
		var names []string
		for _, s := range m.servers {
			s.mu.Lock()
			if s.conn == nil && s.err == nil {
				names = append(names, s.cfg.Name)
			}
			s.mu.Unlock()
		}
		if len(names) == 0 {
			return "starting MCP servers…" // listing their tools
		}
		return "starting MCP server " + strings.Join(names, ", ") + "…"
	}
	var failed []string
	for _, s := range m.servers {
		s.mu.Lock()
		if s.conn == nil && !s.closed {
			failed = append(failed, s.cfg.Name)
		}
		s.mu.Unlock()
	}
	line := fmt.Sprintf("mcp: %s, %s", plural(len(m.servers)-len(failed), "server"), plural(len(m.tools), "tool"))
	if len(failed) > 0 {
		line += fmt.Sprintf(" (%s not running: %s)", plural(len(failed), "server"), strings.Join(failed, ", "))
	}
	return line
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Close shuts every server down: their stdin is closed, then after a grace
// period they get SIGTERM, then SIGKILL; a server that left a call
// unanswered past its timeout gets SIGTERM at once. It waits for all of them. Calls
// still running fail.
func (m *Manager) Close() error {
	if m == nil {
		return nil
	}
	m.stopMu.Lock()
	m.closed = true
	stop := m.stopStart
	m.stopMu.Unlock()
	if stop != nil { // Start was called: end it, and let it finish
		stop()
		<-m.ready
	}
	var wg sync.WaitGroup
	for _, s := range m.servers {
		s.mu.Lock()
		c, hung := s.conn, s.hung
		s.closed, s.conn = true, nil
		s.mu.Unlock()
		if c != nil {
			if hung && c.pid > 0 { // it ignored a cancellation: it will not stop because its stdin closes
				_ = killGroup(c.pid, false)
			}
			wg.Go(func() {
				_ = c.cs.Close() // its error is only how the process exited
				<-c.done
			})
		}
	}
	wg.Wait()
	return nil
}

// ListItems returns one mcp_list_tools output item per server, shaped as the
// Responses API shapes a hosted server's listing, so the UI can draw local
// servers with the same panel ("server: N tools").
func (m *Manager) ListItems() []json.RawMessage {
	if m == nil || !m.started() {
		return nil
	}
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"input_schema,omitempty"`
	}
	var out []json.RawMessage
	for _, s := range m.servers {
		item := struct {
			Type        string `json:"type"`
			ID          string `json:"id"`
			ServerLabel string `json:"server_label"`
			Tools       []tool `json:"tools"`
			Status      string `json:"status,omitempty"` // "failed" for a server not running: its panel agrees with its error
			Error       string `json:"error,omitempty"`
		}{Type: "mcp_list_tools", ID: "mcpl_local_" + s.cfg.Name, ServerLabel: s.cfg.Name, Tools: []tool{}}
		for _, t := range m.tools {
			if t.server == s {
				item.Tools = append(item.Tools, tool{Name: t.tool, Description: t.description, InputSchema: t.params})
			}
		}
		s.mu.Lock()
		if s.conn == nil && !s.closed {
			item.Status, item.Error = "failed", "not running"
		}
		s.mu.Unlock()
		b, _ := json.Marshal(item)
		out = append(out, m.hooks.Secrets.JSON(b)) // a server's descriptions are its own text
	}
	return out
}
