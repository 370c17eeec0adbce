package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// A server that refuses background mode gets one line; the turn is answered
// in foreground mode, and so is the rest of the session.
func TestBackgroundRefusedGoesOnInForeground(t *testing.T) {
	t.Parallel()
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

// A background stream that drops shows "reconnecting 1/20" as a countdown,
// then continues the answer in place; a server that cannot resume is
// polled, saying so.
func TestBackgroundReconnectAndPollLines(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts streamtest.StateOptions
		want string
	}{
		{streamtest.StateOptions{}, "the stream dropped — reconnecting 1/20 · reconnected"},
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
		if got := m.turns.conv.Turns[0].Responses[0].Items[0].Text(); got != strings.Join(deltas, "") {
			t.Errorf("answer not whole: %q", got)
		}
		if strings.Contains(v, stream.CutOffNote) {
			t.Errorf("a resumed answer is not cut off:\n%s", v)
		}
	}
}

// A reattach that finds the response streams the rest into the saved answer
// and the turn is no longer interrupted; one whose response is gone ends
// with the server's error, and the turn stays interrupted, so the next
// message still carries its prompt and partial answer.
func TestReattachOutcomes(t *testing.T) {
	t.Parallel()
	deltas := make([]string, 30)
	for i := range deltas {
		deltas[i] = "r" + strings.Repeat("y", i%4) + " "
	}
	for _, found := range []bool{true, false} {
		srv := streamtest.New(t).Stateful(streamtest.StateOptions{RunUntilStreamed: true})
		c := &stream.Client{BaseURL: srv.URL, MaxRetries: -1, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		var partial stream.Accumulator
		if found { // the response exists on the server, its first 12 events were seen
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_re", deltas...), DropAfter: 12})
			h := stream.Start(t.Context(), &stream.Client{BaseURL: srv.URL, MaxRetries: -1, BaseDelay: time.Hour}, stream.Request{Model: "m", Background: true})
			for b := range h.Chan() {
				for i := range b.Events {
					_, _ = partial.Apply(&b.Events[i])
				}
				if b.Retry != nil {
					h.Cancel(nil)
				}
			}
		} else {
			it, _ := stream.ItemFromJSON([]byte(`{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"r ry "}]}`))
			partial.Continue([]*stream.Snapshot{{ID: "resp_re", Items: []*stream.Item{it}}})
		}
		m := newTestModel(t, Options{Client: c, Settings: session.Settings{Model: "m", Store: true}})
		m.Init()
		st := &session.Turn{Prompt: "tell me", Input: []json.RawMessage{stream.UserText("tell me")}, Stored: store.StatusInterrupted,
			Row: 1, Background: store.Background{ID: "resp_re", After: 11}, Responses: partial.Responses()}
		m.turns.conv = &session.Conversation{Settings: m.turns.conv.Settings, Turns: []*session.Turn{st}}
		m.redraw()
		if m.turns.reattach(m.history.journal) == nil {
			t.Fatal("nothing reattached")
		}
		pump(t, m, nil)
		v := strings.Join(strings.Fields(plain(m)), " ")
		if found {
			if got := st.Responses[0].Items[0].Text(); got != strings.Join(deltas, "") || st.Interrupted() || m.turns.conv.Carried() {
				t.Errorf("found: text %q, interrupted %v, carried %v", got, st.Interrupted(), m.turns.conv.Carried())
			}
			if !strings.Contains(v, "reattaching to it on the server") {
				t.Errorf("found: screen\n%s", v)
			}
		} else if !st.Interrupted() || !m.turns.conv.Carried() || !strings.Contains(v, "No response found") {
			t.Errorf("gone: interrupted %v, carried %v, screen\n%s", st.Interrupted(), m.turns.conv.Carried(), v)
		}
	}
}
