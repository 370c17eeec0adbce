package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// driver runs a model as the Bubble Tea runtime would: every Cmd on its own
// goroutine, every message back through Update on the test's goroutine.
type driver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
	seen []State // the status line's state after each message, when it changed
}

func newDriver(t *testing.T, m *Model) *driver {
	return &driver{t: t, m: m, msgs: make(chan tea.Msg, 1024)}
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				d.run(c)
			}
			return
		}
		if msg != nil {
			d.msgs <- msg
		}
	}()
}

// send delivers msg now and runs what it returns.
func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.note()
	d.run(cmd)
}

func (d *driver) note() {
	if s := d.m.statusBar.status.State; len(d.seen) == 0 || d.seen[len(d.seen)-1] != s {
		d.seen = append(d.seen, s)
	}
}

// until delivers messages until cond holds (a deadline only guards against
// a hang; nothing is timed).
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; states %v; screen:\n%s", what, d.seen, plain(d.m))
		}
	}
}

// tempDB is a new session store in a temporary directory, closed when the
// test ends.
func tempDB(t *testing.T) *store.DB {
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// blockingTool is a local function needing approval that prints a line and
// then waits until the test writes to its FIFO.
func blockingTool(t *testing.T) (*Tools, string) {
	fifo := filepath.Join(t.TempDir(), "release")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	cfg := tools.Config{Functions: []tools.Function{{
		Name: "slow_tool", Description: "waits", Approval: tools.ApproveAlways,
		Command: []string{"sh", "-c", "cat >/dev/null; echo printed-before-kill; cat " + fifo},
	}}}
	return &Tools{Config: cfg, Enabled: map[string]bool{"slow_tool": true}}, fifo
}

// atSlowToolApproval starts a chat whose model calls the blocking tool
// (once: the server has nothing more queued) and waits for the tool's
// approval prompt. fifo releases the tool once approved.
func atSlowToolApproval(t *testing.T) (m *Model, d *driver, srv *streamtest.Server, fifo string) {
	tl, fifo := blockingTool(t)
	srv = streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...)})
	m = newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl})
	d = newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "run the slow tool"})
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	return m, d, srv, fifo
}

func slowCallEvents(respID string) []string {
	return []string{
		`{"type":"response.created","response":{"id":"` + respID + `","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"slow_tool","call_id":"call_1","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":"{}"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"slow_tool","call_id":"call_1","arguments":"{}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"` + respID + `","status":"completed","output":[]}}`,
	}
}

// TestStatusLineDuringTools: while the call's arguments stream the status
// says so; then it awaits approval; once approved it names the tool that
// runs, never "awaiting approval" again until the round is over. The round
// is in the history as it runs, with what the call printed.
func TestStatusLineDuringTools(t *testing.T) {
	t.Parallel()
	tl, fifo := blockingTool(t)
	srv := streamtest.New(t)
	gate := make(chan struct{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...), Gate: gate},
		streamtest.Reply{SSE: streamtest.Text("resp_after", "done")})
	db := tempDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, DB: db})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "run the slow tool"})
	for range 3 {
		gate <- struct{}{}
	}
	d.until("the arguments streaming", func() bool { return m.statusBar.status.State == CallingTool })
	if st := statusLine(plain(m)); !strings.Contains(st, "calling tool") || !strings.Contains(st, "slow_tool") {
		t.Errorf("status while the arguments stream:\n%s", st)
	}
	close(gate)
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	if st := statusLine(plain(m)); !strings.Contains(st, "awaiting approval") {
		t.Errorf("status with the prompt open:\n%s", st)
	}
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the tool running", func() bool { return m.statusBar.status.State == RunningTool && len(m.tools.record.running) == 1 })
	if st := statusLine(plain(m)); !strings.Contains(st, "running tool") || !strings.Contains(st, "slow_tool") {
		t.Errorf("status while the tool runs:\n%s", st)
	}
	d.until("the printed line", func() bool {
		return strings.Contains(string(m.tools.round.calls["call_1"].Output), "printed-before-kill")
	})
	// what the call printed is in the history while it runs
	d.until("the running output in the history", func() bool { return roundSaved(t, db, "printed-before-kill") })
	if err := os.WriteFile(fifo, []byte("finished\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.until("the answer", func() bool {
		return m.turns.cur == nil && !m.tools.busy() && len(srv.Requests()) == 2 && m.statusBar.status.State == Idle
	})
	// calling tool (arguments) → awaiting approval → (calling) → running tool
	ask := indexOf(d.seen, AwaitingApproval)
	if c := indexOf(d.seen, CallingTool); c < 0 || c > ask || indexOf(d.seen[:ask], RunningTool) >= 0 {
		t.Errorf("states before the approval: %v", d.seen)
	}
	if indexOf(d.seen[ask+1:], AwaitingApproval) >= 0 || indexOf(d.seen[ask+1:], RunningTool) < 0 {
		t.Errorf("states after the approval: %v", d.seen)
	}
	if b := string(srv.Requests()[1].Body); !strings.Contains(b, "printed-before-kill") || !strings.Contains(b, "finished") || strings.Contains(b, "in_progress") {
		t.Errorf("the round's request: %s", b)
	}
}

func indexOf(ss []State, s State) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// statusLine is the status line of a view: above the key hint.
func statusLine(v string) string {
	lines := strings.Split(strings.TrimRight(v, "\n"), "\n")
	return lines[len(lines)-2]
}

// roundSaved reports whether the newest session's last turn records an
// input holding text (a tool round's running output).
func roundSaved(t *testing.T, db *store.DB, text string) bool {
	id, err := db.Latest()
	if err != nil {
		return false
	}
	s, _, err := db.Load(id)
	if err != nil || len(s.Turns) == 0 {
		return false
	}
	for _, in := range s.Turns[len(s.Turns)-1].Input {
		if strings.Contains(string(in), text) && strings.Contains(string(in), session.OutputStatusRunning) {
			return true
		}
	}
	return false
}

// TestResumeAsksPendingApprovalAgain: a session whose tool round was killed
// with the approval prompt open shows the prompt again when resumed, and
// approving sends the call's output chained to the response that made it.
func TestResumeAsksPendingApprovalAgain(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	db := tempDB(t)
	// the first run: the call arrives and its round starts, then the process dies
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	t1 := c.Say("run it")
	l := j.Begin(t1)
	var acc stream.Accumulator
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...)})
	for b := range stream.Start(t.Context(), &stream.Client{BaseURL: srv.URL}, t1.Request).Chan() {
		for i := range b.Events {
			acc.Apply(&b.Events[i])
		}
	}
	acc.Finish()
	c.Finish(t1, acc.Responses(), nil, false)
	l.End(time.Now(), t1)
	j.BeginRound("resp_call")
	j.Close()

	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	tl := &Tools{Config: tools.Config{Functions: []tools.Function{{Name: "slow_tool", Approval: tools.ApproveAlways, Command: []string{"echo", "ran"}}}}, Enabled: map[string]bool{"slow_tool": true}}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_after", "all done")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, DB: db, Resume: s})
	d := newDriver(t, m)
	d.run(m.Init())
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	if v := plain(m); !strings.Contains(v, "Allow this tool call?") || !strings.Contains(v, "slow_tool") {
		t.Errorf("no prompt after the resume:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the answer", func() bool { return len(srv.Requests()) == 2 && m.turns.cur == nil && m.statusBar.status.State == Idle })
	r := srv.Requests()[1]
	if b := string(r.Body); r.PreviousResponseID() != "resp_call" || !strings.Contains(b, `"function_call_output"`) || !strings.Contains(b, `ran\n`) {
		t.Errorf("request after approving (prev %q): %s", r.PreviousResponseID(), b)
	}
}

// TestErrorEventGivesOneNotice: a stream with an `error` event says the
// response failed, once, and not also that the stream ended early: as
// recorded (error, then response.failed) and cut after the error event.
func TestErrorEventGivesOneNotice(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sharedtest.Real(t, "vercel__ai/openai-error-insufficient-quota.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var upToError []byte
	for _, ev := range streamtest.SplitEvents(data) {
		upToError = append(upToError, ev...)
		if strings.Contains(string(ev), `"type":"error"`) {
			break
		}
	}
	for name, sse := range map[string][]byte{"recorded": data, "cut after the error": upToError} {
		srv := streamtest.New(t)
		srv.Enqueue(streamtest.Reply{SSE: sse})
		m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
		m.Init()
		m.Update(SubmitMsg{Text: "hello"})
		pump(t, m, nil)
		v := plain(m)
		if n := strings.Count(v, "the response failed"); n != 1 || strings.Contains(v, "ended before") || strings.Contains(v, "stream broken") {
			t.Errorf("%s: %d failure notices:\n%s", name, n, v)
		}
		if !strings.Contains(v, "insufficient_quota") {
			t.Errorf("%s: the notice does not say why:\n%s", name, v)
		}
	}
}

// TestMissingToolOutputIsRepaired: a server answering 400 "No tool output
// found for function call X" gets the request again with an output for X,
// and the chat goes on without an error.
func TestMissingToolOutputIsRepaired(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{Status: 400, Body: []byte(`{"error":{"message":"No tool output found for function call call_lost.","type":"invalid_request_error","param":"input","code":null}}`)},
		streamtest.Reply{SSE: streamtest.Text("resp_ok", "back on track")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	v := plain(m)
	if !strings.Contains(v, "back on track") || strings.Contains(v, "400") {
		t.Errorf("screen:\n%s", v)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"call_id":"call_lost"`) || !strings.Contains(string(reqs[1].Body), session.InterruptedOutput) {
		t.Fatalf("%d requests; last %s", len(reqs), reqs[len(reqs)-1].Body)
	}
}

// TestNewConversationAbandonsToolRound: /new with a tool's approval prompt
// open ends the round for good: the old session's record of it ends, and
// nothing of it (no output, no late request) reaches the new conversation.
func TestNewConversationAbandonsToolRound(t *testing.T) {
	t.Parallel()
	tl, _ := blockingTool(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(slowCallEvents("resp_call")...)},
		streamtest.Reply{SSE: streamtest.Text("resp_new", "fresh start")})
	db := tempDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, DB: db})
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "run the slow tool"})
	d.until("the approval prompt", func() bool { return m.dialog != nil })
	// the session row is written on the journal's goroutine
	waitUntil(t, "the session's id", func() bool { return m.history.journal.ID() != "" })
	old := m.history.journal.ID()
	d.send(SlashMsg{Name: "new"}) // through Update: the children's reports are routed
	if m.dialog != nil || m.tools.busy() || m.statusBar.status.State != Idle {
		t.Fatalf("after /new: dialog %v, round running %v, state %v", m.dialog != nil, m.tools.busy(), m.statusBar.status.State)
	}
	d.send(SubmitMsg{Text: "hello"})
	d.until("the new answer", func() bool { return m.turns.cur == nil && len(srv.Requests()) == 2 && m.statusBar.status.State == Idle })
	r := srv.Requests()[1]
	if b := string(r.Body); r.PreviousResponseID() != "" || strings.Contains(b, "function_call_output") || strings.Contains(b, "call_1") {
		t.Errorf("the new conversation's request: %s", b)
	}
	// the old journal closes on its own goroutine: poll the file
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, _, err := db.Load(old)
		if err == nil && len(s.Turns) == 2 && s.Turns[1].Status == store.StatusStopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the old round's record did not end: %+v (%v)", s, err)
		}
		time.Sleep(20 * time.Millisecond) // polling the file, not timing an assertion
	}
}

// waitUntil polls cond (a deadline only guards against a hang).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond) // polling another goroutine's write, not timing an assertion
	}
}
