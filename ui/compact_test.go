package ui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestCompactCommand: a conversation that overflows gets the one-line
// offer; /compact calls /responses/compact, shows the "context compacted"
// panel with the sizes and the divider under the transcript that stays, and
// the next turn sends the compacted window instead of previous_response_id.
func TestCompactCommand(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ContextWindow: 300})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_long", "the first answer, "+strings.Repeat("and more ", 100))})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	m.Update(SubmitMsg{Text: "tell me everything"})
	pump(t, m, nil)
	m.Update(SubmitMsg{Text: "and then?"})
	pump(t, m, nil)
	v := plain(m)
	if n := strings.Count(v, "no longer fits the model's context window — /compact shrinks it"); n != 1 {
		t.Fatalf("%d offers of /compact:\n%s", n, v)
	}

	cmd := slashSent(m, "compact", "")
	if m.turns.compacting == nil || m.statusBar.status.Detail != "compacting" {
		t.Error("the status does not say it is compacting")
	}
	m.Update(SubmitMsg{Text: "too early"})
	if !strings.Contains(plain(m), "compacting the context — send again") {
		t.Error("a prompt sent while compacting was not held back")
	}
	runCmd(m, cmd)
	v = plain(m)
	for _, want := range []string{"≡ context compacted", " → ", "tokens", "── the model's context starts here"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	creq := srv.Requests()[2]
	if creq.Path != "/v1/responses/compact" || creq.PreviousResponseID() != "resp_long" {
		t.Fatalf("compact request %s %s", creq.Path, creq.Body)
	}
	if got := m.items.transcript.Len(); got < 6 {
		t.Errorf("the transcript lost entries: %d", got)
	}

	m.Update(SubmitMsg{Text: "and then?"})
	pump(t, m, nil)
	next := srv.Requests()[3]
	var body struct {
		Input []map[string]any `json:"input"`
	}
	_ = json.Unmarshal(next.Body, &body)
	if next.PreviousResponseID() != "" || len(body.Input) < 2 || body.Input[len(body.Input)-2]["type"] != "compaction" {
		t.Errorf("turn after /compact: %s", next.Body)
	}
	if v := plain(m); !strings.Contains(v, "Answer") {
		t.Errorf("no answer after compaction:\n%s", v)
	}

	// shown again (a resumed session): the turn that sent the window is
	// marked with the panel and the divider, once
	m.redraw()
	v = plain(m)
	if strings.Count(v, "context compacted") != 1 || strings.Count(v, "the model's context starts here") != 1 {
		t.Errorf("redrawn:\n%s", v)
	}
}

// TestCompactUnsupportedServer: a server without /responses/compact gives
// one line, and the session goes on from its chain.
func TestCompactUnsupportedServer(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "one")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "two")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	cmd := slashSent(m, "compact", "")
	runCmd(m, cmd)
	v := plain(m)
	if n := strings.Count(v, "this server has no /responses/compact"); n != 1 || strings.Contains(v, "context compacted") {
		t.Fatalf("screen:\n%s", v)
	}
	m.Update(SubmitMsg{Text: "again"})
	pump(t, m, nil)
	if r := srv.Requests(); len(r) != 3 || r[2].PreviousResponseID() != "resp_1" || !strings.Contains(plain(m), "two") {
		t.Errorf("the session did not go on: %d requests", len(r))
	}
}

// TestContextFullInStream: a response that fails with
// context_length_exceeded gives the same one-line offer.
func TestContextFullInStream(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","sequence_number":0,"response":{"id":"resp_f","status":"in_progress","output":[]}}`,
		`{"type":"response.failed","sequence_number":1,"response":{"id":"resp_f","status":"failed","output":[],"error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}}}`,
	)})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}})
	m.Init()
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	v := plain(m)
	if strings.Count(v, "/compact shrinks it") != 1 || strings.Contains(v, "the response failed") {
		t.Errorf("screen:\n%s", v)
	}
}

// TestEscStopsCompact: esc while /compact waits on the server stops it, in
// one line, and the conversation goes on from its chain.
func TestEscStopsCompact(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); hung.Close() })
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: hung.URL + "/v1", MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	m.turns.conv.Finish(m.turns.conv.Say("hello"), []*stream.Snapshot{{ID: "resp_1", Status: "completed", Terminal: true}}, nil, false) // a chain to compact
	cmd := slashSent(m, "compact", "")
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	select {
	case msg := <-done:
		m.Update(msg)
	case <-time.After(10 * time.Second):
		t.Fatal("esc did not stop the compact call")
	}
	v := plain(m)
	if strings.Count(v, "compaction stopped — the conversation goes on as before") != 1 || m.turns.compacting != nil || strings.Contains(v, "context compacted") {
		t.Errorf("screen:\n%s", v)
	}
}
