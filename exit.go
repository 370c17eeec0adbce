package main

// This file carries exit statuses out of cobra: a command's RunE returns an
// *exitError, and run maps it to the status (exitStatus). Cobra's own errors
// (unknown flags, wrong argument counts) are usage errors.

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"runnel/ui/output"
)

// exitTerminated is the status after SIGTERM (128 + 15, as a shell reports
// a process the signal ended), once what was under way has been saved.
const exitTerminated = 143

// exitError is an exit status, with the one-line message to print, or
// none when the command has printed it already.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.msg
}

// exitWith turns a status into RunE's error: nil for exitOK.
func exitWith(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// usageErrorf is a usage error (exit 2) with its message.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// exitStatus prints err's message, if it has one not yet printed, and
// returns the status it carries.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		if e.msg != "" {
			warnf(stderr, "%s", e.msg)
		}
		return e.code
	}
	fmt.Fprintf(stderr, "runnel: %s (see runnel --help)\n", strings.TrimSpace(err.Error()))
	return exitUsage
}

// version is the module's version and the commit it was built from, as
// the Go toolchain recorded them in the binary.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (commit %.12s, %s%s)", rev, when, dirty)
	}
	return v + " " + info.GoVersion
}

func badFormat(stderr io.Writer, f string) int {
	warnf(stderr, "unknown --format %q: use one of %s", f, strings.Join(output.Formats, ", "))
	return exitUsage
}
