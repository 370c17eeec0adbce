package ui

// This file is the notifier: when a long turn ends, fails or waits for an
// approval while the user looks elsewhere, it tells the terminal (OSC 9 or
// OSC 777, a bell otherwise) or runs the configured command.

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
)

// Notify is how the chat tells the user that a long turn needs them.
type Notify struct {
	// Mode is "off", "on" (whatever the focus) or "focus" (only while the
	// terminal reports it lost focus); "" is "focus".
	Mode string
	// After is the least time a turn must have run to notify; 0 is
	// DefaultNotifyAfter.
	After time.Duration
	// Command, when set, is run with the title as its last argument (no
	// shell, no input, output dropped) instead of telling the terminal.
	Command []string
	// Via is how the terminal is told: "osc9", "osc777" or "bell"; ""
	// picks from the environment (NotifyVia).
	Via string
	// Hidden are the variables Command does not see (the config's secret
	// variables): it runs with the one child environment, tools.ChildEnv.
	Hidden []string
}

// DefaultNotifyAfter is how long a turn runs before its end notifies.
const DefaultNotifyAfter = 10 * time.Second

// notifyCommandTimeout bounds a notify_command run.
const notifyCommandTimeout = 10 * time.Second

// NotifyVia picks how the terminal is told from its environment: OSC 9
// where the terminal shows it as a desktop notification (iTerm2, WezTerm,
// ghostty, kitty), OSC 777 where that is the one it knows (foot, urxvt),
// and the bell elsewhere: inside tmux (which drops both OSCs but passes
// the bell on and marks the window), Windows Terminal (its OSC 9 is
// ConEmu's progress and tab commands) and any terminal not named.
func NotifyVia(getenv func(string) string) string {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "" || prog == "tmux" || getenv("WT_SESSION") != "":
		return "bell"
	case prog == "iTerm.app" || prog == "WezTerm" || prog == "ghostty" || term == "xterm-ghostty" ||
		term == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		return "osc9"
	case strings.HasPrefix(term, "foot") || strings.HasPrefix(term, "rxvt"):
		return "osc777"
	}
	return "bell"
}

// notifier watches the turns for the moments that need the user.
//
// Invariants: state is the turn engine's phase as of the last observe;
// since is when the current turn left Idle (zero while idle); failed
// tells that the last turn that ended reported a failure, stopped that the
// user stopped it; ended that a turn has ended since the chat began;
// blurred is true between a BlurMsg and the next FocusMsg.
type notifier struct {
	cfg     Notify
	state   session.Phase
	since   time.Time
	failed  bool
	stopped bool
	ended   bool
	blurred bool
}

// turnEndMsg reports how a turn ended, for the notification's title.
type turnEndMsg struct{ failed, stopped bool }

func newNotifier(n Notify) notifier {
	if n.Mode == "" {
		n.Mode = "focus"
	}
	if n.After <= 0 {
		n.After = DefaultNotifyAfter
	}
	if n.Via == "" {
		n.Via = NotifyVia(os.Getenv)
	}
	return notifier{cfg: n}
}

// reportsFocus tells whether the terminal must report focus (View).
func (n *notifier) reportsFocus() bool { return n.cfg.Mode == "focus" }

// Update takes the terminal's focus reports and how turns ended.
func (n *notifier) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.FocusMsg:
		n.blurred = false
	case tea.BlurMsg:
		n.blurred = true
	case turnEndMsg:
		n.failed, n.stopped = msg.failed, msg.stopped
	}
}

// observe follows the turn engine's phase (never what the status line
// shows): a turn starts when it leaves idle, and needs the user when it
// comes back to idle (the answer is ready, or the turn failed) or waits
// for an approval. A turn that ran at least After then notifies, if the
// mode lets it.
func (n *notifier) observe(s session.Phase, now time.Time) tea.Cmd {
	prev := n.state
	n.state = s
	if prev == s {
		return nil
	}
	if prev == session.PhaseIdle {
		n.since, n.failed, n.stopped = now, false, false
		return nil
	}
	n.ended = n.ended || s == session.PhaseIdle
	var what string
	switch s {
	case session.PhaseIdle:
		what = "answer ready"
		if n.failed {
			what = "turn failed"
		}
	case session.PhaseApproval:
		what = "waiting for approval"
	default:
		return nil
	}
	d := now.Sub(n.since)
	if s == session.PhaseIdle {
		n.since = time.Time{}
	}
	if n.cfg.Mode == "off" || (n.cfg.Mode == "focus" && !n.blurred) || d < n.cfg.After {
		return nil
	}
	return n.send("runnel: " + what + " (" + Elapsed(d) + ")")
}

// send tells the user title: by the command, or the terminal. The title
// says what happened and how long it took, never what the answer says;
// it is cleaned all the same.
func (n *notifier) send(title string) tea.Cmd {
	title = stream.SanitizeLine(title)
	if len(n.cfg.Command) > 0 {
		return runNotifyCommand(n.cfg.Command, title, n.cfg.Hidden)
	}
	switch n.cfg.Via {
	case "osc9":
		return tea.Raw("\x1b]9;" + title + "\x07")
	case "osc777":
		what, _ := strings.CutPrefix(title, "runnel: ")
		return tea.Raw("\x1b]777;notify;runnel;" + strings.ReplaceAll(what, ";", ",") + "\x07")
	}
	return tea.Raw("\a")
}

// runNotifyCommand runs argv with title appended, without a shell, off
// the UI goroutine, in the one child environment (without the hidden
// variables); a failure is one notice.
func runNotifyCommand(argv []string, title string, hidden []string) tea.Cmd {
	args := append(append([]string(nil), argv[1:]...), title)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), notifyCommandTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], args...)
		cmd.Env = tools.ChildEnv(hidden)
		cmd.WaitDelay = time.Second
		if err := cmd.Run(); err != nil {
			return NoticeMsg{Err: true, Text: "notify_command " + stream.SanitizeLine(argv[0]) + " failed: " + stream.SanitizeLine(err.Error()) + "; check notify_command in the config"}
		}
		return nil
	}
}

// turnFailed tells whether t ended in a failure: the stream broke, or the
// server said the response failed. A turn the user stopped did not fail.
func turnFailed(t *turn) bool {
	if t.stopped {
		return false
	}
	if t.err != nil {
		return true
	}
	for _, s := range t.snapshots() {
		if s.Status == "failed" || s.ErrorEvent {
			return true
		}
	}
	return false
}
