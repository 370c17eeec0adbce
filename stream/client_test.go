package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// guard bounds every blocking step: a deadline for failure, never a delay
// that a passing test waits out.
const guard = 10 * time.Second

// testClient points at s with tiny backoff, recording every retry.
func testClient(s *streamtest.Server) (*stream.Client, *retryLog) {
	log := &retryLog{}
	return &stream.Client{
		BaseURL:     s.URL + "/", // a trailing slash is tolerated
		APIKey:      "sk-test",
		BaseDelay:   time.Millisecond,
		MaxDelay:    2 * time.Millisecond,
		IdleTimeout: guard,
		OnRetry:     log.add,
	}, log
}

type retryLog struct {
	mu    sync.Mutex
	infos []stream.RetryInfo
}

func (l *retryLog) add(i stream.RetryInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.infos = append(l.infos, i)
}

func (l *retryLog) all() []stream.RetryInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]stream.RetryInfo(nil), l.infos...)
}

func textRequest() stream.Request {
	return stream.Request{Model: "gpt-test", Input: []json.RawMessage{stream.UserText("hi")}}
}

// readAll reads rc to its end in the background and fails the test if that
// takes longer than guard.
func readAll(t *testing.T, rc io.Reader) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(rc)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(guard):
		t.Fatal("read did not return")
		return nil, nil
	}
}

func openErr(t *testing.T, c *stream.Client, req stream.Request) error {
	t.Helper()
	rc, err := c.Open(t.Context(), req)
	if err == nil {
		rc.Close()
		t.Fatal("Open succeeded, want an error")
	}
	assertOneSafeLine(t, err.Error())
	return err
}

func assertOneSafeLine(t *testing.T, msg string) {
	t.Helper()
	if stream.SanitizeLine(msg) != msg {
		t.Errorf("error is not one clean line: %q", msg)
	}
	if strings.ContainsAny(msg, "<>") {
		t.Errorf("error contains markup: %q", msg)
	}
}

func TestOpenStreamsFixture(t *testing.T) {
	path := sharedtest.Real(t, "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := streamtest.New(t)
	s.Enqueue(streamtest.FromFile(path))
	c, _ := testClient(s)
	rc, err := c.Open(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := readAll(t, rc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got %d bytes, want the fixture's %d", len(got), len(want))
	}
}

func TestOpenSendsRequest(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_2", "Hello")})
	c, _ := testClient(s)
	c.Headers = map[string]string{"X-Project": "runnel-test", "OpenAI-Organization": "org-1"}
	req := textRequest()
	req.PreviousResponseID = "resp_1"
	req.Stream = false // Open forces it on
	rc, err := c.Open(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(t, rc); err != nil {
		t.Fatal(err)
	}
	rc.Close()

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/v1/responses" {
		t.Errorf("sent %s %s", r.Method, r.Path)
	}
	body := r.JSON()
	if body["stream"] != true || body["model"] != "gpt-test" || r.PreviousResponseID() != "resp_1" {
		t.Errorf("body %s", r.Body)
	}
	input, _ := body["input"].([]any)
	if len(input) != 1 || !strings.Contains(string(r.Body), `"text":"hi"`) {
		t.Errorf("input not sent as given: %s", r.Body)
	}
	for k, want := range map[string]string{
		"Authorization":       "Bearer sk-test",
		"Content-Type":        "application/json",
		"Accept":              "text/event-stream",
		"X-Project":           "runnel-test",
		"Openai-Organization": "org-1",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "runnel/") {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestOpenNoKeyNoAuthorization(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "x")})
	c, _ := testClient(s)
	c.APIKey = ""
	rc, err := c.Open(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if h := s.Requests()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization sent without a key: %q", h.Get("Authorization"))
	}
}

func TestOpenUnauthorized(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.Unauthorized())
	c, log := testClient(s)
	err := openErr(t, c, textRequest())
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Code != "invalid_api_key" {
		t.Fatalf("err = %#v", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "401 Unauthorized: the server rejected the API key") || !strings.Contains(msg, "check OPENAI_API_KEY") {
		t.Errorf("message: %s", msg)
	}
	if n := len(s.Requests()); n != 1 || len(log.all()) != 0 {
		t.Errorf("401 was retried: %d requests", n)
	}
}

func TestOpenModelNotFound(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.ModelNotFound("gpt-x"))
	c, _ := testClient(s)
	req := textRequest()
	req.Model = "gpt-x"
	err := openErr(t, c, req)
	want := `404 Not Found: model "gpt-x" does not exist or you lack access — check --model or model in config`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

func TestOpenWrongPath(t *testing.T) {
	s := streamtest.New(t)
	c, _ := testClient(s)
	c.BaseURL = strings.TrimSuffix(s.URL, "/v1") + "/api"
	err := openErr(t, c, textRequest())
	msg := err.Error()
	if !strings.HasPrefix(msg, "404 Not Found: no Responses endpoint at http://127.0.0.1:") ||
		!strings.Contains(msg, "/api/responses") || !strings.Contains(msg, "check base_url") {
		t.Errorf("message: %s", msg)
	}
}

func TestOpenPreviousResponseNotFound(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.PreviousResponseNotFound("resp_gone"))
	c, _ := testClient(s)
	err := openErr(t, c, textRequest())
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || !apiErr.PreviousResponseNotFound() || apiErr.Param != "previous_response_id" {
		t.Fatalf("err = %v", err)
	}
	if len(s.Requests()) != 1 {
		t.Errorf("retried")
	}
}

// TestOpenRateLimitedThenSuccess proves the wait came from the server's
// retry-after-ms, not from the backoff (whose waits here are at most 2ms).
func TestOpenRateLimitedThenSuccess(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.RateLimited(30*time.Millisecond), streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
	c, log := testClient(s)
	rc, err := c.Open(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	infos := log.all()
	if len(infos) != 1 {
		t.Fatalf("%d retries, want 1", len(infos))
	}
	i := infos[0]
	var apiErr *stream.APIError
	if i.Wait != 30*time.Millisecond || i.Attempt != 1 || i.Max != 3 || !errors.As(i.Err, &apiErr) || apiErr.Status != 429 {
		t.Errorf("retry info %+v", i)
	}
	if !strings.Contains(i.Err.Error(), "(retry after 30ms)") {
		t.Errorf("429 message: %s", i.Err)
	}
}

func TestOpenServerErrorsExhaustRetries(t *testing.T) {
	s := streamtest.New(t)
	for range 4 {
		s.Enqueue(streamtest.ServerError())
	}
	c, log := testClient(s)
	err := openErr(t, c, textRequest())
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 500 {
		t.Fatalf("err = %v", err)
	}
	if !strings.HasPrefix(err.Error(), "500 Internal Server Error: server error: The server had an error") {
		t.Errorf("message: %s", err)
	}
	if n := len(s.Requests()); n != 4 {
		t.Errorf("%d requests, want 1 + 3 retries", n)
	}
	infos := log.all()
	if len(infos) != 3 {
		t.Fatalf("%d OnRetry calls, want 3", len(infos))
	}
	for i, info := range infos {
		if info.Attempt != i+1 || info.Max != 3 || info.Wait < 0 || info.Wait > c.MaxDelay {
			t.Errorf("retry %d: %+v", i, info)
		}
	}
}

func TestOpenNoRetriesWhenNegative(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.ServerError(), streamtest.ServerError())
	c, _ := testClient(s)
	c.MaxRetries = -1
	openErr(t, c, textRequest())
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestOpenHTMLErrorSummarized(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.HTMLError(502))
	c, _ := testClient(s)
	c.MaxRetries = -1
	err := openErr(t, c, textRequest())
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || apiErr.BodySummary != "502 Bad Gateway" {
		t.Fatalf("err = %#v", err)
	}
	if want := "502 Bad Gateway: server error: 502 Bad Gateway — try again later"; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

func TestOpenJSONInsteadOfStream(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.Reply{Body: []byte(`{"id":"resp_1","object":"response","output":[]}`)})
	c, _ := testClient(s)
	err := openErr(t, c, textRequest())
	if !strings.HasPrefix(err.Error(), "200 OK: expected an event stream, got application/json") {
		t.Errorf("message: %s", err)
	}
}

// TestOpenDropMidStreamNotRetried: after the first bytes, a broken
// connection surfaces from Read and nothing is sent again.
func TestOpenDropMidStreamNotRetried(t *testing.T) {
	s := streamtest.New(t)
	sse := streamtest.Text("resp_1", "a", "b", "c")
	s.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 3}, streamtest.Reply{SSE: sse})
	c, log := testClient(s)
	rc, err := c.Open(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := readAll(t, rc)
	if err == nil || errors.Is(err, stream.ErrIdleTimeout) {
		t.Fatalf("read error = %v, want a broken stream", err)
	}
	assertOneSafeLine(t, err.Error())
	if !strings.Contains(err.Error(), "broke off") {
		t.Errorf("message: %s", err)
	}
	events := streamtest.SplitEvents(sse)
	if want := string(events[0]) + string(events[1]) + string(events[2]); string(got) != want {
		t.Errorf("got %q before the drop, want the first 3 events", got)
	}
	if n := len(s.Requests()); n != 1 || len(log.all()) != 0 {
		t.Errorf("%d requests; a stream broken after its first byte must not be retried", n)
	}
}

func TestOpenRetriesBeforeFirstByte(t *testing.T) {
	for name, fault := range map[string]streamtest.Reply{
		"headers then drop": {DropAfter: 1},
		"empty 200":         {SSE: []byte{}},
		"hangup":            {Hangup: true},
	} {
		t.Run(name, func(t *testing.T) {
			s := streamtest.New(t)
			s.Enqueue(fault, streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
			c, log := testClient(s)
			rc, err := c.Open(t.Context(), textRequest())
			if err != nil {
				t.Fatal(err)
			}
			rc.Close()
			infos := log.all()
			if len(infos) != 1 || len(s.Requests()) != 2 {
				t.Fatalf("%d retries, %d requests; want 1 and 2", len(infos), len(s.Requests()))
			}
			assertOneSafeLine(t, infos[0].Err.Error())
		})
	}
}

func TestOpenIdleTimeout(t *testing.T) {
	s := streamtest.New(t)
	sse := streamtest.Text("resp_1", "a", "b")
	s.Enqueue(streamtest.Reply{SSE: sse, StallAfter: 2})
	c, _ := testClient(s)
	c.IdleTimeout = 50 * time.Millisecond
	rc, err := c.Open(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := readAll(t, rc)
	if !errors.Is(err, stream.ErrIdleTimeout) {
		t.Fatalf("read error = %v, want ErrIdleTimeout", err)
	}
	assertOneSafeLine(t, err.Error())
	if msg := err.Error(); !strings.Contains(msg, "50ms") || !strings.Contains(msg, "timeouts.idle") {
		t.Errorf("message: %s", msg)
	}
	events := streamtest.SplitEvents(sse)
	if string(got) != string(events[0])+string(events[1]) {
		t.Errorf("got %q, want the first 2 events", got)
	}
}

// TestOpenIdleBeforeFirstByte: a server that sends headers and then nothing
// times out, and is not retried (it already had the whole timeout).
func TestOpenIdleBeforeFirstByte(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.Reply{StallAfter: 1}, streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
	c, _ := testClient(s)
	c.IdleTimeout = 50 * time.Millisecond
	err := openErr(t, c, textRequest())
	if !errors.Is(err, stream.ErrIdleTimeout) || len(s.Requests()) != 1 {
		t.Fatalf("err = %v after %d requests; want ErrIdleTimeout after 1", err, len(s.Requests()))
	}
}

func TestOpenCancelMidStream(t *testing.T) {
	s := streamtest.New(t)
	gate := make(chan struct{}, 1)
	sse := streamtest.Text("resp_1", "a", "b")
	s.Enqueue(streamtest.Reply{SSE: sse, Gate: gate})
	c, _ := testClient(s)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	gate <- struct{}{} // let the first event out, so Open returns
	rc, err := c.Open(ctx, textRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	first := streamtest.SplitEvents(sse)[0]
	buf := make([]byte, len(first))
	if _, err := io.ReadFull(rc, buf); err != nil || string(buf) != string(first) {
		t.Fatalf("first event %q, %v", buf, err)
	}
	cancel()
	_, err = readAll(t, rc)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("read error = %v, want context.Canceled", err)
	}
}

func TestOpenCancelDuringRetryWait(t *testing.T) {
	s := streamtest.New(t)
	s.Enqueue(streamtest.RateLimited(time.Minute))
	c, _ := testClient(s)
	ctx, cancel := context.WithCancel(t.Context())
	c.OnRetry = func(stream.RetryInfo) { cancel() }
	done := make(chan error, 1)
	go func() {
		_, err := c.Open(ctx, textRequest())
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(guard):
		t.Fatal("Open kept waiting after cancel")
	}
}

func TestOpenConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	log := &retryLog{}
	c := &stream.Client{
		BaseURL: "http://" + addr + "/v1", MaxRetries: 2,
		BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, OnRetry: log.add,
	}
	err = openErr(t, c, textRequest())
	want := "connect to " + addr + ": connection refused — is it running? check base_url"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if runtime.GOOS != "windows" && !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("error does not wrap ECONNREFUSED")
	}
	if n := len(log.all()); n != 2 {
		t.Errorf("%d retries, want 2", n)
	}
	// what the chat shows while it retries: what failed and where, the
	// hint saved for the failure
	var brief interface{ Brief() string }
	if !errors.As(err, &brief) || brief.Brief() != "connect to "+addr+": connection refused" {
		t.Errorf("the error has no Brief without the hint: %v", err)
	}
	if r := log.all(); len(r) > 0 && (!errors.As(r[0].Err, &brief) || strings.Contains(brief.Brief(), "check base_url")) {
		t.Errorf("a retry's error has no brief form: %v", r[0].Err)
	}
}

func TestOpenBadConfig(t *testing.T) {
	for name, c := range map[string]*stream.Client{
		"scheme":       {BaseURL: "ftp://example.com/v1"},
		"no host":      {BaseURL: "https:///v1"},
		"header value": {BaseURL: "http://127.0.0.1:1/v1", Headers: map[string]string{"X-A": "a\r\nInjected: 1"}},
		"header name":  {BaseURL: "http://127.0.0.1:1/v1", Headers: map[string]string{"X A": "a"}},
		"key":          {BaseURL: "http://127.0.0.1:1/v1", APIKey: "sk-\x1b[2J"},
	} {
		t.Run(name, func(t *testing.T) {
			c.OnRetry = func(stream.RetryInfo) { t.Error("retried a configuration error") }
			openErr(t, c, textRequest())
		})
	}
}

func TestDefaultBaseURL(t *testing.T) {
	if stream.DefaultBaseURL() != "https://api.openai.com/v1" {
		t.Errorf("DefaultBaseURL = %s", stream.DefaultBaseURL())
	}
}

// TestOpenUnauthorizedEchoRedacted: a 401 whose body repeats the key gives an
// error that does not.
func TestOpenUnauthorizedEchoRedacted(t *testing.T) {
	srv := streamtest.New(t)
	const key = "sk-proj-echo-0123456789abcdef"
	srv.Enqueue(streamtest.UnauthorizedEcho(key))
	c, _ := testClient(srv)
	c.APIKey = key
	_, err := c.Open(context.Background(), stream.Request{Model: "m"})
	var ae *stream.APIError
	if !errors.As(err, &ae) || ae.Status != 401 {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(ae.Message, key) || strings.Contains(ae.BodySummary, key) {
		t.Errorf("the error repeats the key: %v", err)
	}
	if !strings.Contains(err.Error(), stream.Redacted) {
		t.Errorf("the error does not say a value was hidden: %v", err)
	}
}
