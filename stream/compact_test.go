package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestCompactClient: Client.Compact posts to {base}/responses/compact and
// reads the window; a server without the endpoint (404, 405, 501) gives
// ErrCompactUnsupported, an unknown model stays an *APIError, a 5xx is
// retried, and an answer that is no window is refused in one line.
func TestCompactClient(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL, APIKey: "sk-test"}
	res, err := cl.Compact(context.Background(), stream.CompactRequest{Model: "m", Input: []json.RawMessage{stream.UserText("hi")}})
	if err != nil || len(res.Output) != 2 || res.Usage == nil || res.Object != "response.compaction" {
		t.Fatalf("compact: %+v %v", res, err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/responses/compact" || r.Header.Get("Authorization") != "Bearer sk-test" || strings.Contains(string(r.Body), `"stream"`) {
		t.Errorf("request %s %v %s", r.Path, r.Header, r.Body)
	}

	for _, status := range []int{http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented} {
		url := answer(t, func(w http.ResponseWriter) { w.WriteHeader(status) })
		_, err := (&stream.Client{BaseURL: url, MaxRetries: -1}).Compact(context.Background(), stream.CompactRequest{Model: "m"})
		if !errors.Is(err, stream.ErrCompactUnsupported) {
			t.Errorf("%d: %v", status, err)
		}
	}
	url := answer(t, func(w http.ResponseWriter) {
		w.WriteHeader(404)
		io.WriteString(w, `{"error":{"message":"The model 'm' does not exist","code":"model_not_found"}}`)
	})
	_, err = (&stream.Client{BaseURL: url}).Compact(context.Background(), stream.CompactRequest{Model: "m"})
	var apiErr *stream.APIError
	if errors.Is(err, stream.ErrCompactUnsupported) || !errors.As(err, &apiErr) {
		t.Errorf("unknown model: %v", err)
	}
	_, err = (&stream.Client{BaseURL: streamtest.New(t).URL}).Compact(context.Background(), stream.CompactRequest{Model: "m"})
	if !errors.Is(err, stream.ErrCompactUnsupported) || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("stateless streamtest (no route): %v", err)
	}

	var tries atomic.Int32
	url = answer(t, func(w http.ResponseWriter) {
		if tries.Add(1) == 1 {
			w.WriteHeader(500)
			return
		}
		io.WriteString(w, `{"id":"r","object":"response.compaction","output":[{"type":"compaction","encrypted_content":"x"}],"usage":{"input_tokens":9,"output_tokens":2}}`)
	})
	cl2 := &stream.Client{BaseURL: url, BaseDelay: 1, MaxDelay: 1}
	if res, err := cl2.Compact(context.Background(), stream.CompactRequest{Model: "m"}); err != nil || res.Usage.InputTokens != 9 {
		t.Errorf("after a 500: %+v %v", res, err)
	}

	for name, body := range map[string]string{
		"not JSON":     "<html>nope</html>",
		"empty window": `{"id":"r","output":[]}`,
		"not objects":  `{"id":"r","output":["x"]}`,
	} {
		url := answer(t, func(w http.ResponseWriter) { io.WriteString(w, body) })
		_, err := (&stream.Client{BaseURL: url}).Compact(context.Background(), stream.CompactRequest{Model: "m"})
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "compact") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// answer serves POST /v1/responses/compact with write; anything else is a
// test failure.
func answer(t *testing.T, write func(w http.ResponseWriter)) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/responses/compact" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		write(w)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestContextLengthExceeded: the 400 OpenAI sends, and a failed response's
// error, are recognised; the error line offers compaction.
func TestContextLengthExceeded(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.ContextLengthExceeded())
	_, err := (&stream.Client{BaseURL: srv.URL}).Open(context.Background(), stream.Request{Model: "m"})
	if !stream.ContextLengthExceeded(err, nil) || !strings.Contains(err.Error(), "context window") || !strings.Contains(err.Error(), "/compact") {
		t.Errorf("400: %v", err)
	}
	if !stream.ContextLengthExceeded(nil, &stream.ErrorInfo{Code: "context_length_exceeded"}) {
		t.Error("failed response not recognised")
	}
	if stream.ContextLengthExceeded(errors.New("context window"), &stream.ErrorInfo{Code: "server_error", Message: "oops"}) {
		t.Error("recognised in an unrelated error")
	}
}
