package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// countingTool is get_weather, needing no approval: each run appends a
// line to a file, which runs counts.
func countingTool(t *testing.T) (*Tools, func() int) {
	path := filepath.Join(t.TempDir(), "runs")
	cfg := tools.Config{Functions: []tools.Function{{
		Name: "get_weather", Description: "counts its runs", Approval: tools.ApproveNever, Shell: true,
		Command: []string{"cat >/dev/null; echo ran >>'" + path + "'; echo sunny"},
	}}}
	return &Tools{Config: cfg, Enabled: map[string]bool{"get_weather": true}}, func() int {
		b, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return strings.Count(string(b), "ran\n")
	}
}

// outputsIn counts a recorded request's function_call_outputs for callID.
func outputsIn(t *testing.T, r streamtest.Recorded, callID string) int {
	t.Helper()
	var body struct {
		Input []struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		} `json:"input"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, in := range body.Input {
		if in.Type == "function_call_output" && in.CallID == callID {
			n++
		}
	}
	return n
}

// repeatedCallEvents is a response listing call_1 twice, at two output
// indexes (a server that sends the call again): one call all the same.
func repeatedCallEvents(respID string) []string {
	item := func(id, status string) string {
		return `{"type":"function_call","id":"` + id + `","name":"get_weather","call_id":"call_1","arguments":"{\"city\":\"Paris\"}","status":"` + status + `"}`
	}
	return []string{
		`{"type":"response.created","response":{"id":"` + respID + `","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":` + item("fc_1", "in_progress") + `}`,
		`{"type":"response.output_item.done","output_index":0,"item":` + item("fc_1", "completed") + `}`,
		`{"type":"response.output_item.added","output_index":1,"item":` + item("fc_2", "in_progress") + `}`,
		`{"type":"response.output_item.done","output_index":1,"item":` + item("fc_2", "completed") + `}`,
		`{"type":"response.completed","response":{"id":"` + respID + `","status":"completed","output":[` + item("fc_1", "completed") + `,` + item("fc_2", "completed") + `]}}`,
	}
}

// weatherCallEvents is a response calling get_weather once, as call_1.
func weatherCallEvents(respID string) []string {
	evs := slowCallEvents(respID)
	for i, e := range evs {
		evs[i] = strings.ReplaceAll(e, "slow_tool", "get_weather")
	}
	return evs
}

// TestRepeatedToolCallRunsOnce: a stream that repeats a call (llama.cpp's
// recorded shape: the call again in output_item.done and the terminal
// response, no ids, no output_index; and a server listing one call_id at
// two output indexes) runs the command once, and the next request answers
// the call once.
func TestRepeatedToolCallRunsOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		reply  streamtest.Reply
		callID string
	}{
		{"llama.cpp", streamtest.Reply{File: sharedtest.Path(t, "fixtures", "servers", "ggml-org__llama.cpp", "llamacpp-toolcall.sse")}, "fc_Xc3Lq8ZtP0aWm5Yr2BvN7KsD4hJf9GuE"},
		{"two output indexes", streamtest.Reply{SSE: streamtest.Events(repeatedCallEvents("resp_call")...)}, "call_1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tl, runs := countingTool(t)
			srv := streamtest.New(t)
			srv.Enqueue(tt.reply, streamtest.Reply{SSE: streamtest.Text("resp_after", "It is sunny.")})
			m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl})
			d := newDriver(t, m)
			d.run(m.Init())
			d.send(SubmitMsg{Text: "weather in Paris?"})
			d.until("the answer", func() bool {
				return m.turns.cur == nil && !m.tools.busy() && len(srv.Requests()) == 2 && m.statusBar.status.State == Idle
			})
			if n := runs(); n != 1 {
				t.Errorf("get_weather ran %d times, want 1", n)
			}
			if n := outputsIn(t, srv.Requests()[1], tt.callID); n != 1 {
				t.Errorf("the round's request answers %s %d times: %s", tt.callID, n, srv.Requests()[1].Body)
			}
			if v := plain(m); !strings.Contains(v, "It is sunny.") {
				t.Errorf("screen:\n%s", v)
			}
		})
	}
}

// journalReply streams sse as st's response, and records the turn in l.
func journalReply(t *testing.T, srv *streamtest.Server, c *session.Conversation, st *session.Turn, l *session.TurnLog, sse []byte) {
	t.Helper()
	srv.Enqueue(streamtest.Reply{SSE: sse})
	var acc stream.Accumulator
	for b := range stream.Start(t.Context(), &stream.Client{BaseURL: srv.URL}, st.Request).Chan() {
		for i := range b.Events {
			if _, err := acc.Apply(&b.Events[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	acc.Finish()
	c.Finish(st, acc.Responses(), nil, false)
	l.End(time.Now(), st)
}

// TestResumeDoesNotRunACallAgain: a session killed during a tool round is
// resumed, and the journal is the record of what ran: a call whose output
// the round recorded does not run again, nor does a call that a later
// response of the same user turn repeated after it ran; a call the
// response listed twice, not yet run, runs once. Each time the next
// request answers the call once.
func TestResumeDoesNotRunACallAgain(t *testing.T) {
	t.Parallel()
	callOnce := streamtest.Events(weatherCallEvents("resp_call")...)
	for _, tt := range []struct {
		name   string
		record func(t *testing.T, srv *streamtest.Server, c *session.Conversation, j *session.Journal)
		runs   int
	}{
		{"the round recorded its output", func(t *testing.T, srv *streamtest.Server, c *session.Conversation, j *session.Journal) {
			st := c.Say("weather?")
			journalReply(t, srv, c, st, j.Begin(st), callOnce)
			j.BeginRound("resp_call").SetInput([]json.RawMessage{stream.OutputItem("call_1", "sunny\n")})
		}, 0},
		{"a later round repeats it", func(t *testing.T, srv *streamtest.Server, c *session.Conversation, j *session.Journal) {
			st := c.Say("weather?")
			journalReply(t, srv, c, st, j.Begin(st), callOnce)
			round := j.BeginRound("resp_call")
			st = c.Begin("", stream.OutputItem("call_1", "sunny\n"))
			journalReply(t, srv, c, st, j.Continue(round, st), streamtest.Events(weatherCallEvents("resp_again")...))
			j.BeginRound("resp_again") // killed before its call was answered
		}, 0},
		{"listed twice, not run yet", func(t *testing.T, srv *streamtest.Server, c *session.Conversation, j *session.Journal) {
			st := c.Say("weather?")
			journalReply(t, srv, c, st, j.Begin(st), streamtest.Events(repeatedCallEvents("resp_call")...))
			j.BeginRound("resp_call") // killed before its call ran
		}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := streamtest.New(t)
			db := tempDB(t)
			c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
			j := session.NewJournal(db, c.Settings)
			tt.record(t, srv, c, j)
			j.Close()
			s, _, err := db.Load(j.ID())
			if err != nil {
				t.Fatal(err)
			}
			before := len(srv.Requests())

			tl, runs := countingTool(t)
			m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, DB: db, Resume: s})
			d := newDriver(t, m)
			d.run(m.Init())
			if tt.runs == 0 && (m.tools.busy() || m.dialog != nil) {
				t.Fatalf("the resume started a round (dialog %v)", m.dialog != nil)
			}
			if tt.runs > 0 {
				srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_round", "It is sunny.")})
				d.until("the resumed round's answer", func() bool {
					return !m.tools.busy() && m.turns.cur == nil && len(srv.Requests()) == before+1 && m.statusBar.status.State == Idle
				})
			} else {
				srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_next", "ok")})
				d.send(SubmitMsg{Text: "thanks"})
				d.until("the answer", func() bool {
					return m.turns.cur == nil && len(srv.Requests()) == before+1 && m.statusBar.status.State == Idle
				})
			}
			if n := runs(); n != tt.runs {
				t.Errorf("get_weather ran %d times after the resume, want %d", n, tt.runs)
			}
			r := srv.Requests()[before]
			if n := outputsIn(t, r, "call_1"); n != 1 {
				t.Errorf("the next request answers call_1 %d times: %s", n, r.Body)
			}
		})
	}
}

// TestLaterRoundRepeatIsNotRunAgain: the response to a round's outputs
// calls the same call_id again: it is not run again and gets no new
// output; the turn ends with a notice saying so, and the next message
// answers the open call once.
func TestLaterRoundRepeatIsNotRunAgain(t *testing.T) {
	t.Parallel()
	for _, keep := range []bool{true, false} {
		t.Run(fmt.Sprintf("store=%v", keep), func(t *testing.T) {
			tl, runs := countingTool(t)
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(weatherCallEvents("resp_1")...)},
				streamtest.Reply{SSE: streamtest.Events(weatherCallEvents("resp_2")...)},
				streamtest.Reply{SSE: streamtest.Text("resp_3", "ok")})
			m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, Settings: session.Settings{Model: "m", Store: keep}})
			d := newDriver(t, m)
			d.run(m.Init())
			d.send(SubmitMsg{Text: "weather?"})
			d.until("the repeated call", func() bool {
				return m.turns.cur == nil && !m.tools.busy() && len(srv.Requests()) == 2 && m.statusBar.status.State == Idle
			})
			if n := runs(); n != 1 {
				t.Errorf("get_weather ran %d times, want 1", n)
			}
			if v := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(v, "not run again: get_weather (call_1) already ran in this turn") {
				t.Errorf("no notice:\n%s", v)
			}
			if n := outputsIn(t, srv.Requests()[1], "call_1"); n != 1 {
				t.Errorf("the round's request answers call_1 %d times", n)
			}
			d.send(SubmitMsg{Text: "and now?"})
			d.until("the answer", func() bool { return m.turns.cur == nil && len(srv.Requests()) == 3 && m.statusBar.status.State == Idle })
			if n := runs(); n != 1 {
				t.Errorf("get_weather ran %d times after the next message, want 1", n)
			}
			r := srv.Requests()[2]
			if outputsIn(t, r, "call_1") != 1 || (keep && r.PreviousResponseID() != "resp_2") {
				t.Errorf("the next message (previous %q): %s", r.PreviousResponseID(), r.Body)
			}
		})
	}
}

// TestReconnectRunsACallOnce: a background stream drops after the call and
// the server repeats events it already sent when the chat reconnects: the
// command runs once, and the round's request answers the call once.
func TestReconnectRunsACallOnce(t *testing.T) {
	t.Parallel()
	tl, runs := countingTool(t)
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ResumeRepeat: 3})
	evs := weatherCallEvents("resp_bg")
	for i, e := range evs {
		evs[i] = strings.Replace(e, `{"type":`, `{"sequence_number":`+strconv.Itoa(i)+`,"type":`, 1)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(evs...), DropAfter: 4})
	c := &stream.Client{BaseURL: srv.URL, MaxRetries: -1, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	m := newTestModel(t, Options{Client: c, Tools: tl, Settings: session.Settings{Model: "m", Store: true, Background: true}})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "weather?"})
	d.until("the answer", func() bool {
		return m.turns.cur == nil && !m.tools.busy() && len(srv.Requests()) >= 3 && m.statusBar.status.State == Idle
	})
	if len(srv.Background()) == 0 {
		t.Fatal("the stream did not reconnect")
	}
	if n := runs(); n != 1 {
		t.Errorf("get_weather ran %d times, want 1", n)
	}
	var posts []streamtest.Recorded
	for _, r := range srv.Requests() {
		if r.Path == "/v1/responses" {
			posts = append(posts, r)
		}
	}
	if len(posts) != 2 || outputsIn(t, posts[1], "call_1") != 1 {
		t.Errorf("%d requests; the round's: %s", len(posts), posts[len(posts)-1].Body)
	}
}

// TestResendAnswersACallOnce: the round's request is refused because the
// server lost the chain, and is sent again from local history: the command
// ran once, and the resent request answers the call once.
func TestResendAnswersACallOnce(t *testing.T) {
	t.Parallel()
	tl, runs := countingTool(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(repeatedCallEvents("resp_call")...)},
		streamtest.PreviousResponseNotFound("resp_call"),
		streamtest.Reply{SSE: streamtest.Text("resp_after", "It is sunny.")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Tools: tl, Settings: session.Settings{Model: "m", Store: true}})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "weather?"})
	d.until("the answer", func() bool {
		return m.turns.cur == nil && !m.tools.busy() && len(srv.Requests()) == 3 && m.statusBar.status.State == Idle
	})
	if n := runs(); n != 1 {
		t.Errorf("get_weather ran %d times, want 1", n)
	}
	r := srv.Requests()[2]
	if r.PreviousResponseID() != "" || outputsIn(t, r, "call_1") != 1 || !strings.Contains(string(r.Body), "weather?") {
		t.Errorf("the resent request (previous %q): %s", r.PreviousResponseID(), r.Body)
	}
}
