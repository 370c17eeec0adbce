package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// queueChat is a chat whose first prompt streams (not pumped yet), from a
// stateful fake server answering replies in order.
func queueChat(t *testing.T, replies ...streamtest.Reply) (*Model, *streamtest.Server) {
	t.Helper()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	for _, r := range replies {
		srv.Enqueue(r)
	}
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}})
	t.Cleanup(m.shutdown)
	m.Update(SubmitMsg{Text: "first"})
	return m, srv
}

// sentPrompts is the user text of each request the server got, in order.
func sentPrompts(srv *streamtest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		if !strings.Contains(string(r.Body), `"input_text"`) && !strings.Contains(string(r.Body), `"role":"user"`) {
			continue
		}
		// each request's own message is its last: one sent after a
		// stopped turn also carries that turn's prompt before it
		last, at := "", -1
		for _, p := range []string{"first", "second", "third", "urgent"} {
			if i := strings.LastIndex(string(r.Body), `"`+p+`"`); i > at {
				last, at = p, i
			}
		}
		if last != "" {
			out = append(out, last)
		}
	}
	return out
}

// TestQueueSendsAfterTheTurn: messages sent while a reply streams are
// queued, shown under the composer, and go out after response.completed,
// once each, in order, each chained to the answer before it.
func TestQueueSendsAfterTheTurn(t *testing.T) {
	t.Parallel()
	m, srv := queueChat(t,
		streamtest.Reply{SSE: streamtest.Text("resp_1", "one")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "two")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "three")})
	m.Update(SubmitMsg{Text: "second"})
	m.Update(SubmitMsg{Text: "third"})
	if v := plain(m); m.queue.len() != 2 || !strings.Contains(v, "⏸ queued: second") || !strings.Contains(v, "⏸ queued: third") {
		t.Fatalf("queued %d:\n%s", m.queue.len(), v)
	}
	if n := len(srv.Requests()); n > 1 {
		t.Fatalf("%d requests while the first streams", n)
	}
	pump(t, m, nil)
	reqs := srv.Requests()
	if got := strings.Join(sentPrompts(srv), ","); got != "first,second,third" || len(reqs) != 3 {
		t.Fatalf("sent %q in %d requests; want first,second,third once each", got, len(reqs))
	}
	if reqs[1].PreviousResponseID() != "resp_1" || reqs[2].PreviousResponseID() != "resp_2" {
		t.Errorf("chained to %q and %q: a queued message went before its turn completed", reqs[1].PreviousResponseID(), reqs[2].PreviousResponseID())
	}
	if v := plain(m); m.queue.len() != 0 || strings.Contains(v, "queued") || !strings.Contains(v, "three") {
		t.Errorf("after the queue:\n%s", v)
	}
}

// TestQueueEscTakesItBack: esc (or ↑) on an empty composer takes the last
// queued message back into the composer, without stopping the reply; it
// is never sent.
func TestQueueEscTakesItBack(t *testing.T) {
	t.Parallel()
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEscape}, {Code: tea.KeyUp}} {
		m, srv := queueChat(t, streamtest.Reply{SSE: streamtest.Text("resp_1", "one")})
		m.Update(SubmitMsg{Text: "second"})
		m.Update(k)
		if m.queue.len() != 0 || m.composer.Value() != "second" || m.turns.cur == nil || m.turns.cur.stopped {
			t.Fatalf("%s: queued %d, composer %q, stopped %v", k, m.queue.len(), m.composer.Value(), m.turns.cur == nil || m.turns.cur.stopped)
		}
		pump(t, m, nil)
		if n := len(srv.Requests()); n != 1 || m.composer.Value() != "second" {
			t.Errorf("%s: %d requests, composer %q; want the message kept, unsent", k, n, m.composer.Value())
		}
	}
}

// TestQueueKeptWhenTheTurnFails: a turn that fails sends nothing queued:
// the message comes back into the composer, with a notice that says so.
func TestQueueKeptWhenTheTurnFails(t *testing.T) {
	t.Parallel()
	m, srv := queueChat(t, streamtest.ModelNotFound("m"))
	m.Update(SubmitMsg{Text: "second"})
	pump(t, m, nil)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the queued message went out after a failure", n)
	}
	if v := plain(m); m.composer.Value() != "second" || m.queue.len() != 0 || !strings.Contains(v, "back in the composer") {
		t.Errorf("composer %q, queued %d:\n%s", m.composer.Value(), m.queue.len(), v)
	}
}

// TestQueueSendNow: ctrl+enter stops the reply and sends the composer at
// once, ahead of what was queued, which follows after.
func TestQueueSendNow(t *testing.T) {
	t.Parallel()
	m, srv := queueChat(t,
		streamtest.Reply{SSE: streamtest.Text("resp_1", "one")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "two")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "three")})
	m.Update(SubmitMsg{Text: "second"})
	m.composer.SetValue("urgent")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModCtrl})
	if m.turns.cur == nil || !m.turns.cur.stopped {
		t.Fatal("ctrl+enter did not stop the reply")
	}
	for _, msg := range run(cmd) {
		if _, ok := msg.(SubmitMsg); ok {
			m.Update(msg)
		}
	}
	pump(t, m, nil)
	// the stop may cancel "first" before the server sees it (then the
	// urgent request carries it): either way urgent goes next, then second
	if got := strings.TrimPrefix(strings.Join(sentPrompts(srv), ","), "first,"); got != "urgent,second" {
		t.Errorf("sent %q; want [first,]urgent,second", strings.Join(sentPrompts(srv), ","))
	}
}
