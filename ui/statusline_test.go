package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestStatusShowsReportedModel: the status line names the model the server
// reports in response.model, not the configured alias, with the effort.
func TestStatusShowsReportedModel(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_m","model":"gpt-5-2025-08-07","status":"in_progress","output":[]}}`,
		`{"type":"response.completed","response":{"id":"resp_m","model":"gpt-5-2025-08-07","status":"completed","output":[]}}`,
	)})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "gpt-5", ReasoningEffort: "high"}})
	if v := plain(m); !strings.Contains(v, "gpt-5 · high") {
		t.Errorf("before any answer the configured model and effort show:\n%s", v)
	}
	d := newDriver(t, m)
	d.send(SubmitMsg{Text: "hi"})
	d.until("the answer", func() bool { return m.cur == nil && m.status.State == Idle })
	if v := plain(m); !strings.Contains(v, "gpt-5-2025-08-07 · high") {
		t.Errorf("the reported model is not shown:\n%s", v)
	}
}
