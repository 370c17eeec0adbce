package stream_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// origin is a loopback server that records every request it gets.
type origin struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string // "METHOD path" of each request, with its Authorization
}

func newOrigin(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		o.mu.Lock()
		o.reqs = append(o.reqs, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		o.mu.Unlock()
		if h != nil {
			h(w, r)
		}
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *origin) requests() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.reqs...)
}

// redirectTo answers every request with a 307 to target + the request's
// path, with a query that must never be shown.
func redirectTo(target func() string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target()+r.URL.Path+"?token=sq-query-secret", http.StatusTemporaryRedirect)
	}
}

// Every request the client makes (the streaming POST, the resume GET, the
// fetch of a response, the model list, compaction), redirected by the base
// URL's server to another origin (the same host on another port, or another
// host name on the same port), stops with one line that names where the
// server tried to send it: the other origin gets no request at all, the
// first is not retried, and the line holds no query. Also with an HTTP client
// of the caller's own, whose policy would follow.
func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	other := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(streamtest.Text("resp_x", "leaked"))
	})
	var base *origin
	for _, tt := range []struct {
		name   string
		target func() string // where base's server redirects
		want   string        // the origin the line must name
	}{
		{"other port", func() string { return other.URL }, ""},
		{"other host", func() string { return strings.Replace(base.URL, "127.0.0.1", "localhost", 1) }, ""},
	} {
		base = newOrigin(t, redirectTo(tt.target))
		want := tt.target()
		for _, own := range []bool{false, true} {
			c := &stream.Client{BaseURL: base.URL + "/v1", APIKey: "sk-redirect-key-0123456789",
				Headers: map[string]string{"X-Secret": "hdr-secret-0123456789"}, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
			if own {
				c.Transport = &http.Transport{}
			}
			ctx := context.Background()
			calls := []struct {
				name, path string
				do         func() error
			}{
				{"POST /responses", "/v1/responses", func() error {
					body, err := c.Open(ctx, textRequest())
					if err == nil {
						body.Close()
					}
					return err
				}},
				{"GET /responses/{id}?stream", "/v1/responses/resp_1", func() error {
					body, err := c.OpenAfter(ctx, "resp_1", 3)
					if err == nil {
						body.Close()
					}
					return err
				}},
				{"GET /responses/{id}", "/v1/responses/resp_1", func() error { _, err := c.Retrieve(ctx, "resp_1"); return err }},
				{"GET /models", "/v1/models", func() error { _, err := c.Models(ctx); return err }},
				{"POST /responses/compact", "/v1/responses/compact", func() error {
					_, err := c.Compact(ctx, stream.CompactRequest{Model: "m", Input: textRequest().Input})
					return err
				}},
			}
			for _, call := range calls {
				before := len(base.requests())
				err := call.do()
				var re *stream.RedirectError
				if !errors.As(err, &re) {
					t.Fatalf("%s, %s (own client %v): err %v, want a RedirectError", tt.name, call.name, own, err)
				}
				msg := err.Error()
				if !strings.Contains(msg, want+call.path) || strings.Contains(msg, "sq-query-secret") || strings.Contains(msg, "\n") {
					t.Errorf("%s, %s: the line %q must name %s without the query", tt.name, call.name, msg, want+call.path)
				}
				if n := len(base.requests()) - before; n != 1 {
					t.Errorf("%s, %s: %d requests to the base URL, want 1 (no retry)", tt.name, call.name, n)
				}
			}
			if got := other.requests(); len(got) != 0 {
				t.Fatalf("%s: the other origin received %v", tt.name, got)
			}
		}
	}
}

// A redirect within the base URL's origin is followed, for the POST (its
// body and key sent again, 307) and for a GET.
func TestRedirectWithinTheOriginIsFollowed(t *testing.T) {
	var s *origin
	s = newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/responses", "/v1/models":
			http.Redirect(w, r, s.URL+"/moved"+strings.TrimPrefix(r.URL.Path, "/v1"), http.StatusTemporaryRedirect)
		case "/moved/responses":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(streamtest.Text("resp_moved", "hello ", "there"))
		case "/moved/models":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"data":[{"id":"m1"}]}`)
		}
	})
	c := &stream.Client{BaseURL: s.URL + "/v1", APIKey: "sk-same-origin-key"}
	body, err := c.Open(context.Background(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := readAll(t, body)
	body.Close()
	if !strings.Contains(string(data), "response.completed") {
		t.Errorf("the moved stream did not arrive: %q", data)
	}
	models, err := c.Models(context.Background())
	if err != nil || len(models) != 1 || models[0].ID != "m1" {
		t.Fatalf("models %v, err %v", models, err)
	}
	want := []string{
		"POST /v1/responses Bearer sk-same-origin-key", "POST /moved/responses Bearer sk-same-origin-key",
		"GET /v1/models Bearer sk-same-origin-key", "GET /moved/models Bearer sk-same-origin-key",
	}
	if got := s.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
