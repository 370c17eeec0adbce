package tools

// This file runs a command the user typed after "!" in the chat's
// composer: through their shell, in the working directory, with the
// environment a local function gets (runnel's secrets removed), in its own
// process group, bounded as a function's call is (DefaultTimeout,
// MaxOutput). The user runs it, so nothing asks for approval; the model
// sees its output only when the user's next message carries it.

import (
	"context"
	"fmt"
	"os"
	"runnel/stream"
	"runtime"
	"strings"
	"time"
)

// ShellRun is how a user's shell command ended.
type ShellRun struct {
	Output   string        // stdout, then stderr and how it ended, for the panel and the model; untrusted
	Status   Status        // StatusOK, StatusFailed, StatusTimedOut or StatusCancelled
	ExitCode int           // -1 when it did not exit by itself
	Took     time.Duration // how long it ran
}

// UserShell is the user's shell and its flag for a command line: $SHELL -c,
// else /bin/sh -c (cmd /C on Windows without $SHELL).
func UserShell(getenv func(string) string) []string {
	if sh := getenv("SHELL"); sh != "" {
		return []string{sh, "-c"}
	}
	if runtime.GOOS == "windows" {
		return []string{"cmd", "/C"}
	}
	return []string{"/bin/sh", "-c"}
}

// RunShell runs line through the user's shell (UserShell) in dir ("" is
// the working directory) with the environment a local function gets
// (without the variables runnel reads secrets from), for at most
// DefaultTimeout, keeping MaxOutput bytes of stdout. Cancelling ctx kills
// it and all it started.
func (c Config) RunShell(ctx context.Context, line, dir string) ShellRun {
	argv := append(UserShell(os.Getenv), line)
	start := time.Now()
	x := runCommand(ctx, argv, dir, ChildEnv(c.hiddenEnv(false, nil)), "", DefaultTimeout, nil)
	return ShellRun{Output: x.shellOutput(), Status: x.status(), ExitCode: x.ExitCode, Took: time.Since(start)}
}

// shellOutput is what a user's command printed and how it ended: stdout,
// then stderr (whatever the exit status: the user reads warnings too),
// then the cut, the exit status, the timeout or the cancel.
func (r execResult) shellOutput() string {
	if r.StartErr != nil {
		return "runnel could not run the command: " + r.StartErr.Error()
	}
	var b strings.Builder
	b.WriteString(r.Stdout)
	note := func(s string) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	if r.Truncated() {
		note(fmt.Sprintf("[output cut at %s; the command printed %s in all — [limits] tool_result_bytes]\n", stream.FormatBytes(stream.Limits().ToolResult), byteSize(r.Total)))
	}
	if s := strings.TrimRight(r.Stderr, "\n"); s != "" {
		note("[stderr]\n" + s + "\n")
	}
	switch {
	case r.Cancelled:
		note("[" + CancelledOutput + "]")
	case r.TimedOut:
		note(fmt.Sprintf("[timed out after %s]", DefaultTimeout))
	case r.ExitCode != 0:
		note(fmt.Sprintf("[exit status %d]", r.ExitCode))
	}
	if b.Len() == 0 {
		return "(no output)"
	}
	return strings.TrimRight(b.String(), "\n")
}
