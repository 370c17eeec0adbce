package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestRenderFallbackIsSaidOnce: an answer that nests brackets too deep to
// parse in time is drawn as plain text, and the chat says so in one line,
// once, however many answers fall back.
func TestRenderFallbackIsSaidOnce(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 200) + "x" + strings.Repeat("]", 200)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first ", deep)}, streamtest.Reply{SSE: streamtest.Text("resp_2", "again ", deep)})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	for _, q := range []string{"one", "two"} {
		m.Update(SubmitMsg{Text: q})
		pump(t, m, func() { plain(m) }) // each frame drawn, as the program does
		m.Update(frameMsg{gen: m.turns.gen})
		plain(m)
		m.Update(frameMsg{gen: m.turns.gen})
	}
	s := plain(m)
	if n := strings.Count(s, "nests brackets more than 32 deep"); n != 1 {
		t.Errorf("the fallback is said %d times, want once:\n%s", n, s)
	}
	if !strings.Contains(strings.Join(strings.Fields(s), ""), strings.Repeat("[", 150)+"x"+strings.Repeat("]", 150)) {
		t.Errorf("the text is not kept whole:\n%s", s)
	}
}
