package tools

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"runnel/stream"
)

// TestMCPStartProblemsAreOneLine: a server that is not there, a program
// that is not installed, and a URL that answers with no MCP each give one
// line in the provider's words, never the SDK's chain of Go errors.
func TestMCPStartProblemsAreOneLine(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	closer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hj, _ := w.(http.Hijacker)
		c, _, _ := hj.Hijack()
		c.Close()
	}))
	t.Cleanup(closer.Close)
	for _, tt := range []struct {
		srv  Server
		want string
	}{
		{Server{Name: "gone", URL: gone}, "mcp server gone: connect to " + strings.TrimPrefix(strings.TrimSuffix(gone, "/mcp"), "http://") + ": connection refused — is it running? check its url in [[mcp_servers]]"},
		{Server{Name: "nope", Command: "runnel-no-such-program-x"}, `mcp server nope: no program "runnel-no-such-program-x" on PATH — check its command in [[mcp_servers]], or install it`},
		{Server{Name: "mute", URL: closer.URL}, "mcp server mute: connect to " + strings.TrimPrefix(closer.URL, "http://") + ": "},
	} {
		r := newReports()
		m := NewMCP(Config{Servers: []Server{tt.srv}}, StartHooks{Report: r.add, Secrets: stream.NewRedactor()})
		m.Start(t.Context())
		got := r.wait(t).Error()
		m.Close()
		if !strings.HasPrefix(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("%s: %q, want %q", tt.srv.Name, got, tt.want)
		}
		for _, internal := range []string{"calling \"initialize\"", "rejected by transport", "dial tcp", "exec:"} {
			if strings.Contains(got, internal) {
				t.Errorf("%s: %q shows Go internals (%s)", tt.srv.Name, got, internal)
			}
		}
	}
}
