package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
)

// statusChat is a chat with a chosen status line and the command's
// timeout cut short.
func statusChat(t *testing.T, sl StatusLine, timeout time.Duration) *Model {
	t.Helper()
	m := newTestModel(t, Options{StatusLine: sl, Settings: session.Settings{Model: "gpt-5"}})
	m.statusBar.src.timeout = timeout
	return m
}

// TestStatusCommandHangsAndIsCut: a status command that never ends is run
// off the update loop (Update hands back a tea.Cmd and has not started it),
// is killed at its timeout, and the line says so in one clean line; the
// chat's keys keep working meanwhile.
func TestStatusCommandHangsAndIsCut(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	m := statusChat(t, StatusLine{Command: []string{"sleep", "30"}}, 150*time.Millisecond)
	cmd := m.Init()
	if cmd == nil || !m.statusBar.src.running {
		t.Fatal("no refresh started at Init")
	}
	// the chat answers while it runs: keys reach the composer, a second refresh waits
	m.Update(turnEndMsg{})
	for _, r := range "still here" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if !strings.Contains(plain(m), "still here") || !m.statusBar.src.pending {
		t.Fatalf("the chat did not go on while the command ran:\n%s", plain(m))
	}
	msg := m.statusBar.refreshSourceFor(t)
	start := time.Now()
	out := msg()
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the hung command ran %v", took)
	}
	m.Update(out)
	row := statusRow(plain(m))
	if !strings.Contains(row, "status command: timed out after 150ms") {
		t.Errorf("status line: %q", row)
	}
}

// TestStatusCommandOutputCleaned: escape sequences, a title change, more
// lines and a very long line come out as the first line alone, clean and
// bounded.
func TestStatusCommandOutputCleaned(t *testing.T) {
	if _, err := exec.LookPath("printf"); err != nil {
		t.Skip("no printf")
	}
	long := strings.Repeat("x", 5000)
	m := statusChat(t, StatusLine{Items: []string{"cost", "model"}, Command: []string{"printf", "%s", "\n\x1b]0;pwned\x07\x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07ok\x1b[2J " + long + "\nsecond line\n"}}, 5*time.Second)
	m.Init()
	m.Update(m.statusBar.refreshSourceFor(t)())
	v := m.View().Content
	if strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[31m") || strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\a") {
		t.Errorf("escape sequences reached the screen: %q", v)
	}
	row := statusRow(ansi.Strip(v))
	if !strings.Contains(row, "red ok xxx") || strings.Contains(row, "second") || strings.Contains(row, "pwned") {
		t.Errorf("status line: %q", row)
	}
	if c := m.statusBar.status.Command; len([]rune(c)) > statusCommandRunes {
		t.Errorf("the command's line is %d runes", len([]rune(c)))
	}
	if !strings.Contains(row, "gpt-5") {
		t.Errorf("the chosen items are gone: %q", row)
	}
}

// TestStatusCommandRefreshes: a result schedules one tick a second later;
// an old tick is ignored; a turn's end refreshes at once.
func TestStatusCommandRefreshes(t *testing.T) {
	m := statusChat(t, StatusLine{Command: []string{"true"}}, time.Second)
	m.statusBar.src.running = true
	if cmd := m.statusBar.sourceUpdate(statusLineMsg{out: "one"}, m.frame.ctx, m.frame.clock()); cmd == nil {
		t.Fatal("no tick after a result")
	}
	if m.statusBar.src.running || m.statusBar.status.Command != "one" {
		t.Fatal("the result was not taken")
	}
	if cmd := m.statusBar.sourceUpdate(statusTickMsg{seq: m.statusBar.src.tickSeq - 1}, m.frame.ctx, m.frame.clock()); cmd != nil || m.statusBar.src.running {
		t.Error("an old tick started a refresh")
	}
	if cmd := m.statusBar.sourceUpdate(statusTickMsg{seq: m.statusBar.src.tickSeq}, m.frame.ctx, m.frame.clock()); cmd == nil || !m.statusBar.src.running {
		t.Error("the tick started no refresh")
	}
	m.statusBar.src.running = false
	if cmd := m.statusBar.sourceUpdate(turnEndMsg{}, m.frame.ctx, m.frame.clock()); cmd == nil {
		t.Error("a turn's end started no refresh")
	}
}

// TestStatusItemsChosen: the chosen items show in their order, and the
// git branch comes from .git/HEAD (here a worktree's .git file).
func TestStatusItemsChosen(t *testing.T) {
	dir := t.TempDir()
	gd := filepath.Join(dir, "gitdir")
	os.MkdirAll(gd, 0o755)
	os.WriteFile(filepath.Join(gd, "HEAD"), []byte("ref: refs/heads/feature/x\x1b[31m\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: gitdir\n"), 0o644)
	sub := filepath.Join(dir, "a", "b")
	os.MkdirAll(sub, 0o755)
	if b := gitBranch(sub); b != "feature/x" {
		t.Errorf("git branch %q", b)
	}
	if b := gitBranch(t.TempDir()); b != "" {
		t.Errorf("outside a repository: %q", b)
	}
	s := Status{Model: "gpt-5", ProviderName: "openai", Meter: Meter{Ctx: "3%", Cost: "$0.01"}, GitBranch: "main", Clock: "12:34",
		Layout: &StatusLayout{Items: []string{"git_branch", "time", "cost", "context", "provider"}}}
	p := ansi.Strip(s.View(100, statusNow, nil))
	if !strings.HasSuffix(strings.TrimSpace(p), "git:main · 12:34 · $0.01 · ctx 3% · @openai") || strings.Contains(p, "gpt-5") {
		t.Errorf("chosen line: %q", p)
	}
}

// refreshSourceFor is the refresh a chat started (it must have one).
func (b *statusBar) refreshSourceFor(t *testing.T) func() any {
	t.Helper()
	b.src.running = false
	cmd := b.refreshSource(t.Context())
	if cmd == nil {
		t.Fatal("no refresh")
	}
	return func() any { return cmd() }
}
