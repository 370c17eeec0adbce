package ui

// This file is the composer's shell part: a message starting with "!"
// runs the rest through the user's shell (session/tools' RunShell: the
// working directory, a local function's environment without runnel's
// secrets, its time and output bounds), off the Update loop. It is never
// sent: its output shows in a tool panel (shellPanelMsg, the items child
// draws it as it draws a function call's) and joins the next message as a
// chip, "[!ls output · 1.2 KiB]", that backspace in an empty composer
// removes like any chip. esc or ctrl+c stops a command that runs.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// shellRun is the user's !command: the one running, if any.
//
// Invariants: line is "" exactly when no command runs, and cancel is then
// nil; seq counts the commands started, so only the running one's end is
// taken.
type shellRun struct {
	cfg    tools.Config        // the local tools' config: which variables are secrets
	redact func(string) string // hides the secrets runnel knows in the output; nil: none
	ctx    context.Context     // the chat's: a command runs under it
	line   string
	cancel context.CancelFunc
	seq    int
}

// shellDoneMsg is a !command that ended.
type shellDoneMsg struct {
	seq  int
	line string
	run  tools.ShellRun
}

// shellPanelMsg shows a !command's panel in the transcript.
type shellPanelMsg struct {
	it  *stream.Item
	run tools.Run
}

// start runs line, unless a command runs already.
func (s *shellRun) start(line string) tea.Cmd {
	if s.line != "" {
		return hint(true, "!"+s.line+" is still running — esc stops it")
	}
	parent := s.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	s.seq++
	s.line, s.cancel = line, cancel
	seq, cfg := s.seq, s.cfg
	return func() tea.Msg {
		defer cancel()
		return shellDoneMsg{seq: seq, line: line, run: cfg.RunShell(ctx, line, "")}
	}
}

// stop cancels the running command; false when none runs.
func (s *shellRun) stop() bool {
	if s.line == "" {
		return false
	}
	s.cancel()
	return true
}

// ended takes a command's end: the panel to show and the chip of its
// output (nil when it was stopped, or is not the running one).
func (s *shellRun) ended(msg shellDoneMsg) (panel shellPanelMsg, chip *attach.File, ok bool) {
	if msg.seq != s.seq || s.line == "" {
		return shellPanelMsg{}, nil, false
	}
	s.line, s.cancel = "", nil
	out := msg.run.Output
	if s.redact != nil {
		out = s.redact(out)
	}
	name := "!" + msg.line
	raw, _ := json.Marshal(map[string]string{"type": "function_call", "call_id": fmt.Sprintf("shell_%d", msg.seq),
		"name": stream.SanitizeLine(clip(name, 60)), "arguments": "", "status": "completed", "output": out})
	it, err := stream.ItemFromJSON(raw)
	if err != nil {
		return shellPanelMsg{}, nil, false
	}
	panel = shellPanelMsg{it: it, run: tools.Run{Phase: tools.RunEnded, Outcome: msg.run.Status, Took: msg.run.Took}}
	if msg.run.Status == tools.StatusCancelled {
		return panel, nil, true
	}
	chip = &attach.File{Path: fmt.Sprintf("shell:%d", msg.seq), Name: stream.SanitizeLine(clip(name, 30)) + " output",
		Sent: stream.SanitizeLine(name), Kind: attach.Text, MIME: "text/plain", Size: int64(len(out)), Data: []byte(out)}
	return panel, chip, true
}

// height is the row the running command takes above the text.
func (s shellRun) height() int {
	if s.line == "" {
		return 0
	}
	return 1
}

// view is the line above the text while a command runs.
func (s shellRun) view(width int, st *theme.Styles) string {
	line := "  running !" + stream.SanitizeLine(s.line) + " · esc stops it"
	return theme.ShellOf(st).Muted.Render(ansi.Truncate(line, width, "…"))
}

// shellLine is the command of a message that is one, "!ls" → "ls"; ok is
// false for any other message.
func shellLine(text string) (line string, ok bool) {
	rest, ok := strings.CutPrefix(text, "!")
	return strings.TrimSpace(rest), ok
}

// runShell starts a !command; it is never sent, and leaves the composer.
func (c *Composer) shellRunning() bool { return c.shell.line != "" }

func (c *Composer) runShell(text string) tea.Cmd {
	line, _ := shellLine(text)
	if line == "" {
		return hint(true, "type a command after ! — it runs in your shell, and its output joins your next message")
	}
	cmd := c.shell.start(line)
	if c.shell.line == line {
		c.hist.remember(text)
		c.Reset()
	}
	return cmd
}

// shellEnded shows a command's panel and attaches its output.
func (c *Composer) shellEnded(msg shellDoneMsg) tea.Cmd {
	panel, chip, ok := c.shell.ended(msg)
	if !ok {
		return nil
	}
	show := func() tea.Msg { return panel }
	if chip == nil {
		return tea.Batch(show, hint(false, "!"+msg.line+" stopped"))
	}
	if err := c.att.add(chip); err != nil {
		return tea.Batch(show, hint(true, err.Error()))
	}
	return tea.Batch(show, hint(false, "!"+msg.line+" output joins your next message — backspace in an empty composer removes it"))
}

// showShell shows a !command's panel, ended.
func (c *items) showShell(msg shellPanelMsg) {
	now := c.fs.clock()
	e := c.addItem(msg.it, now)
	if h, ok := e.b.(block.RunHolder); ok {
		h.SetRun(msg.run)
	}
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
}
