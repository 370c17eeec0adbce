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
	d.until("the answer", func() bool { return m.cur == nil && m.status.State == Idle })
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
