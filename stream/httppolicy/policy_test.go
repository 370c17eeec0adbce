package httppolicy_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream/httppolicy"
)

// recorded is a loopback server that records the Authorization of every
// request it gets.
func recorded(t *testing.T, h http.HandlerFunc) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path+" "+strings.Join(r.Header.Values("Authorization"), ","))
		mu.Unlock()
		if h != nil {
			h(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// A client bound to an origin sends its secrets there, once, over what
// the request carries; a request for another origin fails before anything
// is sent; a client bound to none never sends the secrets.
func TestSecretsOnlyForTheirOrigin(t *testing.T) {
	a, gotA := recorded(t, nil)
	b, gotB := recorded(t, nil)
	secrets := http.Header{"Authorization": {"Bearer sk-secret"}}
	c := httppolicy.New(httppolicy.Options{Origin: a.URL + "/v1", Secrets: secrets})
	req, _ := http.NewRequest(http.MethodGet, a.URL+"/x", nil)
	req.Header.Set("Authorization", "Bearer from-the-caller")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.Header.Get("Authorization") != "Bearer from-the-caller" {
		t.Fatal("the policy changed the caller's request")
	}
	if got := gotA(); len(got) != 1 || got[0] != "/x Bearer sk-secret" {
		t.Fatalf("the origin got %q", got)
	}
	_, err = c.Get(b.URL + "/y")
	var oe *httppolicy.OriginError
	if !errors.As(err, &oe) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), b.URL[len("http://"):]) {
		t.Fatalf("another origin: %v", err)
	}
	if got := gotB(); len(got) != 0 {
		t.Fatalf("the other origin got %q", got)
	}
	unbound := httppolicy.New(httppolicy.Options{Secrets: secrets})
	resp, err = unbound.Get(b.URL + "/z")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := gotB(); len(got) != 1 || got[0] != "/z " {
		t.Fatalf("an unbound client sent %q", got)
	}
	if _, err := httppolicy.New(httppolicy.Options{Origin: "not a url"}).Get(a.URL); err == nil || len(gotA()) != 1 {
		t.Fatal("a client bound to no valid origin sent a request")
	}
}

// allocated is the bytes allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// A body ten times its bound stops at the bound with one line, and the
// memory held is about the bound, not the body; an event stream ten times
// the bound in small events is read whole, but one event over it stops.
func TestBodyBound(t *testing.T) {
	const limit = 4 << 20
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
		case "/events", "/one-event":
			w.Header().Set("Content-Type", "text/event-stream")
		}
		for i := 0; i < 10*limit/len(chunk); i++ {
			if r.URL.Path == "/events" {
				_, _ = w.Write([]byte("data: "))
			}
			if _, err := w.Write(chunk); err != nil {
				return
			}
			if r.URL.Path == "/events" {
				_, _ = w.Write([]byte("\n\n"))
			}
		}
	}))
	t.Cleanup(ts.Close)
	c := httppolicy.New(httppolicy.Options{MaxBody: limit, MaxEvent: limit})

	base := allocated()
	resp, err := c.Get(ts.URL + "/json")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var be *httppolicy.BodyLimitError
	if !errors.As(err, &be) || !errors.Is(err, httppolicy.ErrBodyLimit) || len(data) != limit {
		t.Fatalf("read %d bytes, err %v: want %d and a BodyLimitError", len(data), err, limit)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "4 MiB") || !strings.Contains(msg, ts.Listener.Addr().String()) {
		t.Fatalf("line %q", msg)
	}
	if used := allocated() - base; used > allocSlack*limit { // not the 40 MiB sent
		t.Fatalf("%d bytes allocated reading to a %d-byte bound", used, limit)
	}

	resp, err = c.Get(ts.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n < 10*limit {
		t.Fatalf("a long stream of small events: %d bytes, %v", n, err)
	}

	resp, err = c.Get(ts.URL + "/one-event")
	if err != nil {
		t.Fatal(err)
	}
	n, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !errors.As(err, &be) || !be.Event || n != limit {
		t.Fatalf("one event of 10× the bound: %d bytes, %v", n, err)
	}
}

// A server that goes silent within a body is cut at the idle bound, and
// one that never answers at the first-byte bound, each with one line.
func TestTimeBounds(t *testing.T) {
	stop := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/silent-body" {
			_, _ = w.Write([]byte("{"))
			w.(http.Flusher).Flush()
		}
		<-stop
	}))
	t.Cleanup(func() { close(stop); ts.Close() })
	c := httppolicy.New(httppolicy.Options{Idle: 50 * time.Millisecond, FirstByte: 50 * time.Millisecond})
	resp, err := c.Get(ts.URL + "/silent-body")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	var ie *httppolicy.IdleError
	if !errors.As(err, &ie) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a silent body: %v", err)
	}
	if _, err := c.Get(ts.URL + "/no-headers"); err == nil || !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Fatalf("no headers: %v", err)
	}
}

// Headers ten times their bound end the request with an error, unread.
func TestHeaderBound(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 10 * httppolicy.MaxHeader / (64 << 10) {
			w.Header().Set("X-Big-"+strconv.Itoa(i), strings.Repeat("h", 64<<10))
		}
	}))
	t.Cleanup(ts.Close)
	if _, err := httppolicy.New(httppolicy.Options{}).Get(ts.URL); err == nil || !strings.Contains(err.Error(), "headers exceeded") {
		t.Fatalf("10x the header bound: %v", err)
	}
}
