package streamtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream/sharedtest"
)

// guard is how long any blocking step may take before the test fails: a
// deadline for failure, never a delay for success.
const guard = 10 * time.Second

func post(t *testing.T, ctx context.Context, s *Server, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/responses", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer sk-test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestFixtureServedByteIdentical(t *testing.T) {
	files := sharedtest.RealFiles(t)
	s := New(t)
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s.Enqueue(FromFile(f))
		resp := post(t, t.Context(), s, `{}`)
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: served %d bytes, file has %d (not identical)", filepath.Base(f), len(got), len(want))
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Errorf("%s: Content-Type %q", filepath.Base(f), ct)
		}
	}
}

func TestSplitEvents(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"data: a\n\ndata: b\n\n", []string{"data: a\n\n", "data: b\n\n"}},
		{"event: x\r\ndata: a\r\n\r\ndata: b\r\n\r\n", []string{"event: x\r\ndata: a\r\n\r\n", "data: b\r\n\r\n"}},
		{"data: a\n\ndata: tail", []string{"data: a\n\n", "data: tail"}},
		{"data: a\r\rdata: b\n\r\n", []string{"data: a\r\r", "data: b\n\r\n"}},
		{"\n\ndata: a\n\n", []string{"\n\n", "data: a\n\n"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, ev := range SplitEvents([]byte(tt.in)) {
			got = append(got, string(ev))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("SplitEvents(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGatePacing proves a gated reply sends exactly one event per receive.
func TestGatePacing(t *testing.T) {
	s := New(t)
	gate := make(chan struct{})
	s.Enqueue(Reply{SSE: Events(`{"n":1}`, `{"n":2}`, `{"n":3}`), Gate: gate})
	resp := post(t, t.Context(), s, `{}`) // headers come before any event
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				lines <- sc.Text()
			}
		}
	}()
	for i := 1; i <= 3; i++ {
		select {
		case l := <-lines:
			t.Fatalf("got %q before opening the gate for event %d", l, i)
		default:
		}
		gate <- struct{}{}
		select {
		case l := <-lines:
			if want := `data: {"n":` + string(rune('0'+i)) + `}`; l != want {
				t.Fatalf("event %d: got %q, want %q", i, l, want)
			}
		case <-time.After(guard):
			t.Fatalf("event %d not received", i)
		}
	}
	if _, ok := <-lines; ok {
		t.Fatal("more data after the last event")
	}
}

func TestDropAfter(t *testing.T) {
	s := New(t)
	s.Enqueue(Reply{SSE: Events(`{"n":1}`, `{"n":2}`, `{"n":3}`), DropAfter: 2})
	resp := post(t, t.Context(), s, `{}`)
	got, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read error = %v, want unexpected EOF", err)
	}
	if want := string(Events(`{"n":1}`, `{"n":2}`)); string(got) != want {
		t.Fatalf("got %q before the drop, want %q", got, want)
	}
}

func TestDropBeforeFirstEvent(t *testing.T) {
	s := New(t)
	s.Enqueue(Reply{DropAfter: 1})
	resp := post(t, t.Context(), s, `{}`)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	got, err := io.ReadAll(resp.Body)
	if len(got) != 0 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %q, %v; want nothing and unexpected EOF", got, err)
	}
}

func TestHangup(t *testing.T) {
	s := New(t)
	s.Enqueue(Reply{Hangup: true})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/responses", strings.NewReader("{}"))
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got status %d, want a connection error", resp.StatusCode)
	}
}

// TestStallAfter proves a stalled reply sends its first events, then holds
// the connection open until the client gives up.
func TestStallAfter(t *testing.T) {
	s := New(t)
	s.Enqueue(Reply{SSE: Events(`{"n":1}`, `{"n":2}`), StallAfter: 1})
	ctx, cancel := context.WithCancel(t.Context())
	resp := post(t, ctx, s, `{}`)
	first := string(Events(`{"n":1}`))
	buf := make([]byte, len(first))
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != first {
		t.Fatalf("first event: %q, %v", buf, err)
	}
	readErr := make(chan error, 1)
	go func() {
		_, err := resp.Body.Read(make([]byte, 1))
		readErr <- err
	}()
	select {
	case err := <-readErr:
		t.Fatalf("read returned %v while the server should be stalled", err)
	default:
	}
	cancel()
	select {
	case err := <-readErr:
		if err == nil {
			t.Fatal("read succeeded after cancel")
		}
	case <-time.After(guard):
		t.Fatal("read still blocked after cancel")
	}
}

// TestCloseReleasesStalledReplies proves Close does not wait on a client that
// never goes away.
func TestCloseReleasesStalledReplies(t *testing.T) {
	s := NewServer()
	defer s.Close()
	gate := make(chan struct{})
	s.Enqueue(Reply{SSE: Events(`{}`), StallAfter: 1}, Reply{SSE: Events(`{}`), Gate: gate})
	for range 2 {
		resp := post(t, context.Background(), s, `{}`)
		defer resp.Body.Close()
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(guard):
		t.Fatal("Close blocked on stalled and gated replies")
	}
}

func TestRecordingAndRouting(t *testing.T) {
	s := New(t)
	s.Enqueue(Reply{SSE: Events(`{"a":1}`)})
	var mu sync.Mutex
	var seen []string
	s.SetHandler(func(r Recorded) Reply {
		mu.Lock()
		seen = append(seen, r.PreviousResponseID())
		mu.Unlock()
		return Reply{SSE: Text("resp_2", "Hel", "lo")}
	})

	for _, body := range []string{`{"model":"m","input":"one"}`, `{"previous_response_id":"resp_1"}`} {
		resp := post(t, t.Context(), s, body)
		if _, err := io.ReadAll(resp.Body); err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d, %v", resp.StatusCode, err)
		}
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, strings.TrimSuffix(s.URL, "/v1")+"/v1/chat/completions", strings.NewReader(`{}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: status %d, want 404", resp.StatusCode)
	}

	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("recorded %d requests, want 3", len(reqs))
	}
	if reqs[0].Method != "POST" || reqs[0].Path != "/v1/responses" || reqs[0].JSON()["model"] != "m" {
		t.Errorf("first request recorded as %+v", reqs[0])
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization recorded as %q", got)
	}
	if got := reqs[1].PreviousResponseID(); got != "resp_1" {
		t.Errorf("PreviousResponseID = %q", got)
	}
	if reqs[2].Path != "/v1/chat/completions" {
		t.Errorf("third request path %q", reqs[2].Path)
	}
	if len(seen) != 1 || seen[0] != "resp_1" {
		t.Errorf("handler saw %q, want only the second request", seen)
	}
}

func TestEmptyQueue(t *testing.T) {
	s := New(t)
	resp := post(t, t.Context(), s, `{}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(body), "streamtest: no reply queued") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestFaults(t *testing.T) {
	s := New(t)
	s.Enqueue(Unauthorized(), RateLimited(1500*time.Millisecond), HTMLError(502), ModelNotFound("gpt-x"), PreviousResponseNotFound("resp_9"))
	want := []struct {
		status int
		has    string
	}{
		{401, `"code":"invalid_api_key"`},
		{429, `"code":"rate_limit_exceeded"`},
		{502, "<title>502 Bad Gateway\x1b]0;pwned\x07</title>"},
		{404, "The model `gpt-x` does not exist"},
		{400, `"param":"previous_response_id"`},
	}
	for _, w := range want {
		resp := post(t, t.Context(), s, `{}`)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != w.status || !strings.Contains(string(body), w.has) {
			t.Errorf("status %d body %q; want %d with %q", resp.StatusCode, body, w.status, w.has)
		}
		if w.status == 429 {
			if ra, ms := resp.Header.Get("Retry-After"), resp.Header.Get("retry-after-ms"); ra != "2" || ms != "1500" {
				t.Errorf("Retry-After %q, retry-after-ms %q; want 2 and 1500", ra, ms)
			}
		}
	}
}

func TestEvents(t *testing.T) {
	got := string(Events(`{"a":1}`, "{\n\"b\":2}"))
	want := "data: {\"a\":1}\n\ndata: {\ndata: \"b\":2}\n\n"
	if got != want {
		t.Errorf("Events = %q, want %q", got, want)
	}
}
