package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestStatusShowsReportedModel: the status line names the model the server
// reports in response.model, not the configured alias, with the effort it
// reports (here the server's default: none was configured).
func TestStatusShowsReportedModel(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_m","model":"gpt-5-2025-08-07","reasoning":{"effort":"medium","summary":null},"status":"in_progress","output":[]}}`,
		`{"type":"response.completed","response":{"id":"resp_m","model":"gpt-5-2025-08-07","status":"completed","output":[]}}`,
	)})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "gpt-5"}})
	if v := plain(m); !strings.HasSuffix(statusRow(v), " gpt-5") {
		t.Errorf("before any answer the configured model shows, and no effort:\n%s", v)
	}
	d := newDriver(t, m)
	d.send(SubmitMsg{Text: "hi"})
	d.until("the answer", func() bool { return m.turns.cur == nil && m.statusBar.status.State == Idle })
	if v := plain(m); !strings.Contains(v, "gpt-5-2025-08-07 · medium") {
		t.Errorf("the reported model is not shown:\n%s", v)
	}
}

// statusRow is the status line of a plain screen.
func statusRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "● ") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestResumeSumKeepsReasoning: after a resume the Σ counter still counts the
// reasoning tokens of the stored turns.
func TestResumeSumKeepsReasoning(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	usage := `"usage":{"input_tokens":100,"output_tokens":50,"total_tokens":150,"output_tokens_details":{"reasoning_tokens":30}}`
	for _, id := range []string{"resp_1", "resp_2"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
			`{"type":"response.created","response":{"id":"`+id+`","status":"in_progress","output":[]}}`,
			`{"type":"response.completed","response":{"id":"`+id+`","status":"completed","output":[],`+usage+`}}`,
		)})
	}
	db := tempDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db})
	d := newDriver(t, m)
	d.run(m.Init())
	for _, p := range []string{"one", "two"} {
		d.send(SubmitMsg{Text: p})
		d.until("the answer", func() bool { return m.turns.cur == nil && m.statusBar.status.State == Idle })
	}
	before := statusRow(plain(m))
	j := m.history.journal
	m.shutdown() // the journal's writes land first, the session row among them
	id := j.ID()
	s, _, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	m = newTestModel(t, Options{DB: db, Resume: s})
	m.Init()
	after := statusRow(plain(m))
	if !strings.Contains(before, "Σ ↑200 ↓100 (60 reasoning)") || !strings.Contains(after, "Σ ↑200 ↓100 (60 reasoning)") {
		t.Errorf("Σ before the resume %q, after %q; want the reasoning tokens in both", before, after)
	}
}
