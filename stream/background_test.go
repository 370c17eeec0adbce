package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// bgClient is a client of srv with backoff short enough for tests.
func bgClient(srv *streamtest.Server) *Client {
	return &Client{BaseURL: srv.URL, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
}

// drain runs h to its end, applying every event, and returns the retry
// notices it carried and the final error.
func drainFold(t *testing.T, h *Handle, acc *Accumulator) (retries []RetryInfo, err error) {
	t.Helper()
	for b := range h.Chan() {
		for i := range b.Events {
			_, _ = acc.Apply(&b.Events[i])
		}
		if b.Retry != nil {
			retries = append(retries, *b.Retry)
		}
		if b.Final {
			err = b.Err
		}
	}
	acc.Finish()
	return retries, err
}

// words is a long answer as deltas.
func words(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("word%d ", i)
	}
	return out
}

func answerText(acc *Accumulator) string {
	var b strings.Builder
	for _, s := range acc.Responses() {
		for _, it := range s.Items {
			b.WriteString(it.Text())
		}
	}
	return b.String()
}

// A background stream dropped after the event with sequence number 40
// resumes with starting_after=40, and ends with the very text an undropped
// stream gives.
func TestBackgroundResumeAfterDrop(t *testing.T) {
	sse := streamtest.Text("resp_bg1", words(80)...)
	var want Accumulator
	if _, err := drainFold(t, StartReader(context.Background(), strings.NewReader(string(sse)), 0), &want); err != nil {
		t.Fatal(err)
	}

	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 41}) // sequence numbers 0…40 arrive
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got)
	if err != nil {
		t.Fatalf("stream ended with %v", err)
	}
	if len(retries) != 1 || !retries[0].Resume || retries[0].Attempt != 1 || retries[0].Max != MaxResumes {
		t.Fatalf("retries = %+v, want one reconnect 1/%d", retries, MaxResumes)
	}
	bg := srv.Background()
	if len(bg) != 1 || bg[0].Method != http.MethodGet || bg[0].Path != "/v1/responses/resp_bg1" {
		t.Fatalf("background requests = %+v", bg)
	}
	if bg[0].Query != "starting_after=40&stream=true" {
		t.Errorf("resume query %q, want starting_after=40&stream=true", bg[0].Query)
	}
	if a, b := answerText(&got), answerText(&want); a != b {
		t.Errorf("resumed text differs from the undropped one:\n got %q\nwant %q", a, b)
	}
	if s := got.Current(); s == nil || s.Status != "completed" || s.CutOff || len(got.Responses()) != 1 {
		t.Errorf("snapshot after resume: %+v", s)
	}
	// the request went out as background and stored
	body := srv.Requests()[0].JSON()
	if body["background"] != true || body["store"] != true {
		t.Errorf("request background=%v store=%v, want both true", body["background"], body["store"])
	}
}

// Events a resumed stream repeats (a server that starts too early) are
// dropped by sequence number: the text is not doubled.
func TestBackgroundResumeDropsDuplicates(t *testing.T) {
	sse := streamtest.Text("resp_bg2", words(60)...)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeRepeat: 10})
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 30})
	var got, want Accumulator
	_, _ = drainFold(t, StartReader(context.Background(), strings.NewReader(string(sse)), 0), &want)
	if _, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got); err != nil {
		t.Fatal(err)
	}
	if a, b := answerText(&got), answerText(&want); a != b {
		t.Errorf("text after a repeating resume:\n got %q\nwant %q", a, b)
	}
}

// A resumed stream that keeps dropping is reopened again, from wherever it
// got to, and a server that never lets it finish ends the turn after
// MaxReconnects with the partial kept and marked.
func TestBackgroundResumeGivesUp(t *testing.T) {
	sse := streamtest.Text("resp_bg3", words(60)...)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeDropAfter: 5})
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 10})
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got)
	if err != nil {
		t.Fatalf("a stream that progresses on every reopen must finish, got %v", err)
	}
	if len(retries) < 5 || answerText(&got) == "" || got.Current().CutOff {
		t.Fatalf("retries %d, cut off %v", len(retries), got.Current().CutOff)
	}

	srv2 := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeDropAfter: -1})
	srv2.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 10})
	var cut Accumulator
	retries, err = drainFold(t, Start(context.Background(), bgClient(srv2), Request{Model: "m", Background: true}), &cut)
	if err == nil || len(retries) != MaxReconnects {
		t.Fatalf("err %v after %d retries, want an error after %d", err, len(retries), MaxReconnects)
	}
	if s := cut.Current(); !s.CutOff || answerText(&cut) == "" {
		t.Errorf("the partial answer must be kept and marked cut off")
	}
	if !strings.Contains(err.Error(), "broke off") || strings.Contains(retries[0].Err.Error(), "try again") {
		t.Errorf("the turn must end with the drop's error (%v), the notice say only what happened (%v)", err, retries[0].Err)
	}
}

// A server that cannot stream a stored response again is polled until the
// response ends; its final object completes the answer.
func TestBackgroundPollsWhenResumeUnsupported(t *testing.T) {
	sse := streamtest.Text("resp_bg4", words(50)...)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{NoResume: true, PollsBeforeDone: 2})
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 20})
	var got, want Accumulator
	_, _ = drainFold(t, StartReader(context.Background(), strings.NewReader(string(sse)), 0), &want)
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got)
	if err != nil {
		t.Fatal(err)
	}
	polls := 0
	for _, r := range retries {
		if r.Poll {
			polls++
		}
	}
	if polls != 2 {
		t.Errorf("poll notices %d, want 2 (the response was running twice)", polls)
	}
	if a, b := answerText(&got), answerText(&want); a != b {
		t.Errorf("polled text:\n got %q\nwant %q", a, b)
	}
	if s := got.Current(); s.Status != "completed" || s.CutOff {
		t.Errorf("status %q cut off %v", s.Status, s.CutOff)
	}
}

// A server that refuses background mode gets the request again without it,
// announced once.
func TestBackgroundRejectedFallsBackToForeground(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{RejectBackground: true})
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Input: []json.RawMessage{UserText("hi")}, Background: true}), &got)
	if err != nil {
		t.Fatal(err)
	}
	if len(retries) != 1 || !retries[0].Foreground || !BackgroundRejected(retries[0].Err) {
		t.Fatalf("retries %+v, want one foreground notice", retries)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].JSON()["background"] != nil {
		t.Fatalf("second request must not ask for background: %d requests", len(reqs))
	}
	if !strings.Contains(answerText(&got), "hi") {
		t.Errorf("answer %q", answerText(&got))
	}
}

// Without background mode a drop keeps today's behaviour: no reconnect, the
// partial kept and marked.
func TestForegroundDropIsNotResumed(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_fg", words(50)...), DropAfter: 20})
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m"}), &got)
	if err == nil || len(retries) != 0 || len(srv.Background()) != 0 {
		t.Fatalf("err %v retries %v background requests %d", err, retries, len(srv.Background()))
	}
	if !got.Current().CutOff {
		t.Error("partial answer not marked cut off")
	}
}

// CancelResponse posts to /responses/{id}/cancel.
func TestCancelResponse(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_bg5", words(50)...), StallAfter: 10})
	ctx, cancel := context.WithCancel(context.Background())
	h := Start(ctx, bgClient(srv), Request{Model: "m", Background: true})
	<-h.Chan()
	cancel()
	for range h.Chan() {
	}
	if err := bgClient(srv).CancelResponse(context.Background(), "resp_bg5"); err != nil {
		t.Fatal(err)
	}
	bg := srv.Background()
	if len(bg) != 1 || bg[0].Method != http.MethodPost || bg[0].Path != "/v1/responses/resp_bg5/cancel" {
		t.Fatalf("background requests %+v", bg)
	}
	if r, _ := srv.Response("resp_bg5"); !r.Cancelled {
		t.Error("server did not record the cancel")
	}
}

// Reattach picks a background response up after a sequence number: one
// still running streams the rest in (starting_after); one that finished is
// fetched whole; from a server that cannot resume, a running one is polled.
func TestReattach(t *testing.T) {
	sse := streamtest.Text("resp_bg6", words(40)...)
	var want Accumulator
	_, _ = drainFold(t, StartReader(context.Background(), strings.NewReader(string(sse)), 0), &want)
	for _, tt := range []struct {
		name string
		opts streamtest.StateOptions
		reqs []string
	}{
		{"running", streamtest.StateOptions{RunUntilStreamed: true},
			[]string{"GET /v1/responses/resp_bg6?", "GET /v1/responses/resp_bg6?starting_after=14&stream=true"}},
		{"finished", streamtest.StateOptions{},
			[]string{"GET /v1/responses/resp_bg6?"}},
		{"no resume", streamtest.StateOptions{NoResume: true, PollsBeforeDone: 1},
			[]string{"GET /v1/responses/resp_bg6?", "GET /v1/responses/resp_bg6?starting_after=14&stream=true", "GET /v1/responses/resp_bg6?"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := streamtest.New(t).Stateful(tt.opts)
			srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 15})
			var first Accumulator
			ctx, cancel := context.WithCancel(context.Background())
			h := Start(ctx, &Client{BaseURL: srv.URL, MaxRetries: -1, BaseDelay: time.Hour}, Request{Model: "m", Background: true})
			for b := range h.Chan() {
				for i := range b.Events {
					_, _ = first.Apply(&b.Events[i])
				}
				if b.Retry != nil {
					cancel() // the client dies instead of reconnecting
				}
			}
			cancel()
			var got Accumulator
			retries, err := drainFold(t, Reattach(context.Background(), bgClient(srv), "resp_bg6", 14), &got)
			if err != nil || len(retries) != 0 {
				t.Fatalf("err %v retries %v", err, retries)
			}
			var reqs []string
			for _, r := range srv.Background() {
				reqs = append(reqs, r.Method+" "+r.Path+"?"+r.Query)
			}
			if strings.Join(reqs, "\n") != strings.Join(tt.reqs, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(reqs, "\n"), strings.Join(tt.reqs, "\n"))
			}
			if s := got.Current(); s == nil || s.Status != "completed" {
				t.Fatal("not completed")
			}
			// the whole text: the part before and the rest, or the fetched whole
			text := answerText(&got)
			text = answerText(&first) + strings.TrimPrefix(text, answerText(&first))
			if text != answerText(&want) {
				t.Errorf("reattached text\n got %q\nwant %q", text, answerText(&want))
			}
		})
	}
}

// The real recorded background streams (fixtures/real3, openai-dotnet)
// replay whole: the queued ones, and the two resumed with starting_after=1
// that begin at response.in_progress.
func TestRealBackgroundStreamsReplay(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "real3", "openai__openai-dotnet")
	for _, name := range []string{"background-queued-stream", "background-queued-stream-async",
		"background-resume-starting-after-1", "background-resume-starting-after-1-async"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			acc, probs := replay(t, data)
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			CompareExpected(t, acc.Responses(), readExpected(t, filepath.Join(dir, "..", "expected", "openai__openai-dotnet", name+".jsonl")))
		})
	}
}

// A recorded queued stream cut after its first events (created, queued) and
// joined, through the resume path, to its recorded continuation
// (GET …?stream=true&starting_after=1) gives the answer openai-node makes of
// the whole stream.
func TestRealBackgroundQueuedJoinsResumed(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "real3", "openai__openai-dotnet")
	for _, pair := range [][2]string{
		{"background-queued-stream", "background-resume-starting-after-1"},
		{"background-queued-stream-async", "background-resume-starting-after-1-async"},
	} {
		t.Run(pair[0], func(t *testing.T) {
			queued, err := os.ReadFile(filepath.Join(dir, pair[0]+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			resumed, err := os.ReadFile(filepath.Join(dir, pair[1]+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			head := streamtest.SplitEvents(queued)[:2] // sequence numbers 0 and 1
			var gets []string
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				if r.Method == http.MethodPost {
					for _, ev := range head {
						_, _ = w.Write(ev)
					}
					w.(http.Flusher).Flush()
					panic(http.ErrAbortHandler) // the connection drops
				}
				gets = append(gets, r.URL.RequestURI())
				_, _ = w.Write(resumed)
			}))
			defer hs.Close()
			var acc Accumulator
			c := &Client{BaseURL: hs.URL + "/v1", BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
			if _, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &acc); err != nil {
				t.Fatal(err)
			}
			if len(gets) != 1 || !strings.Contains(gets[0], "starting_after=1") {
				t.Fatalf("resume requests %v", gets)
			}
			CompareExpected(t, acc.Responses(), readExpected(t, filepath.Join(dir, "..", "expected", "openai__openai-dotnet", pair[0]+".jsonl")))
		})
	}
}

// A response saved part way (its items as JSON, the sequence number they
// hold) and continued with the events after that number ends with the text
// of the whole stream.
func TestAccumulatorContinue(t *testing.T) {
	sse := streamtest.Text("resp_c", words(30)...)
	var whole, part Accumulator
	d := NewDecoder(strings.NewReader(string(sse)))
	var after int64 = -1
	var rest []Event
	for d.Next() {
		ev := *d.Event()
		_, _ = whole.Apply(&ev)
		if ev.Seq <= 17 {
			_, _ = part.Apply(&ev)
			after = ev.Seq
		} else {
			rest = append(rest, ev)
		}
	}
	// what the store keeps: the items' JSON
	saved := &Snapshot{ID: "resp_c", CutOff: true}
	for _, it := range part.Current().Items {
		loaded, err := ItemFromJSON(it.JSON())
		if err != nil {
			t.Fatal(err)
		}
		loaded.Index = it.Index
		saved.Items = append(saved.Items, loaded)
	}
	var cont Accumulator
	cont.Continue([]*Snapshot{saved})
	for i := range rest {
		if rest[i].Seq <= after {
			continue
		}
		if rest[i].Kind == KindTextDone && answerText(&cont) != strings.Join(words(30), "") {
			t.Errorf("deltas after the saved point did not extend the saved text: %q", answerText(&cont))
		}
		if _, err := cont.Apply(&rest[i]); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := answerText(&cont), answerText(&whole); a != b {
		t.Errorf("continued text\n got %q\nwant %q", a, b)
	}
	// the items are the loaded ones, updated in place
	if cont.Current().Items[0] != saved.Items[0] || !cont.Current().Terminal {
		t.Error("continue must update the loaded items in place and end terminal")
	}
}

// A background stream that stalls past the idle timeout is resumed like a
// dropped one.
func TestBackgroundResumeAfterStall(t *testing.T) {
	sse := streamtest.Text("resp_stall", words(50)...)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: sse, StallAfter: 25})
	c := bgClient(srv)
	c.IdleTimeout = 100 * time.Millisecond
	var got, want Accumulator
	_, _ = drainFold(t, StartReader(context.Background(), strings.NewReader(string(sse)), 0), &want)
	retries, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
	if err != nil {
		t.Fatal(err)
	}
	if len(retries) != 1 || !retries[0].Resume || !errors.Is(retries[0].Err, ErrIdleTimeout) {
		t.Fatalf("retries %+v, want one reconnect after the idle timeout", retries)
	}
	if bg := srv.Background(); len(bg) != 1 || bg[0].Query != "starting_after=24&stream=true" {
		t.Fatalf("resume requests %+v", bg)
	}
	if answerText(&got) != answerText(&want) {
		t.Errorf("text after a stall differs")
	}
}

func TestRetryInfoNext(t *testing.T) {
	for _, tt := range []struct {
		r    RetryInfo
		want string
	}{
		{RetryInfo{Attempt: 1, Max: 3, Wait: 1200 * time.Millisecond}, "retrying in 1.2s (attempt 1 of 3)"},
		{RetryInfo{Attempt: 2, Max: 5, Wait: 400 * time.Millisecond, Resume: true}, "reconnecting in 400ms (attempt 2 of 5)"},
		{RetryInfo{Attempt: 3, Max: 40, Wait: 2 * time.Second, Poll: true}, "checking again in 2s (3 of 40)"},
		{RetryInfo{Attempt: 1, Max: 1, Foreground: true}, "going on in foreground mode"},
	} {
		if got := tt.r.Next(); got != tt.want {
			t.Errorf("Next() = %q, want %q", got, tt.want)
		}
	}
}

// Resumes that bring nothing new (only repeats) are bounded: after
// MaxReconnects the partial answer stays, marked, and nothing is doubled.
func TestBackgroundResumeWithoutProgressGivesUp(t *testing.T) {
	sse := streamtest.Text("resp_np", words(60)...)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeRepeat: 20, ResumeDropAfter: 10})
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 30})
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got)
	if err == nil || len(retries) != MaxReconnects {
		t.Fatalf("err %v after %d reconnects, want an error after %d", err, len(retries), MaxReconnects)
	}
	if text := answerText(&got); strings.Count(text, "word1 ") != 1 || !got.Current().CutOff {
		t.Errorf("partial answer %q (cut off %v)", text, got.Current().CutOff)
	}
}

// A stream without sequence numbers is not resumed: a reopened one could
// only repeat what was shown.
func TestBackgroundWithoutSequenceNumbersIsNotResumed(t *testing.T) {
	sse := streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_noseq","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"m1","type":"message","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"partial"}`,
	)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: sse, DropAfter: 3})
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &got)
	if err == nil || len(retries) != 0 || len(srv.Requests()) != 1 {
		t.Fatalf("err %v, %d retries, %d requests", err, len(retries), len(srv.Requests()))
	}
}

// The response id comes from the server: it is escaped as one path segment,
// and one that cannot be is refused without a request.
func TestResponseURLEscapesTheID(t *testing.T) {
	c := &Client{BaseURL: "http://h/v1"}
	u, err := c.responseURL("resp_a/../../x?y#z", "/cancel")
	if err != nil || u.EscapedPath() != "/v1/responses/resp_a%2F..%2F..%2Fx%3Fy%23z/cancel" || u.RawQuery != "" {
		t.Fatalf("url %v, err %v", u, err)
	}
	for _, id := range []string{"", ".", "..", "a\nb", strings.Repeat("x", 600)} {
		if _, err := c.responseURL(id, ""); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
}

// The recorded queued background streams, served by the stateful fake and
// dropped part way (inside the text, and right after response.queued),
// resume to the answer openai-node makes of the whole recording.
func TestRealBackgroundStreamsResumeThroughStreamtest(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "real3", "openai__openai-dotnet")
	for _, name := range []string{"background-queued-stream", "background-queued-stream-async"} {
		for _, drop := range []int{2, 100} {
			t.Run(fmt.Sprintf("%s/drop-after-%d", name, drop), func(t *testing.T) {
				srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
				srv.Enqueue(streamtest.Reply{File: filepath.Join(dir, name+".sse"), DropAfter: drop})
				var acc Accumulator
				retries, err := drainFold(t, Start(context.Background(), bgClient(srv), Request{Model: "m", Background: true}), &acc)
				if err != nil || len(retries) != 1 {
					t.Fatalf("err %v, retries %v", err, retries)
				}
				if q := srv.Background()[0].Query; q != fmt.Sprintf("starting_after=%d&stream=true", drop-1) {
					t.Errorf("resume query %q", q)
				}
				CompareExpected(t, acc.Responses(), readExpected(t, filepath.Join(dir, "..", "expected", "openai__openai-dotnet", name+".jsonl")))
			})
		}
	}
}
