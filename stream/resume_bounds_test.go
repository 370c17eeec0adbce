package stream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream/streamtest"
)

// fakeClock is a resumer's clock that waits by moving its time on: the
// bounds on resuming run at once.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
	return context.Cause(ctx)
}

// fakeClient is a client of url whose resuming runs on a fake clock, every
// backoff wait the longest it may be (base doubling to maxDelay).
func fakeClient(url string, base, maxDelay time.Duration) (*Client, *fakeClock) {
	f := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	return &Client{BaseURL: url, BaseDelay: base, MaxDelay: maxDelay,
		clock: &clock{now: f.now, sleep: f.sleep, rnd: func(n int64) int64 { return n - 1 }}}, f
}

// oneLine fails t unless err is one line that says each of want.
func oneLine(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("the turn ended without an error")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("not one line: %q", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%q does not say %q", msg, w)
		}
	}
}

// A server whose every resumed stream brings one new event and drops (so
// the count of reconnects in a row never grows) gets MaxResumes reconnects
// in all: the turn ends with one line, the partial answer kept and marked,
// and the notices count the turn's reconnects, 1 to MaxResumes.
func TestResumeEndsAfterMaxResumes(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeDropAfter: 1})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_trickle", words(100)...), DropAfter: 10})
	c, _ := fakeClient(srv.URL, time.Millisecond, time.Millisecond)
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
	oneLine(t, err, "resp_trickle", "20 reconnects", "kept dropping")
	var le *resumeLimitError
	if !errors.As(err, &le) || le.timeUp {
		t.Errorf("err %v, want the reconnect limit", err)
	}
	if n := len(srv.Background()); n != MaxResumes {
		t.Errorf("%d reconnects, want %d", n, MaxResumes)
	}
	for i, r := range retries {
		if !r.Resume || r.Attempt != i+1 || r.Max != MaxResumes {
			t.Fatalf("notice %d: %+v, want reconnect %d of %d", i, r, i+1, MaxResumes)
		}
	}
	// events 0…9 (word5 is number 9), then one per reconnect: up to word25
	if s := got.Current(); !s.CutOff || !strings.Contains(answerText(&got), "word25 ") || strings.Contains(answerText(&got), "word26 ") {
		t.Errorf("partial %q (cut off %v), want the 10 first events and one per reconnect", answerText(&got), s.CutOff)
	}
}

// The same server with backoff waits of two minutes: the time without new
// events adds up over the reconnects, and once the next wait would take it
// past ResumeBudget the turn ends with one line (on a fake clock: no
// waiting).
func TestResumeEndsWhenBudgetSpent(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeDropAfter: 1})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_slow", words(100)...), DropAfter: 10})
	c, clk := fakeClient(srv.URL, 2*time.Minute, 2*time.Minute)
	start := clk.now()
	var got Accumulator
	_, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
	oneLine(t, err, "resp_slow", "10m0s without new events", "5 reconnects")
	var le *resumeLimitError
	if !errors.As(err, &le) || !le.timeUp {
		t.Errorf("err %v, want the time budget", err)
	}
	if n := len(srv.Background()); n != 5 {
		t.Errorf("%d reconnects, want 5 (2 minutes each fill 10)", n)
	}
	if d := clk.now().Sub(start); d > ResumeBudget {
		t.Errorf("resuming took %s, past %s", d, ResumeBudget)
	}
	if !got.Current().CutOff {
		t.Error("the partial answer is not marked cut off")
	}
}

// resumeServer is a background server whose POST sends events[:cut] and
// drops, and whose resumes send what resumed returns (nil: 405, so the
// client polls, and object is the response it fetches).
func resumeServer(t *testing.T, events [][]byte, cut int, resumed func(after string) [][]byte, object string) *httptest.Server {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range events[:cut] {
				_, _ = w.Write(ev)
			}
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection drops
		case r.URL.Query().Get("stream") == "true" && resumed != nil:
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range resumed(r.URL.Query().Get("starting_after")) {
				_, _ = w.Write(ev)
			}
		case r.URL.Query().Get("stream") == "true":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusMethodNotAllowed)
			_, _ = w.Write([]byte(`{"error":{"message":"streaming a stored response is not supported"}}`))
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(object))
		}
	}))
	t.Cleanup(hs.Close)
	return hs
}

// A resumed stream whose sequence numbers go back (below starting_after
// after moving past it, or repeating the last one delivered) ends the turn
// with one line; nothing of the event that went back is shown. The
// server's repeat of events up to starting_after, before the new ones, is
// not going back: those are dropped, as before.
func TestResumeBackwardsEnds(t *testing.T) {
	events := streamtest.SplitEvents(streamtest.Text("resp_back", words(30)...))
	for _, tt := range []struct {
		name    string
		resumed []int // indices (= sequence numbers) the resume sends
		want    string
	}{
		{"below the start", []int{10, 11, 12, 5, 13}, "went back from event 12 to 5"},
		{"a repeat of the last", []int{10, 11, 11, 12}, "went back from event 11 to 11"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var after []string
			hs := resumeServer(t, events, 10, func(a string) [][]byte {
				after = append(after, a)
				var out [][]byte
				for _, i := range tt.resumed {
					out = append(out, events[i])
				}
				return out
			}, "")
			c, _ := fakeClient(hs.URL, time.Millisecond, time.Millisecond)
			var got Accumulator
			_, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
			oneLine(t, err, "resp_back", tt.want)
			if len(after) != 1 || after[0] != "9" {
				t.Errorf("resumes after %v, want one after 9", after)
			}
			text := answerText(&got)
			if strings.Count(text, "word1 ") != 1 || strings.Count(text, "word7 ") != 1 || strings.Contains(text, "word9 ") {
				t.Errorf("answer %q: each word once, up to the one before the event that went back", text)
			}
			if !got.Current().CutOff {
				t.Error("not marked cut off")
			}
		})
	}

	// a repeat before the new events is the server starting early: fine
	hs := resumeServer(t, events, 10, func(string) [][]byte { return events[6:] }, "")
	c, _ := fakeClient(hs.URL, time.Millisecond, time.Millisecond)
	var got, want Accumulator
	_, _ = drainFold(t, StartReader(context.Background(), strings.NewReader(string(streamtest.Text("resp_back", words(30)...))), 0), &want)
	if _, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got); err != nil {
		t.Fatal(err)
	}
	if answerText(&got) != answerText(&want) {
		t.Errorf("after a repeat: %q", answerText(&got))
	}
}

// A resumed stream, or a fetched object, of another response than the one
// dropped ends the turn with one line naming both; nothing of the other is
// shown.
func TestResumeOtherResponseEnds(t *testing.T) {
	events := streamtest.SplitEvents(streamtest.Text("resp_mine", words(30)...))
	other := streamtest.SplitEvents(streamtest.Text("resp_theirs", "not", "mine")) // its sequence numbers run 0…
	for _, tt := range []struct {
		name    string
		resumed func(string) [][]byte
		object  string
	}{
		{"stream", func(string) [][]byte { return other }, ""},
		{"stream after new events", func(string) [][]byte {
			return append(append([][]byte{}, events[10:12]...), other[len(other)-1]) // their completed, sequence number 9
		}, ""},
		{"poll", nil, `{"id":"resp_theirs","object":"response","status":"completed","output":[]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hs := resumeServer(t, events, 10, tt.resumed, tt.object)
			c, _ := fakeClient(hs.URL, time.Millisecond, time.Millisecond)
			var got Accumulator
			_, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
			oneLine(t, err, "resp_mine", "carried response resp_theirs instead")
			if text := answerText(&got); strings.Contains(text, "mine") || !strings.Contains(text, "word5 ") {
				t.Errorf("answer %q", text)
			}
			if len(got.Responses()) != 1 || !got.Current().CutOff {
				t.Errorf("%d responses, cut off %v: want the one, marked", len(got.Responses()), got.Current().CutOff)
			}
		})
	}
}

// A server that cannot resume, whose response never ends, is polled with
// the default backoff for no longer than PollWindow, then the turn ends
// with one line that says the bound (on a fake clock: no waiting).
func TestPollGivesUpWithinWindow(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{NoResume: true, PollsBeforeDone: 1 << 20})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_forever", words(30)...), DropAfter: 10})
	c, clk := fakeClient(srv.URL, 0, 0) // the defaults: 500ms doubling to 30s
	start := clk.now()
	var got Accumulator
	retries, err := drainFold(t, Start(context.Background(), c, Request{Model: "m", Background: true}), &got)
	oneLine(t, err, "resp_forever", "did not finish within 5m0s")
	took := clk.now().Sub(start)
	if took > PollWindow || took < PollWindow-defaultMaxDelay {
		t.Errorf("polling took %s, want just under %s", took, PollWindow)
	}
	polls := 0
	for _, r := range srv.Background() {
		if r.Query == "" {
			polls++
		}
	}
	if polls != len(retries) || polls > MaxPolls {
		t.Errorf("%d polls, %d notices (one reconnect, then one before each poll but the first)", polls, len(retries))
	}
	if !got.Current().CutOff || !strings.Contains(answerText(&got), "word4 ") {
		t.Error("the partial answer is not kept and marked")
	}
}
