package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
)

// turnOf runs one turn through n: it starts at notifyT0, streams, and ends (or
// waits) as end after d; it returns what the end sent.
func turnOf(n *notifier, start time.Time, d time.Duration, end session.Phase) []tea.Msg {
	n.observe(session.PhaseWaiting, start)
	n.observe(session.PhaseStreaming, start.Add(time.Second))
	return run(n.observe(end, start.Add(d)))
}

var notifyT0 = time.Unix(1_700_000_000, 0)

// TestNotifyLongTurnWhileAway: a turn of 12 s that ends while the terminal
// has lost focus sends OSC 9 with a short title, never the answer; one that
// ends while focused, or a short one, sends nothing.
func TestNotifyLongTurnWhileAway(t *testing.T) {
	t.Parallel()
	n := newNotifier(Notify{Via: "osc9"})
	if got := turnOf(&n, notifyT0, 12*time.Second, session.PhaseIdle); len(got) != 0 {
		t.Errorf("a turn that ended while focused notified: %#v", got)
	}
	n.Update(tea.BlurMsg{})
	got := turnOf(&n, notifyT0, 12*time.Second, session.PhaseIdle)
	if len(got) != 1 || got[0] != (tea.RawMsg{Msg: "\x1b]9;runnel: answer ready (12s)\x07"}) {
		t.Errorf("a long turn while away sent %#v", got)
	}
	if got := turnOf(&n, notifyT0, 9*time.Second, session.PhaseIdle); len(got) != 0 {
		t.Errorf("a turn under 10s notified: %#v", got)
	}
	n.Update(tea.FocusMsg{})
	if got := turnOf(&n, notifyT0, time.Minute, session.PhaseIdle); len(got) != 0 {
		t.Errorf("a turn that ended after focus came back notified: %#v", got)
	}
}

// TestNotifyApprovalAndFailure: waiting for an approval and a failed turn
// say so; the time counts from the turn's start.
func TestNotifyApprovalAndFailure(t *testing.T) {
	t.Parallel()
	n := newNotifier(Notify{Mode: "on", Via: "osc777", After: 5 * time.Second})
	got := turnOf(&n, notifyT0, 75*time.Second, session.PhaseApproval)
	if len(got) != 1 || got[0] != (tea.RawMsg{Msg: "\x1b]777;notify;runnel;waiting for approval (1m15s)\x07"}) {
		t.Errorf("an approval wait sent %#v", got)
	}
	n.observe(session.PhaseTools, notifyT0.Add(80*time.Second))
	n.Update(turnEndMsg{failed: true})
	got = run(n.observe(session.PhaseIdle, notifyT0.Add(90*time.Second)))
	if len(got) != 1 || got[0] != (tea.RawMsg{Msg: "\x1b]777;notify;runnel;turn failed (1m30s)\x07"}) {
		t.Errorf("the failed end of the same turn sent %#v", got)
	}
	if got := turnOf(&n, notifyT0, 6*time.Second, session.PhaseIdle); len(got) != 1 || !strings.Contains(got[0].(tea.RawMsg).Msg.(string), "answer ready") {
		t.Errorf("the next turn, which did not fail, sent %#v", got)
	}
}

// TestNotifyOffAndBell: "off" never notifies; a terminal with neither OSC
// gets a bell.
func TestNotifyOffAndBell(t *testing.T) {
	t.Parallel()
	off := newNotifier(Notify{Mode: "off", Via: "osc9"})
	off.Update(tea.BlurMsg{})
	if got := turnOf(&off, notifyT0, time.Hour, session.PhaseIdle); len(got) != 0 {
		t.Errorf("notify off sent %#v", got)
	}
	bell := newNotifier(Notify{Mode: "on", Via: "bell"})
	if got := turnOf(&bell, notifyT0, time.Hour, session.PhaseIdle); len(got) != 1 || got[0] != (tea.RawMsg{Msg: "\a"}) {
		t.Errorf("the bell variant sent %#v", got)
	}
	if def := newNotifier(Notify{}); !def.reportsFocus() || off.reportsFocus() {
		t.Error("focus reports are asked for only in focus mode")
	}
}

// TestNotifyVia: the terminal's way is picked from its environment.
func TestNotifyVia(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, "osc9"},
		{map[string]string{"TERM_PROGRAM": "WezTerm"}, "osc9"},
		{map[string]string{"TERM": "xterm-kitty"}, "osc9"},
		{map[string]string{"TERM": "xterm-ghostty"}, "osc9"},
		{map[string]string{"TERM": "foot"}, "osc777"},
		{map[string]string{"TERM": "rxvt-unicode-256color"}, "osc777"},
		{map[string]string{"TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/tmux-0/default,1,0"}, "bell"},
		{map[string]string{"TERM": "xterm-256color", "WT_SESSION": "x"}, "bell"},
		{map[string]string{"TERM": "xterm-256color"}, "bell"},
	}
	for _, c := range cases {
		if got := NotifyVia(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("NotifyVia(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestNotifyCommandHelper is the notify_command the next test runs: it
// writes its arguments, one a line, where RUNNEL_NOTIFY_OUT says.
func TestNotifyCommandHelper(t *testing.T) {
	t.Parallel()
	out := os.Getenv("RUNNEL_NOTIFY_OUT")
	if out == "" {
		t.Skip("run by TestNotifyCommandNoShell")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	if err := os.WriteFile(out, []byte(strings.Join(args, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestNotifyCommandNoShell: notify_command runs with the title as its last
// argument, whole, cleaned, through no shell.
func TestNotifyCommandNoShell(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	t.Setenv("RUNNEL_NOTIFY_OUT", out)
	n := newNotifier(Notify{Mode: "on", Command: []string{os.Args[0], "-test.run=^TestNotifyCommandHelper$", "--", "first arg"}})
	title := "runnel: $(touch " + filepath.Join(dir, "pwned") + "); `id` \x1b]0;x\x07\u202eok"
	if got := run(n.send(title)); len(got) != 1 || got[0] != nil {
		t.Fatalf("the command reported %#v", got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "first arg\nrunnel: $(touch " + filepath.Join(dir, "pwned") + "); `id` ok"
	if string(b) != want {
		t.Errorf("the command got %q, want %q", b, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("a shell ran the title")
	}
	bad := newNotifier(Notify{Mode: "on", Command: []string{filepath.Join(dir, "no-such-program")}})
	got := run(bad.send("runnel: answer ready (12s)"))
	if len(got) != 1 || !got[0].(NoticeMsg).Err || !strings.Contains(got[0].(NoticeMsg).Text, "notify_command") {
		t.Errorf("a command that cannot run reported %#v", got)
	}
}

// TestNotifyKnowsAFailedTurn: the chat tells the notifier how each turn
// ended: a stream the server failed is a failed turn, a good one is not.
func TestNotifyKnowsAFailedTurn(t *testing.T) {
	t.Parallel()
	for fixture, failed := range map[string]bool{
		"vercel__ai/openai-error-insufficient-quota.sse":             true,
		"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse": false,
	} {
		m := replayFile(t, fixture)
		pump(t, m, nil)
		if m.notify.failed != failed || m.notify.state != session.PhaseIdle || !m.notify.since.IsZero() {
			t.Errorf("%s: notifier failed=%v state=%v since=%v, want failed=%v, idle", fixture, m.notify.failed, m.notify.state, m.notify.since, failed)
		}
	}
}

// notify_command runs in the one child environment: the secret variables
// it is told to hide are not in it, the rest are.
func TestNotifyCommandEnvHidesSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai-0123456789")
	t.Setenv("RUNNEL_TEST_MCP_TOKEN", "mcp-token-0123456789")
	t.Setenv("RUNNEL_TEST_PLAIN", "plain")
	out := filepath.Join(t.TempDir(), "env.txt")
	cmd := runNotifyCommand([]string{"sh", "-c", "env > " + out}, "runnel: done", []string{"OPENAI_API_KEY", "RUNNEL_TEST_MCP_TOKEN"})
	if msg := cmd(); msg != nil {
		t.Fatalf("notify: %v", msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := string(data)
	if strings.Contains(env, "OPENAI_API_KEY=") || strings.Contains(env, "RUNNEL_TEST_MCP_TOKEN=") || !strings.Contains(env, "RUNNEL_TEST_PLAIN=plain") {
		t.Errorf("notify_command's environment:\n%s", env)
	}
}
