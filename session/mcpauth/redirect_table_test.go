package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// This file runs every outbound HTTP client runnel has through one table
// of redirects: to another port, to another host name for the same server,
// to localhost on another port, to 127.0.0.2, and within the origin.

const (
	tableKey    = "sk-table-key-0123456789"
	tableHeader = "hdr-table-secret-0123456789"
)

// hit is one request a loopback server got.
type hit struct {
	host, path string
	auth, sec  []string // the Authorization and X-Secret values
}

// recorder records every request it gets and answers 200 with {}.
type recorder struct {
	mu   sync.Mutex
	hits []hit
}

func (r *recorder) record(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hits = append(r.hits, hit{host: req.Host, path: req.URL.Path, auth: req.Header.Values("Authorization"), sec: req.Header.Values("X-Secret")})
}

func (r *recorder) all() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

// front is the server under every client: a path the subject redirects
// is answered 307 to target + "/real" + path (with a query secret that must
// never show); /real/... is served with the prefix cut. Behind it: the
// Responses endpoints, an MCP server that wants the bearer token
// (/bmcp), one over SSE (/sse), and the OAuth server of authServer.
type front struct {
	rec      recorder
	redirect func(path string) bool
	target   func() string
	inner    http.Handler
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.rec.record(r)
	if p, ok := strings.CutPrefix(r.URL.Path, "/real"); ok {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = p, ""
		f.inner.ServeHTTP(w, r2)
		return
	}
	if f.redirect(r.URL.Path) {
		q := "token=sq-query-secret"
		if r.URL.RawQuery != "" {
			q = r.URL.RawQuery + "&" + q
		}
		http.Redirect(w, r, f.target()+"/real"+r.URL.Path+"?"+q, http.StatusTemporaryRedirect)
		return
	}
	f.inner.ServeHTTP(w, r)
}

// everything serves the Responses endpoints and the MCP servers in front
// of the OAuth server's mux.
func everything(oauth http.Handler) http.Handler {
	bearer := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return pingServer() }, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return pingServer() }, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(streamtest.Text("resp_1", "hi"))
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"data": []map[string]string{{"id": "m1"}}})
	})
	mux.HandleFunc("POST /v1/conversations", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]string{"id": "conv_1"})
	})
	mux.HandleFunc("GET /v1/responses/resp_1", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"id": "resp_1", "status": "completed", "output": []any{}})
	})
	mux.HandleFunc("/bmcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+tableKey {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		bearer.ServeHTTP(w, r)
	})
	mux.Handle("/sse", sse)
	mux.Handle("/", oauth)
	return mux
}

func pingServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "table", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	return s
}

// subject is one outbound client: the paths its server redirects, and a
// run of it against base (the front's URL).
type subject struct {
	name     string
	redirect func(path string) bool
	run      func(t *testing.T, a *authServer) error
	secrets  bool // its requests carry the key and the secret header
}

func responsesClient(a *authServer) *stream.Client {
	return &stream.Client{BaseURL: a.ts.URL + "/v1", APIKey: tableKey, Headers: map[string]string{"X-Secret": tableHeader}, MaxRetries: -1}
}

func path(p string) func(string) bool { return func(s string) bool { return s == p } }

// startMCP starts one network MCP server and returns the first error it
// reported, or nil when it started with its tool.
func startMCP(t *testing.T, srv tools.Server) error {
	var mu sync.Mutex
	var errs []error
	m := tools.NewMCP(tools.Config{Servers: []tools.Server{srv}}, tools.StartHooks{Report: func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}, Secrets: stream.NewRedactor()})
	m.Start(t.Context())
	defer m.Close()
	<-m.Ready()
	mu.Lock()
	defer mu.Unlock()
	if len(errs) > 0 {
		return errs[0]
	}
	if len(m.FunctionTools(nil)) != 1 {
		return fmt.Errorf("started without its tool: %s", m.Summary())
	}
	return nil
}

var subjects = []subject{
	{"Responses stream", path("/v1/responses"), func(t *testing.T, a *authServer) error {
		body, err := responsesClient(a).Open(t.Context(), stream.Request{Model: "m"})
		if err != nil {
			return err
		}
		defer body.Close()
		_, err = io.ReadAll(body)
		return err
	}, true},
	{"/models", path("/v1/models"), func(t *testing.T, a *authServer) error {
		_, err := responsesClient(a).Models(t.Context())
		return err
	}, true},
	{"/conversations", path("/v1/conversations"), func(t *testing.T, a *authServer) error {
		_, err := responsesClient(a).CreateConversation(t.Context(), nil)
		return err
	}, true},
	{"background poll", path("/v1/responses/resp_1"), func(t *testing.T, a *authServer) error {
		_, err := responsesClient(a).Retrieve(t.Context(), "resp_1")
		return err
	}, true},
	{"MCP streamable HTTP", path("/bmcp"), func(t *testing.T, a *authServer) error {
		return startMCP(t, tools.Server{Name: "web", URL: a.ts.URL + "/bmcp", Headers: map[string]string{"Authorization": "Bearer " + tableKey, "X-Secret": tableHeader}})
	}, true},
	{"MCP SSE", path("/sse"), func(t *testing.T, a *authServer) error {
		return startMCP(t, tools.Server{Name: "old", URL: a.ts.URL + "/sse", SSE: true, Headers: map[string]string{"Authorization": "Bearer " + tableKey, "X-Secret": tableHeader}})
	}, true},
	{"OAuth discovery", path("/.well-known/oauth-authorization-server"), logIn, false},
	{"OAuth registration", path("/register"), logIn, false},
	{"OAuth token", path("/token"), logIn, false},
}

func logIn(t *testing.T, a *authServer) error {
	_, err := LogIn(t.Context(), LoginOptions{Name: "secure", URL: a.url(), Store: StoreIn(t.TempDir()), Open: follow, Out: io.Discard})
	return err
}

// Every outbound client, redirected by its server to another origin,
// stops with one line that names where the server tried to send the
// request (without the query), and no request reaches the other origin,
// so no secret does; within the origin it works, the secrets attached
// once.
func TestEveryClientRedirectTable(t *testing.T) {
	other := &recorder{}
	ots := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.record(r)
		writeJSON(w, map[string]string{})
	}))
	t.Cleanup(ots.Close)
	_, otherPort, _ := net.SplitHostPort(ots.Listener.Addr().String())
	var far *httptest.Server // on 127.0.0.2, where the system has it
	if ln, err := net.Listen("tcp", "127.0.0.2:0"); err == nil {
		far = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			other.record(r)
			writeJSON(w, map[string]string{})
		})}}
		far.Start()
		t.Cleanup(far.Close)
	}

	type hop struct {
		name   string
		target func(base string) string // base: http://127.0.0.1:port
		cross  bool
	}
	hops := []hop{
		{"another port", func(string) string { return "http://127.0.0.1:" + otherPort }, true},
		{"another host name, same server", func(b string) string { return strings.Replace(b, "127.0.0.1", "localhost", 1) }, true},
		{"localhost", func(string) string { return "http://localhost:" + otherPort }, true},
		{"same origin", func(b string) string { return b }, false},
	}
	if far != nil {
		hops = append(hops, hop{"127.0.0.2", func(string) string { return far.URL }, true})
	}
	for _, s := range subjects {
		for _, h := range hops {
			t.Run(s.name+"/"+h.name, func(t *testing.T) {
				f := &front{redirect: s.redirect}
				a := newAuthServerWrapped(t, func(oauth http.Handler) http.Handler {
					f.inner = everything(oauth)
					return f
				})
				target := h.target(a.ts.URL)
				f.target = func() string { return target }
				before := len(other.all())
				err := s.run(t, a)
				if got := other.all()[before:]; len(got) != 0 {
					t.Fatalf("the other origin received %d requests: %+v", len(got), got)
				}
				for _, x := range f.rec.all() {
					if "http://"+x.host != a.ts.URL {
						t.Fatalf("a request reached the server as %s: %+v", x.host, x)
					}
				}
				if !h.cross {
					if err != nil {
						t.Fatalf("within the origin: %v", err)
					}
					real := 0
					for _, x := range f.rec.all() {
						if !strings.HasPrefix(x.path, "/real") {
							continue
						}
						real++
						if s.secrets && (len(x.auth) != 1 || x.auth[0] != "Bearer "+tableKey || len(x.sec) != 1 || x.sec[0] != tableHeader) {
							t.Fatalf("the redirected request carries Authorization %q, X-Secret %q: want each once", x.auth, x.sec)
						}
					}
					if real == 0 {
						t.Fatal("the redirect was not followed")
					}
					return
				}
				if err == nil {
					t.Fatal("the redirect to another origin did not fail")
				}
				msg := err.Error()
				if !strings.Contains(msg, "redirected the request to "+strings.Replace(target, "localhost", "localhost", 1)) ||
					strings.Contains(msg, "sq-query-secret") || strings.Contains(msg, "\n") ||
					strings.Contains(msg, tableKey) || strings.Contains(msg, tableHeader) {
					t.Fatalf("the line %q must name %s, in one line, with no query or secret", msg, target)
				}
				var le *tools.LoginError
				if errors.As(err, &le) {
					t.Fatalf("a redirect reads as a login problem: %q", msg)
				}
			})
		}
	}
}
