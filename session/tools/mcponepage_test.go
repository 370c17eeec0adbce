package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// onePageTools is how many of mcptest.ManyTools' tools fit in one
// tools/list page of 15/16 of mcp_message_bytes: the page passes the bound
// on messages, and the SDK decodes every tool of it (each schema into a
// map) before runnel sees the first.
func onePageTools() int {
	one, _ := json.Marshal(&mcp.Tool{Name: "t000000", Description: "one of many tools",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)})
	return stream.Limits().MCPMessage / 16 * 15 / (len(one) + 1)
}

// One tools/list page just under mcp_message_bytes, of many small tools,
// over stdio and streamable HTTP: decoding it costs the SDK far more than
// a startup_timeout, and the start still returns within the timeout, in
// one line naming the server and the timeout (or the bound on tools, on a
// machine that decodes the page in time).
//
// Under -short mcp_tools and mcp_message_bytes are a tenth of their
// defaults (shortListingBounds), and so is the page.
func TestMCPStartHeldOnOneLargePage(t *testing.T) {
	lim := shortListingBounds(t)
	t.Cleanup(listings.Wait) // the pages left decoding are not the next test's heap
	n, timeout := onePageTools(), 2*time.Second
	if testing.Short() {
		timeout = 250 * time.Millisecond
	}
	bin := mcpServerBinary(t)
	base := tinyStart(t, bin)
	budget := timeout*3/2 + 3*base
	t.Logf("%d tools in one page of at most %s; tiny start %s; budget %s", n, stream.FormatBytes(lim.MCPMessage), base, budget)

	timedOut := fmt.Sprintf("mcp server many did not start: no answer to tools/list within %s (startup_timeout in [[mcp_servers]])", timeout)
	capped := fmt.Sprintf("mcp server many: it offers more than %d tools: the rest are left out", lim.MCPTools)
	for _, c := range []struct {
		name string
		srv  Server
	}{
		{"stdio", Server{Name: "many", Command: bin, Args: []string{"many", strconv.Itoa(n), strconv.Itoa(n)}, StartupTimeout: timeout}},
		{"http", Server{Name: "many", URL: manyHTTP(t, n, n), StartupTimeout: timeout}},
	} {
		d, errs, grew := timedStart(t, c.srv)
		t.Logf("%s: %s against startup_timeout %s, heap +%d MiB: %v", c.name, d, timeout, grew>>20, errs)
		if d > budget {
			t.Errorf("%s: Start took %s; startup_timeout %s, budget %s", c.name, d, timeout, budget)
		}
		if len(errs) != 1 || strings.Contains(errs[0].Error(), "\n") {
			t.Errorf("%s: %d reports, want one line: %v", c.name, len(errs), errs)
		} else if got := errs[0].Error(); !strings.HasPrefix(got, timedOut) && !strings.HasPrefix(got, capped) {
			t.Errorf("%s: report %q\nwant %q or %q", c.name, got, timedOut, capped)
		}
	}
}

// One prompts/list page just under mcp_message_bytes, of many small
// prompts, from a server whose tools list at once: the start returns within
// startup_timeout with its tools, and says in one line that its prompts
// were not listed in time (or, on a machine that decodes the page in time,
// that the prompts past the bound were left out).
func TestMCPStartHeldOnOneLargePromptPage(t *testing.T) {
	shortListingBounds(t)
	t.Cleanup(listings.Wait)
	timeout := 500 * time.Millisecond // the full page takes longer, here about 900 ms
	if testing.Short() {
		timeout = 250 * time.Millisecond
	}
	n := onePageTools()
	page := &mcp.ListPromptsResult{Prompts: make([]*mcp.Prompt, n)}
	for i := range page.Prompts {
		page.Prompts[i] = &mcp.Prompt{Name: fmt.Sprintf("p%06d", i), Arguments: []*mcp.PromptArgument{{Name: "a"}, {Name: "b"}}}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "prompts", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "one"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "prompts/list" {
				return page, nil
			}
			return next(ctx, method, req)
		}
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(ts.Close)

	budget := timeout*3/2 + 3*tinyStart(t, mcpServerBinary(t))
	r := newReports()
	m := NewMCP(Config{Servers: []Server{{Name: "p", URL: ts.URL, StartupTimeout: timeout}}}, StartHooks{Report: r.add})
	t.Cleanup(func() { _ = m.Close() })
	start := time.Now()
	m.Start(t.Context())
	d := time.Since(start)
	r.mu.Lock()
	got := slices.Clone(r.errs)
	r.mu.Unlock()
	t.Logf("%d prompts in one page: %s against startup_timeout %s (budget %s): %v", n, d, timeout, budget, got)
	if d > budget {
		t.Errorf("Start took %s; startup_timeout %s, budget %s", d, timeout, budget)
	}
	if names := m.ToolNames(); !slices.Contains(names, "p__echo") {
		t.Errorf("tools %q, want p__echo offered", names)
	}
	late := fmt.Sprintf("mcp server p: its prompts and resources were not listed within %s (startup_timeout in [[mcp_servers]]): none are offered", timeout)
	if len(got) != 1 || (got[0].Error() != late && !strings.Contains(got[0].Error(), "prompts or resources left out")) {
		t.Errorf("reports %q, want one: %q (or the prompts left out)", got, late)
	}
}

// A prompts or resources listing that ends with the start's deadline is
// the one line saying none were listed in time, whatever else it saw (a
// page cut at its bound): not the SDK's "context deadline exceeded"
// beside it.
func TestMCPExtrasLateIsOneLine(t *testing.T) {
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return netServer() }, nil))
	t.Cleanup(ts.Close)
	m, _ := startNet(t, Server{Name: "web", URL: ts.URL, StartupTimeout: time.Second})
	s := m.servers[0]
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	c.cuts.set(listPrompts) // as if a page had been cut before the deadline
	ctx, cancel := context.WithTimeout(t.Context(), -1)
	defer cancel()
	prompts, resources, lines := s.listExtras(ctx, c)
	want := "mcp server web: its prompts and resources were not listed within 1s (startup_timeout in [[mcp_servers]]): none are offered"
	if len(prompts) != 0 || len(resources) != 0 || len(lines) != 1 || lines[0].Error() != want {
		t.Errorf("%d prompts, %d resources, lines %q\nwant one: %q", len(prompts), len(resources), lines, want)
	}
}
