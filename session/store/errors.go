package store

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"runnel/stream"
)

// Sentinels for errors.Is. Every error Open returns matches ErrUnavailable:
// the caller shows it as one notice and runs without history.
var (
	ErrUnavailable = errors.New("session history is unavailable")
	ErrTooNew      = errors.New("history schema is newer than this runnel")
	ErrCorrupt     = errors.New("history file is damaged")
	ErrLocked      = errors.New("history file is locked")
	ErrDenied      = errors.New("history location is not writable")
	ErrFull        = errors.New("disk or history file is full")
	ErrIO          = errors.New("history disk I/O error")
	ErrClosed      = errors.New("history is closed")
	ErrGone        = errors.New("history file was removed or replaced")
	ErrNotFound    = errors.New("no such session")
	ErrAmbiguous   = errors.New("ambiguous session id")
	ErrBadInput    = errors.New("invalid argument")
)

// Error is a store failure as one line: what failed, on which file, why, and
// what to do about it.
//
// Invariants: Kind is one of the sentinels above or nil; Error() never
// contains control characters or newlines.
type Error struct {
	Op     string // "open", "save item", "load", … ("" reads as a plain failure)
	Path   string // the database file
	Kind   error  // sentinel matched by errors.Is
	Detail string // what happened
	Hint   string // what to do, "" when nothing helps
	Err    error  // the underlying error, for errors.As
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Kind == ErrBadInput && e.Op == "import": // the file is at fault, not the database
		return stream.SanitizeLine("import: " + e.Detail)
	case e.Kind == ErrBadInput && isWrite(e.Op): // the caller's arguments are at fault
		return stream.SanitizeLine("not saved (" + e.Op + "): " + e.Detail)
	case e.Kind == ErrNotFound || e.Kind == ErrAmbiguous || e.Kind == ErrBadInput || e.Path == "":
		return stream.SanitizeLine(e.Detail)
	case e.Op == "open":
		b.WriteString("history unavailable: ")
		b.WriteString(e.Path)
	case isWrite(e.Op):
		b.WriteString("not saved (")
		b.WriteString(e.Op)
		b.WriteString(") to ")
		b.WriteString(e.Path)
	default:
		b.WriteString(e.Op)
		b.WriteString(" ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Detail)
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return stream.SanitizeLine(b.String())
}

// Is matches the error's Kind, and ErrUnavailable for every Open failure.
func (e *Error) Is(target error) bool {
	return target == e.Kind || (target == ErrUnavailable && e.Op == "open")
}

func (e *Error) Unwrap() error { return e.Err }

// isWrite reports whether a failure of op means something was not saved.
func isWrite(op string) bool {
	switch op {
	case "save item", "begin turn", "finish turn", "create session", "update session", "import", "delete":
		return true
	}
	return false
}

// wrap turns err from op on the file at path into an *Error, recognising the
// SQLite and file system failures a user can act on. busy is the busy timeout
// in force, for the "locked" message.
func wrap(op, path string, busy time.Duration, err error) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		if already.Op == "" || already.Op == op {
			already.Op, already.Path = op, path
			return already
		}
		return &Error{Op: op, Path: path, Kind: already.Kind, Detail: already.Detail, Hint: already.Hint, Err: err}
	}
	e := &Error{Op: op, Path: path, Err: err, Detail: firstLine(err.Error())}
	var se *sqlite.Error
	var errno syscall.Errno
	switch {
	case errors.As(err, &se):
		classifySQLite(e, se.Code()&0xff, busy)
	case errors.Is(err, sql.ErrConnDone) || strings.Contains(err.Error(), "database is closed"):
		e.Kind, e.Detail, e.Hint = ErrClosed, "the history database was closed", ""
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EROFS):
		e.Kind, e.Hint = ErrDenied, "fix the permissions or pass --data-dir"
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		e.Kind, e.Hint = ErrFull, "free some disk space"
	case errors.As(err, &errno):
		e.Kind = ErrIO
	}
	return e
}

func classifySQLite(e *Error, code int, busy time.Duration) {
	switch code {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		e.Kind = ErrCorrupt
		e.Detail = "not a readable SQLite database (" + e.Detail + ")"
		e.Hint = "move the file aside and runnel will start a new history"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		e.Kind = ErrLocked
		e.Detail = fmt.Sprintf("locked by another process for longer than %s", busy)
		e.Hint = "close the other program using it, or retry"
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_AUTH:
		e.Kind = ErrDenied
		e.Detail = "cannot open it for writing (" + e.Detail + ")"
		e.Hint = "fix the permissions or pass --data-dir"
	case sqlite3.SQLITE_FULL:
		e.Kind = ErrFull
		e.Detail = "disk or database is full"
		e.Hint = "free some disk space"
	case sqlite3.SQLITE_IOERR:
		e.Kind = ErrIO
		e.Hint = "check the disk"
	}
}

// badInput is a caller error: the arguments, not the database, are wrong.
func badInput(format string, args ...any) error {
	return &Error{Kind: ErrBadInput, Detail: fmt.Sprintf(format, args...)}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
