package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

type echoIn struct {
	Text string `json:"text"`
}

// netServer is the go-sdk's own MCP server with one tool (echo), one
// prompt (review) and one resource (mem://notes).
func netServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "net", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo text"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "review", Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}, {Name: "focus"}}},
		func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := r.Params.Arguments
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Review " + a["file"] + " for " + a["focus"] + "\x1b[31m"}},
			}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "mem://notes", Name: "notes", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://notes", Text: "the notes\x1b]0;title\x07 with sk-secret-token-12345"}}}, nil
		})
	return s
}

// startNet starts a Manager with one network server and waits for it.
func startNet(t *testing.T, srv Server) (*Manager, *reports) {
	t.Helper()
	r := newReports()
	m := NewMCP(Config{Servers: []Server{srv}}, StartHooks{Report: r.add, Secrets: stream.NewRedactor("sk-secret-token-12345")})
	m.Start(t.Context())
	t.Cleanup(func() { m.Close() })
	return m, r
}

func callEcho(t *testing.T, m *Manager, name string) string {
	t.Helper()
	tool, ok := m.lookup(name)
	if !ok {
		t.Fatalf("no tool %s; summary %q", name, m.Summary())
	}
	out, isErr, err := m.call(t.Context(), tool, `{"text":"hi"}`, nil)
	if err != nil || isErr {
		t.Fatalf("call: %q %v %v", out, isErr, err)
	}
	return out
}

// A server on the network is spoken to over streamable HTTP with the
// configured headers on every request, and its tools are offered and run
// as a local server's.
func TestMCPStreamableHTTPWithHeaders(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return netServer() }, nil)
	var bad atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-abcdef123456" || r.Header.Get("X-Team") != "blue" {
			bad.Add(1)
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	m, _ := startNet(t, Server{Name: "web", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer tok-abcdef123456", "X-Team": "blue"}})
	if got := callEcho(t, m, "web__echo"); got != "echo: hi" {
		t.Fatalf("output %q", got)
	}
	if bad.Load() != 0 {
		t.Fatalf("%d requests came without the headers", bad.Load())
	}
	if s := m.Summary(); s != "mcp: 1 server, 1 tool" {
		t.Fatalf("summary %q", s)
	}
	if len(m.FunctionTools(nil)) != 1 {
		t.Fatal("the tool is not offered")
	}
	if secrets := (Config{Servers: []Server{{Headers: map[string]string{"Authorization": "Bearer tok-abcdef123456"}}}}).SecretValues(func(string) string { return "" }); !strings.Contains(strings.Join(secrets, " "), "tok-abcdef123456") {
		t.Fatalf("a header's value is not a secret: %q", secrets)
	}
}

// An older server that speaks only SSE refuses the streamable POST with a
// 4xx: runnel tries SSE then. transport = "sse" goes there at once.
func TestMCPFallsBackToSSE(t *testing.T) {
	var posts atomic.Int32
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return netServer() }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.RawQuery == "" {
			posts.Add(1)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	m, _ := startNet(t, Server{Name: "old", URL: ts.URL})
	if got := callEcho(t, m, "old__echo"); got != "echo: hi" {
		t.Fatalf("output %q", got)
	}
	if posts.Load() == 0 {
		t.Fatal("streamable HTTP was not tried first")
	}
	posts.Store(0)
	m2, _ := startNet(t, Server{Name: "old", URL: ts.URL, SSE: true})
	callEcho(t, m2, "old__echo")
	if posts.Load() != 0 {
		t.Fatal("transport sse still tried streamable HTTP")
	}
}

// A server that refuses the configured credentials says so in one line,
// naming the server and what to check.
func TestMCPHTTPRefusedCredentialsOneLine(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	m, r := startNet(t, Server{Name: "web", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer wrong-token-123456"}})
	err := r.wait(t)
	if got := err.Error(); got != "mcp server web refused the configured credentials (HTTP 401): check its headers or bearer_token_env" {
		t.Fatalf("report %q", got)
	}
	if s := m.Summary(); !strings.Contains(s, "not running: web") {
		t.Fatalf("summary %q", s)
	}
}

// A server's prompts and resources are listed at start; a prompt's
// arguments go by name or in order, and its messages come back as one
// sanitized text; a resource's text is sanitized with secrets hidden.
func TestMCPPromptsAndResources(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return netServer() }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	m, _ := startNet(t, Server{Name: "web", URL: ts.URL})
	ps := m.Prompts(nil)
	if len(ps) != 1 || ps[0].Name != "review" || ps[0].Usage() != "/mcp:web:review file [focus]" {
		t.Fatalf("prompts %+v", ps)
	}
	for _, line := range []string{"main.go races", "focus=races main.go", "file=main.go focus=races"} {
		args, err := PromptArgs(ps[0], line)
		if err != nil || args["file"] != "main.go" || args["focus"] != "races" {
			t.Fatalf("%q: %v %v", line, args, err)
		}
	}
	if _, err := PromptArgs(ps[0], ""); err == nil || err.Error() != "/mcp:web:review needs file (give it as file=VALUE or in order: file [focus])" {
		t.Fatalf("missing argument: %v", err)
	}
	args, _ := PromptArgs(ps[0], "main.go data races")
	if args["focus"] != "data races" {
		t.Fatalf("the last argument takes the rest: %q", args["focus"])
	}
	text, err := m.GetPrompt(t.Context(), "web", "review", map[string]string{"file": "main.go", "focus": "races"})
	if err != nil || text != "Review main.go for races" {
		t.Fatalf("prompt text %q %v", text, err)
	}
	rs := m.Resources(nil)
	if len(rs) != 1 || rs[0].URI != "mem://notes" || rs[0].Server != "web" {
		t.Fatalf("resources %+v", rs)
	}
	body, err := m.ReadResource(t.Context(), "web", "mem://notes")
	if err != nil || strings.ContainsAny(body, "\x1b\x07") || strings.Contains(body, "sk-secret") || !strings.HasPrefix(body, "the notes") {
		t.Fatalf("resource %q %v", body, err)
	}
	if _, err := m.ReadResource(t.Context(), "nope", "mem://notes"); err == nil || !strings.Contains(err.Error(), "no mcp server nope") {
		t.Fatalf("unknown server: %v", err)
	}
}

// TestMCPHostileExtrasLeftOut: a server's prompt or argument whose name
// carries an escape sequence (or could not be typed as a command), and a
// resource whose URI is past 2 KiB, are not offered; one report line says how many
// were left out. The clean ones still are.
func TestMCPHostileExtrasLeftOut(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s := netServer()
		noop := func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		}
		s.AddPrompt(&mcp.Prompt{Name: "x\x1b]52;c;cHduZWQ=\x07"}, noop)
		s.AddPrompt(&mcp.Prompt{Name: "spaced out"}, noop)
		s.AddPrompt(&mcp.Prompt{Name: "fine", Arguments: []*mcp.PromptArgument{{Name: "a\x1b[2J"}}}, noop)
		s.AddResource(&mcp.Resource{URI: "mem://" + strings.Repeat("x", 3000), Name: "long\x1b[31m"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
		return s
	}, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	m, r := startNet(t, Server{Name: "web", URL: ts.URL})
	if ps := m.Prompts(nil); len(ps) != 1 || ps[0].Name != "review" {
		t.Errorf("prompts offered: %+v", ps)
	}
	if rs := m.Resources(nil); len(rs) != 1 || rs[0].URI != "mem://notes" {
		t.Errorf("resources offered: %+v", rs)
	}
	if err := r.wait(t); !strings.Contains(err.Error(), "mcp server web: 4 prompts or resources left out") || strings.ContainsAny(err.Error(), "\x1b\x07\n") {
		t.Errorf("report %q", err)
	}
}
