package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// collect drains a handle, applying every event.
func collect(t *testing.T, h *stream.Handle) (*stream.Accumulator, []stream.Batch) {
	t.Helper()
	var acc stream.Accumulator
	var batches []stream.Batch
	deadline := time.After(30 * time.Second) // a failure guard, not timing
	for {
		select {
		case b, ok := <-h.Chan():
			if !ok {
				return &acc, batches
			}
			batches = append(batches, b)
			for i := range b.Events {
				acc.Apply(&b.Events[i])
			}
			if b.Final {
				acc.Finish()
			}
		case <-deadline:
			t.Fatal("stream did not end")
		}
	}
}

func TestStartThroughFakeServer(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/xai-text-reasoning-markdown.sse")))
	c := &stream.Client{BaseURL: srv.URL, APIKey: "sk-test"}
	h := stream.Start(context.Background(), c, stream.Request{Model: "m", PreviousResponseID: "resp_prev", Input: []json.RawMessage{stream.UserText("hi")}})
	acc, batches := collect(t, h)
	last := batches[len(batches)-1]
	if !last.Final || last.Err != nil {
		t.Fatalf("final batch %+v", last)
	}
	s := acc.Current()
	if s.Status != "completed" || len(s.Items) != 2 || len(s.Items[1].Text()) < 1000 {
		t.Fatalf("status %q items %d", s.Status, len(s.Items))
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].PreviousResponseID() != "resp_prev" || reqs[0].JSON()["stream"] != true {
		t.Errorf("request %s", reqs[0].Body)
	}
	n := 0
	for _, b := range batches {
		n += len(b.Events)
	}
	if n != 679 {
		t.Errorf("%d events delivered, want all 679", n)
	}
}

func TestStartReportsHTTPErrorsAndRetries(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.RateLimited(time.Millisecond), streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
	c := &stream.Client{BaseURL: srv.URL, BaseDelay: time.Millisecond}
	_, batches := collect(t, stream.Start(context.Background(), c, stream.Request{Model: "m"}))
	if batches[0].Retry == nil || batches[0].Retry.Attempt != 1 {
		t.Errorf("first batch should announce the retry: %+v", batches[0])
	}
	srv.Enqueue(streamtest.Unauthorized())
	_, batches = collect(t, stream.Start(context.Background(), c, stream.Request{Model: "m"}))
	var apiErr *stream.APIError
	if last := batches[len(batches)-1]; !errors.As(last.Err, &apiErr) || apiErr.Status != 401 {
		t.Errorf("final error %v", last.Err)
	}
}

func TestStartCancelKeepsPartial(t *testing.T) {
	gate := make(chan struct{})
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "a", "b", "c", "d"), Gate: gate})
	h := stream.Start(context.Background(), &stream.Client{BaseURL: srv.URL}, stream.Request{Model: "m"})
	for i := 0; i < 4; i++ { // created, in_progress, item added, part added… let a few through
		gate <- struct{}{}
	}
	var acc stream.Accumulator
	cause := errors.New("user pressed esc")
	for b := range h.Chan() {
		for i := range b.Events {
			acc.Apply(&b.Events[i])
		}
		if len(b.Events) > 0 {
			h.Cancel(cause)
		}
		if b.Final && !errors.Is(b.Err, cause) {
			t.Errorf("final err %v", b.Err)
		}
	}
	acc.Finish()
	if s := acc.Current(); s == nil || !s.CutOff {
		t.Errorf("cancelled stream should be cut off")
	}
}

func TestStartReaderPaced(t *testing.T) {
	f, err := os.Open(sharedtest.Real(t, "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	acc, _ := collect(t, stream.StartReader(context.Background(), f, time.Microsecond))
	if s := acc.Current(); s.Status != "completed" || s.Items[0].Text() == "" {
		t.Errorf("replay: %+v", s)
	}
}
