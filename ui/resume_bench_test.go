package ui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/store"
	"runnel/stream"
)

// storeSession writes a session of n turns: a prompt, a reasoning summary, a
// function call and a markdown answer each.
func storeSession(tb testing.TB, path string, n int) store.SessionID {
	db, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	sid, err := db.CreateSession(store.NewSession{Title: "long session", Settings: json.RawMessage(`{"model":"gpt-test","store":true}`)})
	if err != nil {
		tb.Fatal(err)
	}
	answer := strings.Repeat("Some **markdown** with `code` and a [link](https://example.com).\n\n", 6) + "```go\nfunc main() {}\n```\n"
	for i := 0; i < n; i++ {
		prompt := fmt.Sprintf("question number %d about streams", i)
		tid, err := db.BeginTurn(sid, prompt, []json.RawMessage{stream.UserText(prompt)}, "")
		if err != nil {
			tb.Fatal(err)
		}
		msg, _ := json.Marshal(map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", i), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": answer, "annotations": []any{}}}})
		items := []store.ItemWrite{
			{Output: 0, Done: true, Raw: json.RawMessage(`{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":"**Thinking it over**\n\nweighing options"}]}`)},
			{Output: 1, Done: true, Raw: json.RawMessage(`{"type":"function_call","id":"fc","call_id":"c","name":"lookup","arguments":"{\"q\":\"x\"}","status":"completed"}`)},
			{Output: 2, Done: true, Raw: msg},
		}
		if err := db.SaveItems(tid, items); err != nil {
			tb.Fatal(err)
		}
		if err := db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{fmt.Sprintf("resp_%d", i)}}); err != nil {
			tb.Fatal(err)
		}
	}
	return sid
}

// BenchmarkResume1000 measures resuming a 1,000-turn session up to its
// first frame (open the store, load the rows, rebuild the conversation and
// the transcript, draw the screen) against reading the same rows without
// rendering (open + Load), timed in the same run.
func BenchmarkResume1000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "runnel.db")
	sid := storeSession(b, path, 1000)
	var resume, rows time.Duration
	for b.Loop() {
		t0 := time.Now()
		db, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s, _, err := db.Load(sid)
		if err != nil {
			b.Fatal(err)
		}
		m := newTestModel(b, Options{DB: db, Resume: s})
		m.Init()
		frame := m.View().Content
		resume += time.Since(t0)
		if !strings.Contains(frame, "question number 999") && !strings.Contains(frame, "resumed") {
			b.Fatalf("first frame does not show the end of the session:\n%s", frame)
		}
		m.shutdown()
		db.Close()

		t1 := time.Now()
		db, err = store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := db.Load(sid); err != nil {
			b.Fatal(err)
		}
		rows += time.Since(t1)
		db.Close()
	}
	b.ReportMetric(float64(resume)/float64(b.N)/1e6, "ms-to-first-frame")
	b.ReportMetric(float64(rows)/float64(b.N)/1e6, "ms-rows")
	b.ReportMetric(float64(resume)/float64(rows), "x-rows")
}

// TestResumeRedrawsTranscript: a resumed session shows its prompts, panels,
// collapsed reasoning and answers, and the next turn chains from the last
// stored response.
func TestResumeRedrawsTranscript(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "runnel.db")
	sid := storeSession(t, path, 3)
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, _, err := db.Load(sid)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{DB: db, Resume: s})
	m.Init()
	m.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	screen := plain(m)
	for _, want := range []string{"question number 0", "lookup", "Thinking it over", "markdown"} {
		if !strings.Contains(screen, want) {
			t.Errorf("resumed screen lacks %q:\n%s", want, screen)
		}
	}
	if m.turns.conv.ChainID() != "resp_2" || len(m.turns.conv.Turns) != 3 || m.statusBar.status.Model != "gpt-test" {
		t.Errorf("chain %q turns %d model %q", m.turns.conv.ChainID(), len(m.turns.conv.Turns), m.statusBar.status.Model)
	}
	m.shutdown()
}
