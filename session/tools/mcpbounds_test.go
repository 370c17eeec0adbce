package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/tools/mcptest"
	"runnel/stream"
)

// shortListingBounds puts mcp_tools and mcp_message_bytes at a tenth of
// their defaults for the test under -short, and returns the bounds in force.
// A listing many times the bound then costs a tenth to build, send and
// decode, in the same proportions; the full run keeps the defaults.
func shortListingBounds(t *testing.T) stream.Bounds {
	if !testing.Short() {
		return stream.Limits()
	}
	old := stream.Limits()
	b := old
	b.MCPTools = stream.DefaultBounds.MCPTools / 10
	b.MCPMessage = stream.DefaultBounds.MCPMessage / 10
	stream.SetLimits(b)
	t.Cleanup(func() { stream.SetLimits(old) })
	return stream.Limits()
}

// floodArgs are ten times each listing bound in force: tools, name,
// description, schema.
func floodArgs() []string {
	b := stream.Limits()
	return []string{"flood", strconv.Itoa(10 * b.MCPTools), strconv.Itoa(10 * b.MCPToolName),
		strconv.Itoa(10 * b.MCPToolDescription), strconv.Itoa(10 * b.MCPToolSchema)}
}

// floodServer is the network twin of the test server's flood mode and its
// big tool.
func floodServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "flood", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Answer with N bytes"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoIn) (*mcp.CallToolResult, any, error) {
			n, _ := strconv.Atoi(a.Text)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("b", n)}}}, nil, nil
		})
	mcptest.Flood(s, floodArgs()[1:])
	return s
}

// floodManagers starts the flooding server over stdio, streamable HTTP and
// SSE, each as a server named "f".
func floodManagers(t *testing.T) map[string]*Manager {
	t.Helper()
	fs := floodServer() // one server for both: building ten times mcp_tools takes a while
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return fs }, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return fs }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	ss := httptest.NewServer(sse)
	t.Cleanup(ss.Close)
	out := map[string]*Manager{}
	reps := map[string]*reports{}
	for kind, srv := range map[string]Server{
		"stdio": {Name: "f", Command: mcpServerBinary(t), Args: floodArgs(), Approval: ApproveNever},
		"http":  {Name: "f", URL: ts.URL, Approval: ApproveNever},
		"sse":   {Name: "f", URL: ss.URL, SSE: true, Approval: ApproveNever},
	} {
		r := newReports()
		m := NewMCP(Config{Servers: []Server{srv}}, StartHooks{Report: r.add})
		m.Start(t.Context())
		t.Cleanup(func() { m.Close() })
		out[kind], reps[kind] = m, r
	}
	for kind, r := range reps {
		r.mu.Lock()
		errs := r.errs
		r.mu.Unlock()
		if len(errs) != 1 {
			t.Fatalf("%s: %d reports, want one line: %v", kind, len(errs), errs)
		}
		line := errs[0].Error()
		for _, want := range []string{fmt.Sprintf("mcp server f: it offers more than %d tools", stream.Limits().MCPTools), "1 with a name longer than 256 bytes left out",
			"1 with an input schema larger than 64 KiB left out", "1 with an input schema too deep or with a $ref cycle left out",
			"1 descriptions cut at 16 KiB", "raise [limits] mcp_tools, mcp_tool_name_bytes, mcp_tool_schema_bytes, schema_depth, mcp_tool_description_bytes"} {
			if !strings.Contains(line, want) || strings.Contains(line, "\n") {
				t.Errorf("%s: report %q lacks %q", kind, line, want)
			}
		}
	}
	return out
}

// Ten times every listing bound, over stdio, streamable HTTP and SSE: at
// most mcp_tools tools are offered, none with a name, description or
// schema past its bound, and one line says what was left out.
//
// A result ten times tool_result_bytes, over each of them, reaches the
// model cut at the bound with one line saying so; the item a resend
// carries is the cut one.
//
// Under -short mcp_tools is a tenth of its default (shortListingBounds).
func TestMCPListingAndResultBounded(t *testing.T) {
	b := shortListingBounds(t)
	managers := floodManagers(t)
	for kind, m := range managers {
		tools := m.FunctionTools(nil)
		if len(tools) != b.MCPTools {
			t.Errorf("%s: %d tools offered, want %d", kind, len(tools), b.MCPTools)
		}
		total := 0
		for _, raw := range tools {
			total += len(raw)
			var f struct {
				Name, Description string
				Parameters        json.RawMessage
			}
			_ = json.Unmarshal(raw, &f)
			if len(f.Name) > 64 || len(f.Description) > b.MCPToolDescription+len("…") || len(f.Parameters) > b.MCPToolSchema {
				t.Errorf("%s: tool %.40s… passes a bound (%d, %d, %d bytes)", kind, f.Name, len(f.Name), len(f.Description), len(f.Parameters))
			}
		}
		if total > 2<<20 {
			t.Errorf("%s: the tools weigh %s in every request", kind, stream.FormatBytes(total))
		}
	}

	for kind, m := range managers {
		r := NewRunner(Config{}, m, Hooks{})
		res := r.Run(t.Context(), []Call{{CallID: "c1", Name: "f__big", Arguments: fmt.Sprintf(`{"text":"%d"}`, 10*b.ToolResult)}})[0]
		if res.Status != StatusOK || !res.Truncated {
			t.Fatalf("%s: status %v truncated %t: %.200s", kind, res.Status, res.Truncated, res.Output)
		}
		body, note, ok := strings.Cut(res.Output, "\n[output cut")
		if !ok || len(body) != b.ToolResult || strings.Contains(note, "\n") {
			t.Errorf("%s: kept %d bytes, note %q", kind, len(body), note)
		}
		if want := " at 64 KiB; the tool sent 640 KiB in all — [limits] tool_result_bytes]"; note != want {
			t.Errorf("%s: note %q, want %q", kind, note, want)
		}
		if item := res.Item(); len(item) > b.ToolResult+200 {
			t.Errorf("%s: the output item is %d bytes", kind, len(item))
		}
	}
}

// A page of tools whose input schemas are each as wide as
// mcp_tool_schema_bytes lets (thousands of properties), within every bound:
// the start compiles none of them (a compiled schema costs a few hundred
// times its JSON: 25 such tools held the start 7 s and grew the heap 200
// times the page), and a call still has its arguments checked against its
// tool's schema, compiled then.
func TestMCPStartCompilesNoSchema(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"t%02d","inputSchema":{"type":"object","required":["x"],"properties":{"x":{"type":"string"}`, i)
		for j := range 5900 {
			fmt.Fprintf(&b, `,"%d":{}`, j)
		}
		b.WriteString("}}}")
	}
	b.WriteString("]}")
	page := b.Bytes()
	srv := Server{Name: "wide", URL: rawMCP(t, page, false), StartupTimeout: time.Minute, Approval: ApproveNever}
	d, errs, grew := timedStart(t, srv)
	t.Logf("10 tools of %s schemas, a page of %s: %s, heap +%s (%.0f× the page): %v", stream.FormatBytes(len(page)/10), stream.FormatBytes(len(page)), d, stream.FormatBytes(int(grew)), float64(grew)/float64(len(page)), errs)
	if len(errs) != 0 {
		t.Errorf("reports %q", errs)
	}
	if grew > 60*uint64(len(page)) {
		t.Errorf("the heap grew %s for a page of %s", stream.FormatBytes(int(grew)), stream.FormatBytes(len(page)))
	}

	m := NewMCP(Config{Servers: []Server{srv}}, StartHooks{})
	m.Start(t.Context())
	t.Cleanup(func() { m.Close() })
	res := NewRunner(Config{}, m, Hooks{}).Run(t.Context(), []Call{{CallID: "c1", Name: "wide__t03", Arguments: `{"y":1}`}})[0]
	if res.Status != StatusInvalid || !strings.Contains(res.Output, "x") {
		t.Errorf("a call without its required argument: status %v: %.200s", res.Status, res.Output)
	}
}
