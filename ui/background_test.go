package ui

import (
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// A server that refuses background mode gets one line; the turn is answered
// in foreground mode, and so is the rest of the session.
func TestBackgroundRefusedGoesOnInForeground(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{RejectBackground: true})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true, Background: true}})
	m.Init()
	m.Update(SubmitMsg{Text: "first"})
	pump(t, m, nil)
	m.Update(SubmitMsg{Text: "second"})
	pump(t, m, nil)
	v := strings.Join(strings.Fields(plain(m)), " ")
	if n := strings.Count(v, "the server refused background mode"); n != 1 || !strings.Contains(v, "this session goes on in foreground mode") {
		t.Errorf("%d foreground lines:\n%s", n, v)
	}
	if !strings.Contains(v, `Answer 2 to "second"`) {
		t.Errorf("second turn not answered:\n%s", v)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].JSON()["background"] != true || reqs[1].JSON()["background"] != nil || reqs[2].JSON()["background"] != nil {
		t.Errorf("requests: %d; the refused one must be the only one asking for background", len(reqs))
	}
}

// A background stream that drops shows "reconnecting 1/5" as a countdown,
// then continues the answer in place; a server that cannot resume is
// polled, saying so.
func TestBackgroundReconnectAndPollLines(t *testing.T) {
	for _, tt := range []struct {
		opts streamtest.StateOptions
		want string
	}{
		{streamtest.StateOptions{}, "the stream dropped — reconnecting 1/5 · reconnected"},
		{streamtest.StateOptions{NoResume: true, PollsBeforeDone: 1}, "still running — checking 1/40 · the response ended"},
	} {
		srv := streamtest.New(t).Stateful(tt.opts)
		deltas := make([]string, 50)
		for i := range deltas {
			deltas[i] = "d" + strings.Repeat("x", i%3) + " "
		}
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_ui", deltas...), DropAfter: 30})
		c := &stream.Client{BaseURL: srv.URL, MaxRetries: -1, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		m := newTestModel(t, Options{Client: c, Settings: session.Settings{Model: "m", Store: true, Background: true}})
		m.Init()
		m.Update(SubmitMsg{Text: "go"})
		pump(t, m, nil)
		v := strings.Join(strings.Fields(plain(m)), " ")
		if !strings.Contains(v, tt.want) {
			t.Errorf("screen lacks %q:\n%s", tt.want, v)
		}
		if got := m.conv.Turns[0].Responses[0].Items[0].Text(); got != strings.Join(deltas, "") {
			t.Errorf("answer not whole: %q", got)
		}
		if strings.Contains(v, stream.CutOffNote) {
			t.Errorf("a resumed answer is not cut off:\n%s", v)
		}
	}
}
