package ui

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// newTestModel is a chat model at 100x30 with no terminal.
func newTestModel(t testing.TB, o Options) *Model {
	o.WindowWidth = 100
	m := New(context.Background(), o)
	m.frame.clip = &clipboard{} // outside tmux, whatever terminal runs the tests (TestCopyInsideTmux injects tmux's answers)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// pump delivers the current turn's batches one by one, with a frame after
// each (20ms apart), until the turn ends. step is called after every frame.
func pump(t testing.TB, m *Model, step func()) {
	now := time.Unix(1_700_000_000, 0)
	pumpFrames(t, m, func() time.Time { now = now.Add(20 * time.Millisecond); return now }, step)
}

// pumpFrames delivers the current turn's batches one by one, each followed
// by a frame at clock(), until the turn ends. step, when not nil, is called
// after every frame.
func pumpFrames(t testing.TB, m *Model, clock func() time.Time, step func()) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for m.turns.cur != nil {
		var msg batchMsg
		select {
		case b, ok := <-m.turns.cur.handle.Chan():
			if !ok {
				b = stream.Batch{Final: true}
			}
			msg = batchMsg{gen: m.turns.cur.gen, batch: b}
		case <-deadline:
			t.Fatal("turn did not end")
		}
		m.Update(msg)
		m.Update(frameMsg{gen: m.turns.gen, now: clock()})
		if step != nil {
			step()
		}
	}
}

func plain(m *Model) string { return ansi.Strip(m.View().Content) }

func replayFile(t testing.TB, rel string) *Model {
	f, err := os.Open(sharedtest.Real(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	m := newTestModel(t, Options{Replay: f})
	m.Init()
	return m
}

func TestModelViewFitsTheScreen(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/openai-web-search-6-calls.sse")
	pump(t, m, func() {
		lines := strings.Split(plain(m), "\n")
		if len(lines) != 30 {
			t.Fatalf("view has %d lines, want 30", len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 100 {
				t.Fatalf("line %d wide: %q", w, l)
			}
		}
	})
	if !strings.Contains(plain(m), "ready") {
		t.Errorf("status not idle after the replay:\n%s", plain(m))
	}
}

// TestModelReasoningCollapseExpand: reasoning is one header line until
// ctrl+r opens the last one; alt+r toggles them all.
func TestModelReasoningCollapseExpand(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse")
	pump(t, m, nil)
	if len(m.items.reasoning) != 1 {
		t.Fatalf("%d reasoning blocks", len(m.items.reasoning))
	}
	words := strings.Fields(m.items.reasoning[0].it.Summary[1].Text)
	phrase := words[len(words)-4] + " " + words[len(words)-3] // plain words near the end
	m.Update(press("home"))
	collapsed := plain(m)
	if strings.Contains(collapsed, phrase) {
		t.Fatalf("collapsed reasoning shows its body")
	}
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	m.Update(press("home"))
	if expanded := plain(m); !strings.Contains(strings.Join(strings.Fields(expanded), " "), phrase) {
		t.Errorf("expanded reasoning lacks %q:\n%s", phrase, expanded)
	}
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModAlt})
	m.Update(press("home"))
	if strings.Contains(plain(m), phrase) {
		t.Errorf("alt+r should collapse all again")
	}
}

// TestModelReasoningTitleInStatus: while a summary streams, the status line
// shows the current part's bold title, as codex does.
func TestModelReasoningTitleInStatus(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(sharedtest.Real(t, "vercel__ai/openai-reasoning-12-summary-parts.sse"))
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	m := newTestModel(t, Options{Replay: pr})
	m.Init()
	titles := map[string]bool{}
	next := make(chan struct{})
	go func() { // one event per frame: the next is written after the last was drawn
		for i, ev := range streamtest.SplitEvents(data) {
			if i > 0 {
				<-next
			}
			pw.Write(append(append([]byte{}, ev...), '\n', '\n')) // SplitEvents' slices share one array
		}
		pw.Close()
		for range next {
		}
	}()
	pump(t, m, func() {
		if m.statusBar.status.Detail != "" {
			titles[m.statusBar.status.Detail] = true
		}
		select {
		case next <- struct{}{}:
		case <-time.After(5 * time.Second): // only if the writer is gone
		}
	})
	close(next)
	if len(titles) < 6 {
		t.Errorf("status showed %d reasoning titles, want one per summary part: %v", len(titles), titles)
	}
	for ti := range titles {
		if strings.Contains(ti, "**") {
			t.Errorf("title keeps its markdown: %q", ti)
		}
	}
}

func TestModelApprovalPendingInReplay(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/openai-mcp-approval-request.sse")
	pump(t, m, nil)
	if len(m.approvals.pending) != 1 || m.statusBar.status.State != AwaitingApproval {
		t.Fatalf("pending %d state %v", len(m.approvals.pending), m.statusBar.status.State)
	}
	if m.dialog == nil {
		t.Fatal("the approval dialog did not open")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	if cmd == nil {
		t.Fatal("y in the approval dialog decided nothing")
	}
	m.Update(cmd())
	if !strings.Contains(plain(m), "replay") {
		t.Errorf("approving in a replay should say there is no server:\n%s", plain(m))
	}
}

// slashSent runs /name args as the composer sends it, through Update.
func slashSent(m *Model, name, args string) tea.Cmd {
	_, cmd := m.Update(SlashMsg{Name: name, Args: args})
	return cmd
}
