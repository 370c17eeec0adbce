package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// hugeListing is the network twin of the test binary's hugepage mode: a
// tools/list answer of one message over n bytes.
func hugeListing(n int) mcp.Middleware {
	page := &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "huge", Description: strings.Repeat("h", n), InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			return page, nil
		}
	}
}

// withBounds puts the bounds edit makes in force for the test.
func withBounds(t *testing.T, edit func(*stream.Bounds)) {
	old := stream.Limits()
	b := old
	edit(&b)
	stream.SetLimits(b)
	t.Cleanup(func() { stream.SetLimits(old) })
}

// withMessageBound puts mcp_message_bytes at limit for the test.
func withMessageBound(t *testing.T, limit int) {
	withBounds(t, func(b *stream.Bounds) { b.MCPMessage = limit })
}

// A tool list page ten times mcp_message_bytes, over stdio, streamable
// HTTP and SSE: the server is reported in one line naming it, the bound
// and the key to raise; over stdio the heap never holds the page.
func TestMCPMessageBounded(t *testing.T) {
	const limit = 1 << 20
	withMessageBound(t, limit)
	s := mcp.NewServer(&mcp.Implementation{Name: "huge", Version: "1"}, nil)
	s.AddReceivingMiddleware(hugeListing(10 * limit))
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(ts.Close)
	ss := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(ss.Close)

	want := "mcp server h: one of its messages passed 1 MiB, the most runnel takes — raise [limits] mcp_message_bytes in the config to allow more"
	for _, c := range []struct {
		kind string
		srv  Server
	}{
		{"stdio", Server{Name: "h", Command: mcpServerBinary(t), Args: []string{"hugepage", strconv.Itoa(10 * limit)}}},
		{"http", Server{Name: "h", URL: ts.URL}},
		{"sse", Server{Name: "h", URL: ss.URL, SSE: true}},
	} {
		d, errs, grew := timedStart(t, c.srv)
		t.Logf("%s: %s, heap +%s: %q", c.kind, d, stream.FormatBytes(int(grew)), errs)
		if len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%s: reports %q\nwant one: %q", c.kind, errs, want)
		}
		// half the page at most (the decoder's buffer grows by doubling);
		// the network servers run in this process, their own copy of the
		// page on this heap: only the child's is not
		if c.kind == "stdio" && grew > 5*limit {
			t.Errorf("%s: the heap grew %s for a bound of %s", c.kind, stream.FormatBytes(int(grew)), stream.FormatBytes(limit))
		}
	}
}

// A tool result ten times mcp_message_bytes over stdio: the call fails in
// one line naming the bound, and the server is not offered as running.
func TestMCPResultPastMessageBound(t *testing.T) {
	const limit = 1 << 20
	withMessageBound(t, limit)
	m := NewMCP(Config{Servers: []Server{{Name: "h", Command: mcpServerBinary(t), Approval: ApproveNever}}}, StartHooks{})
	m.Start(t.Context())
	t.Cleanup(func() { m.Close() })
	r := NewRunner(Config{}, m, Hooks{})
	res := r.Run(t.Context(), []Call{{CallID: "c1", Name: "h__big", Arguments: fmt.Sprintf(`{"text":"%d"}`, 10*limit)}})[0]
	want := "mcp server h: one of its messages passed 1 MiB, the most runnel takes — raise [limits] mcp_message_bytes in the config to allow more"
	if !strings.Contains(res.Output, want) || strings.Count(res.Output, "\n") > 1 {
		t.Errorf("status %v, output %.300q\nwant the line %q", res.Status, res.Output, want)
	}
}

// The reader counts each JSON value whole, whatever its lines: a message
// spread over many short lines is held to the bound too, braces and
// quotes inside strings do not end it, and the space between messages
// counts for none.
func TestMessageBoundFollowsJSON(t *testing.T) {
	read := func(in string, limit int64) (string, error) {
		var cut error
		m := &messageBound{r: strings.NewReader(in), limit: limit, cut: func(err error) { cut = err }}
		var out strings.Builder
		buf := make([]byte, 7)
		for {
			n, err := m.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				if cut != nil && err != cut {
					t.Errorf("Read gave %v, cut %v", err, cut)
				}
				if err == io.EOF {
					err = nil
				}
				return out.String(), err
			}
		}
	}
	small := `{"a":"x}]\"{"}` + "\n\n   " + `{"b":[1,2]}` + "\n"
	if got, err := read(small, 14); err != nil || got != small {
		t.Errorf("two small messages: %q, %v", got, err)
	}
	spread := "{\n" + strings.Repeat(`"k":1,`+"\n", 20) + `"end":1}` + "\n"
	if _, err := read(spread, 64); err == nil || !strings.Contains(err.Error(), "mcp_message_bytes") {
		t.Errorf("a %d-byte message over many lines passed a bound of 64: %v", len(spread), err)
	}
	if _, err := read(`{"s":"`+strings.Repeat("}", 100)+`"}`, 64); err == nil {
		t.Error("a long string of closing braces ended the message")
	}
}
