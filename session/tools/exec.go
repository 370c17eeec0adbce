package tools

// This file runs one local function's command: no shell unless asked, its
// own process group (so cancelling kills everything it started), a
// timeout, an environment without runnel's secrets, the arguments on stdin
// and in RUNNEL_TOOL_ARGS, and stdout capped for the model.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"runnel/stream"
)

const (
	maxStderr  = 16 << 10  // bytes of stderr kept for the panel (and the model, on failure)
	maxArgsEnv = 100 << 10 // larger arguments come on stdin only (Linux caps one variable at 128 KiB)
	waitDelay  = time.Second
)

// Output texts a call ends with when it did not run to the end.
const (
	CancelledOutput = "cancelled by user"
)

// execResult is how one command ended.
type execResult struct {
	Stdout    string // at most the table's tool_result_bytes, cut at a rune boundary
	Total     int64  // bytes of stdout the command wrote in all
	Stderr    string // at most maxStderr bytes
	ExitCode  int    // -1 when it did not exit by itself
	TimedOut  bool
	Cancelled bool
	StartErr  error // the command could not be started
}

// status is how the command ended as a call's Status: cancelled, timed
// out, failed (it could not start, or exited non-zero) or StatusOK.
func (r execResult) status() Status {
	switch {
	case r.Cancelled:
		return StatusCancelled
	case r.TimedOut:
		return StatusTimedOut
	case r.StartErr != nil || r.ExitCode != 0:
		return StatusFailed
	}
	return StatusOK
}

// Truncated reports whether stdout was cut.
func (r execResult) Truncated() bool { return r.Total > int64(len(r.Stdout)) }

// runCommand runs argv and waits for it. live, if not nil, gets output as
// it arrives (stdout and stderr, each from its own goroutine), up to the
// caps.
func runCommand(ctx context.Context, argv []string, dir string, env Environ, stdin string, timeout time.Duration, live func(chunk string, stderr bool)) execResult {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, argv[0], argv[1:]...)
	ownGroup(cmd)
	cmd.Cancel = func() error {
		// The whole group: a shell's children must not outlive the call.
		return killGroup(cmd.Process.Pid, true)
	}
	cmd.WaitDelay = waitDelay
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	out := &capture{max: stream.Limits().ToolResult, live: live}
	errOut := &capture{max: maxStderr, live: live, stderr: true}
	cmd.Stdout, cmd.Stderr = out, errOut

	err := cmd.Start()
	if err == nil {
		joinGroup(cmd.Process.Pid) // Windows: its job, which killGroup ends whole
		err = cmd.Wait()
		releaseGroup(cmd.Process.Pid)
	}
	r := execResult{ExitCode: -1}
	r.Stdout, r.Total = out.result()
	r.Stderr, _ = errOut.result()
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil && err != nil:
		r.Cancelled = true
	case errors.Is(tctx.Err(), context.DeadlineExceeded) && err != nil:
		r.TimedOut = true
	case err != nil && cmd.ProcessState == nil:
		r.StartErr = err
	case err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay):
		r.StartErr = err
	}
	return r
}

// commandEnv is the environment for a function call; secrets are the
// variables to remove (Config.hiddenEnv).
func commandEnv(secrets []string, call Call) Environ {
	args := call.Arguments
	if len(args) > maxArgsEnv {
		args = "" // too big for one variable: read stdin
	}
	return ChildEnv(secrets,
		"RUNNEL_TOOL_ARGS="+args, "RUNNEL_TOOL_NAME="+call.Name, "RUNNEL_TOOL_CALL_ID="+call.CallID)
}

// modelOutput is what the model gets for a finished command.
func (r execResult) modelOutput(timeout time.Duration) string {
	switch {
	case r.Cancelled && strings.TrimSpace(r.Stdout) == "":
		return CancelledOutput
	case r.Cancelled: // what it printed was on screen: the model sees it too
		return CancelledOutput + "; its output so far:\n" + r.Stdout
	case r.StartErr != nil:
		return "runnel could not run the command: " + r.StartErr.Error()
	}
	var b strings.Builder
	if r.TimedOut {
		fmt.Fprintf(&b, "timed out after %s", timeout)
		if r.Stdout != "" {
			b.WriteString("; partial output:\n")
		}
	}
	b.WriteString(r.Stdout)
	if r.Truncated() {
		fmt.Fprintf(&b, "\n[output cut at %s; the command printed %s in all — [limits] tool_result_bytes]", stream.FormatBytes(stream.Limits().ToolResult), byteSize(r.Total))
	}
	if !r.TimedOut && r.ExitCode != 0 {
		fmt.Fprintf(&b, "\n[exit status %d]", r.ExitCode)
		if s := strings.TrimSpace(r.Stderr); s != "" {
			b.WriteString("\n[stderr]\n" + s)
		}
	}
	if b.Len() == 0 {
		return "(no output)"
	}
	return b.String()
}

// byteSize writes n for people: "812 B", "12 KB", "3.4 MB".
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// capture keeps the first max bytes written and counts the rest. It never
// fails a write, so a chatty command is not killed by a broken pipe.
//
// Invariants: len(buf) <= max; total >= len(buf); pending holds at most
// utf8.UTFMax-1 bytes, the start of a rune not yet passed to live.
type capture struct {
	max    int
	live   func(chunk string, stderr bool)
	stderr bool

	mu      sync.Mutex
	buf     []byte
	total   int64
	pending []byte // an incomplete rune held back from live
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	room := c.max - len(c.buf)
	if room <= 0 {
		return len(p), nil
	}
	keep := p[:min(room, len(p))]
	c.buf = append(c.buf, keep...)
	if c.live != nil {
		chunk := append(c.pending, keep...)
		cut := len(chunk)
		for i := 1; i < utf8.UTFMax && i <= len(chunk); i++ {
			if utf8.RuneStart(chunk[len(chunk)-i]) {
				if !utf8.FullRune(chunk[len(chunk)-i:]) {
					cut = len(chunk) - i
				}
				break
			}
		}
		c.pending = append([]byte(nil), chunk[cut:]...)
		if cut > 0 {
			c.live(string(chunk[:cut]), c.stderr)
		}
	}
	return len(p), nil
}

// result returns what was kept, cut back to a rune boundary when the cap
// fell inside a rune, and the total written.
func (c *capture) result() (string, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buf
	if int64(len(b)) < c.total {
		for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				if !utf8.FullRune(b[len(b)-i:]) {
					b = b[:len(b)-i]
				}
				break
			}
		}
	}
	return string(b), c.total
}
