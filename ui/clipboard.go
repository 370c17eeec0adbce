package ui

// This file is copying: OSC 52 through the terminal, and the notice that
// says what a copy did (inside tmux, whether tmux let it through).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/tools"
	"runnel/stream"
)

// NoticeMsg is a one-line message for the user from a child or a Cmd:
// what a copy did, a bad slash command, an editor failure.
// The root shows it in one place. Err marks a failure.
type NoticeMsg struct {
	Text string
	Err  bool
}

// notify returns a Cmd that delivers a NoticeMsg.
func notify(isErr bool, text string) tea.Cmd {
	return func() tea.Msg { return NoticeMsg{Text: text, Err: isErr} }
}

// copy copies text to the system clipboard with OSC 52 (through Bubble
// Tea's output, so it works over ssh) and says what it did in a hint under
// the composer (hintMsg), never in the transcript: the sequence was sent to
// the terminal, which may ignore it (there is no way to tell). Inside tmux
// it asks tmux whether a program's copy gets through (set-clipboard on);
// when it does not, the hint says so, with how to turn it on (and says it
// again at the next copy).
//
// The text is cleaned as the screen cleans it (stream.Sanitize): what is
// pasted later is what was shown, never an escape sequence (ESC[201~ would
// end a shell's bracketed paste and run the lines that follow), a control
// other than newline and tab, a lone CR, or a bidi control or zero-width
// character that shows one text and pastes another.
//
// Every copy goes through the frame's clipboard (frameState.copy).
func (c *clipboard) copy(text string) tea.Cmd {
	text = stream.Sanitize(text)
	if text == "" {
		return hint(true, "nothing to copy")
	}
	size := byteSize(len(text))
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg { return c.report(size) })
}

// systemClipboard is the terminal runnel runs in: inside tmux when $TMUX
// is set. New gives it to the frame; tests inject their own (newTestModel),
// so they never ask the tmux of the machine they run on. tmux runs in the
// one child environment (tools.ChildEnv), without the variables in hidden.
func systemClipboard(hidden []string) *clipboard {
	return &clipboard{tmux: os.Getenv("TMUX") != "", query: func(ctx context.Context) (string, error) {
		return tmuxSetClipboard(ctx, tools.ChildEnv(hidden))
	}}
}

// tmuxQueryTimeout bounds the one question asked of tmux per copy.
const tmuxQueryTimeout = time.Second

// clipboard sends copies with OSC 52 and knows, inside tmux, whether tmux
// lets them through: only set-clipboard on does ("external", tmux's
// default, sets the terminal's clipboard from tmux's own copy mode but drops
// a program's; "off" drops both).
//
// Invariants: on is set once tmux answered "on" and never unset: tmux is not
// asked again for the rest of the run. Any other answer is asked again at
// the next copy, so a user who followed the hint is believed. query runs
// only in a Cmd, off the Update loop.
type clipboard struct {
	tmux  bool
	query func(ctx context.Context) (string, error) // tmux's set-clipboard: on, external or off
	mu    sync.Mutex
	on    bool
}

// report says what a copy of size bytes did: a hint, or the notice of a
// copy tmux drops.
func (c *clipboard) report(size string) tea.Msg {
	sent := "sent " + size + " to the terminal's clipboard (OSC 52)"
	if !c.tmux {
		return hintMsg{text: sent}
	}
	mode, err := c.setClipboard()
	switch {
	case err != nil:
		return hintMsg{text: sent + "; inside tmux it gets through only with set-clipboard on (could not ask tmux: " + stream.SanitizeLine(err.Error()) + ")"}
	case mode == "on":
		return hintMsg{text: "sent " + size + " to the terminal's clipboard through tmux (OSC 52; set-clipboard on keeps it in tmux's paste buffer too)"}
	}
	return hintMsg{err: true, text: "not copied: tmux drops it (set-clipboard " + mode +
		`) — run "tmux set -g set-clipboard on", or set it in ~/.tmux.conf`}
}

// setClipboard is tmux's set-clipboard: "on", "external" or "off".
func (c *clipboard) setClipboard() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on {
		return "on", nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), tmuxQueryTimeout)
	defer cancel()
	mode, err := c.query(ctx)
	if err != nil {
		return "", err
	}
	switch mode = strings.TrimSpace(mode); mode {
	case "on":
		c.on = true
	case "external", "off":
	default:
		return "", fmt.Errorf("set-clipboard is %q", stream.SanitizeLine(mode))
	}
	return mode, nil
}

// tmuxSetClipboard asks the tmux server of $TMUX for its global
// set-clipboard option. The command line is fixed: nothing from the chat
// reaches it.
func tmuxSetClipboard(ctx context.Context, env tools.Environ) (string, error) {
	cmd := exec.CommandContext(ctx, "tmux", "show-options", "-gv", "set-clipboard")
	cmd.Env = env
	cmd.WaitDelay = tmuxQueryTimeout
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("no answer in %s", tmuxQueryTimeout)
		}
		return "", err
	}
	return string(out), nil
}

// byteSize formats n bytes: "340 B", "1.2 KB", "12 KB", "3.4 MB".
func byteSize(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1024*1024:
		return scaled(n, 1024) + " KB"
	default:
		return scaled(n, 1024*1024) + " MB"
	}
}

// scaled is n/unit with one decimal below 10 and none above.
func scaled(n, unit int) string {
	if n < 10*unit {
		return strconv.FormatFloat(float64(n)/float64(unit), 'f', 1, 64)
	}
	return strconv.Itoa(n / unit)
}
