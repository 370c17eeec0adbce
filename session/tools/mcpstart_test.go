package tools

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/tools/mcptest"
	"runnel/stream"
)

// manyHTTP serves mcptest.ManyTools(n, page) over streamable HTTP.
func manyHTTP(t *testing.T, n, page int) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	quit := make(chan struct{})
	s.AddReceivingMiddleware(mcptest.ManyTools(n, page, quit))
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(quit) }) // runs first: a mute tools/list ends
	return ts.URL
}

// timedStart starts srv alone and returns how long Start took, what it
// reported and how much the heap grew.
func timedStart(t *testing.T, srv Server) (time.Duration, []error, uint64) {
	t.Helper()
	listings.Wait() // a listing an earlier start stopped waiting for may still be decoding
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := before.HeapInuse
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the heap while the start runs
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	r := newReports()
	m := NewMCP(Config{Servers: []Server{srv}}, StartHooks{Report: r.add})
	start := time.Now()
	m.Start(t.Context())
	d := time.Since(start)
	close(stop)
	<-done
	m.Close()
	runtime.ReadMemStats(&after)
	r.mu.Lock()
	defer r.mu.Unlock()
	return d, r.errs, peak - before.HeapInuse
}

// tinyStart is the baseline of a start's budget: the longer of a tiny
// server's start over stdio (bin) and over streamable HTTP, in this run.
func tinyStart(t *testing.T, bin string) time.Duration {
	t.Helper()
	base, errs, _ := timedStart(t, Server{Name: "tiny", Command: bin, Args: []string{"many", "3"}, StartupTimeout: time.Minute})
	if len(errs) != 0 {
		t.Fatalf("tiny server: %v", errs)
	}
	hb, errs, _ := timedStart(t, Server{Name: "tiny", URL: manyHTTP(t, 3, 3), StartupTimeout: time.Minute})
	if len(errs) != 0 {
		t.Fatalf("tiny HTTP server: %v", errs)
	}
	return max(base, hb)
}

// A server offering 200,000 tools (in one page, in pages, or filtered out
// by allowed_tools) or never answering tools/list is reported within its
// startup_timeout, over stdio and streamable HTTP, in one line naming it
// and the bound or the timeout, with the heap held.
//
// Which of the two ends a listing must not be a race between the server and
// the clock, which a loaded machine decides: a paged listing is ended by the
// bound on tools, so it has a startup_timeout of a minute (a guard, not a
// bet that a page comes within 500 ms); a filtered one offers tools without
// end (none passes the filter), so only the timeout ends it, on a fast
// machine too.
func TestMCPStartHeldToStartupTimeout(t *testing.T) {
	// the timeout is short: five of the cases wait it out (a listing ended
	// by the bound has a minute, below, so it decides no race)
	//
	// Under -short mcp_tools and mcp_message_bytes are a tenth of their
	// defaults (shortListingBounds), and so are the tools and the pages, in
	// the same proportions; the timeout, which the filtered listings spend
	// building and reading tools, is half.
	lim := shortListingBounds(t)
	n, per, timeout := 200*lim.MCPTools, lim.MCPTools, 500*time.Millisecond
	if testing.Short() {
		timeout = 250 * time.Millisecond
	}
	bin := mcpServerBinary(t)
	stdio := func(page int, allowed ...string) Server {
		return Server{Name: "many", Command: bin, Args: []string{"many", strconv.Itoa(n), strconv.Itoa(page)}, AllowedTools: allowed, StartupTimeout: timeout, Approval: ApproveNever}
	}
	http := func(page int, allowed ...string) Server {
		return Server{Name: "many", URL: manyHTTP(t, n, page), AllowedTools: allowed, StartupTimeout: timeout, Approval: ApproveNever}
	}
	// byTheBound gives a listing the bound on tools ends a minute to get there
	byTheBound := func(s Server) Server { s.StartupTimeout = time.Minute; return s }
	// endless makes a listing offer tools without end
	endless := func(s Server) Server {
		if s.URL != "" {
			s.URL = manyHTTP(t, math.MaxInt32, per)
		} else {
			s.Args[1] = strconv.Itoa(math.MaxInt32)
		}
		return s
	}
	base := tinyStart(t, bin)
	budget := timeout + 3*base + time.Second
	t.Logf("tiny start %s; budget %s", base, budget)

	timedOut := fmt.Sprintf("mcp server many did not start: no answer to tools/list within %s (startup_timeout in [[mcp_servers]])", timeout)
	refused := fmt.Sprintf("mcp server many: one of its messages passed %s, the most runnel takes — raise [limits] mcp_message_bytes in the config to allow more", stream.FormatBytes(lim.MCPMessage)) // one page past mcp_message_bytes
	capped := fmt.Sprintf("mcp server many: it offers more than %d tools: the rest are left out — raise [limits] mcp_tools in the config to take more", lim.MCPTools)
	for _, c := range []struct {
		name string
		srv  Server
		want []string // one of these lines
	}{
		{"stdio one page", stdio(n), []string{timedOut, refused, capped}},
		{"stdio paged", byTheBound(stdio(per)), []string{capped}},
		{"stdio filtered", endless(stdio(per, "none")), []string{timedOut}},
		{"stdio mute", stdio(0), []string{timedOut}},
		{"stdio deaf", Server{Name: "many", Command: bin, Args: []string{"deaf"}, StartupTimeout: timeout}, []string{strings.Replace(timedOut, "tools/list", "initialize", 1)}},
		{"http one page", http(n), []string{timedOut, refused, capped}},
		{"http paged", byTheBound(http(per)), []string{capped}},
		{"http filtered", endless(http(per, "none")), []string{timedOut}},
		{"http mute", http(0), []string{timedOut}},
	} {
		d, errs, grew := timedStart(t, c.srv)
		t.Logf("%s: %s, heap +%d MiB: %v", c.name, d, grew>>20, errs)
		if c.srv.StartupTimeout == timeout && d > budget {
			t.Errorf("%s: Start took %s; startup_timeout %s, budget %s", c.name, d, timeout, budget)
		}
		if len(errs) != 1 || strings.Contains(errs[0].Error(), "\n") {
			t.Errorf("%s: %d reports, want one line: %v", c.name, len(errs), errs)
		} else if got := errs[0].Error(); !slices.ContainsFunc(c.want, func(w string) bool { return strings.HasPrefix(got, w) }) {
			t.Errorf("%s: report %q\nwant one of %q", c.name, got, c.want)
		}
		if grew > 256<<20 {
			t.Errorf("%s: the heap grew %d MiB", c.name, grew>>20)
		}
	}
}
