package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runnel/stream"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DefaultBusyTimeout is how long a write waits for another process's write
// before it fails with ErrLocked.
const DefaultBusyTimeout = 5 * time.Second

// DB is an open history database.
//
// Invariants:
//   - w holds exactly one connection and every write goes through it in an
//     IMMEDIATE transaction: this process never waits on itself, and a write
//     never fails on a read-to-write lock upgrade.
//   - r serves reads only (query_only); in WAL mode it never blocks w, nor w it.
//   - The schema is at schemaVersion for the life of the DB.
//
// Concurrency: every method is safe for concurrent use.
type DB struct {
	path  string
	w, r  *sql.DB
	busy  time.Duration
	files files                   // the files opened at path; writes stop when path names others (gone.go)
	owner string                  // this process, stamped on the turns it streams
	alive func(owner string) bool // whether the process behind owner may still run
	now   func() time.Time

	secrets *stream.Redactor // hidden in everything written; set once, before writing
	index   itemIndex        // when this DB's streaming items were last indexed (index.go)
}

// SetSecrets makes every later write hide the values in r (see
// stream.Redactor): prompts, input and output items, titles and turn
// errors. The stream and the tools already hide them; this is the last
// guard before the disk. Call it before writing, from one goroutine.
func (db *DB) SetSecrets(r *stream.Redactor) { db.secrets = r }

// options are the knobs tests turn; Open uses the zero value.
type options struct {
	busy  time.Duration
	now   func() time.Time
	owner string
	alive func(owner string) bool
}

// DefaultPath returns $XDG_DATA_HOME/runnel/runnel.db, or
// ~/.local/share/runnel/runnel.db when XDG_DATA_HOME is unset or relative.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "runnel", "runnel.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("history location: %w; set XDG_DATA_HOME or pass --data-dir", err)
	}
	return filepath.Join(home, ".local", "share", "runnel", "runnel.db"), nil
}

// Open opens (creating if needed) the history database at path and brings its
// schema up to date. The directory is created 0700 and the file 0600.
//
// A database whose schema is newer than this binary knows is refused with
// ErrTooNew before anything is written to it. Every error matches
// ErrUnavailable and reads as one line naming the file.
func Open(path string) (*DB, error) { return open(path, options{}) }

func open(path string, o options) (*DB, error) {
	if o.busy <= 0 {
		o.busy = DefaultBusyTimeout
	}
	if o.now == nil {
		o.now = time.Now
	}
	if o.owner == "" {
		o.owner = processOwner()
	}
	if o.alive == nil {
		self := o.owner
		o.alive = func(owner string) bool { return ownerAlive(self, owner) }
	}
	if path == "" {
		return nil, &Error{Op: "open", Path: `""`, Kind: ErrDenied, Detail: "no history file given", Hint: "pass --data-dir"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, wrap("open", path, o.busy, err)
	}
	fail := func(err error) (*DB, error) { return nil, wrap("open", abs, o.busy, err) }

	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return fail(err)
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && fi.IsDir():
		return fail(errors.New("is a directory"))
	case err == nil:
		// Check before any write: a newer schema or a damaged file must be
		// left exactly as it is.
		if err := precheck(abs, o.busy); err != nil {
			return fail(err)
		}
	case errors.Is(err, os.ErrNotExist):
		f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fail(err)
		}
		if f != nil {
			f.Close()
		}
	default:
		return fail(err)
	}

	db := &DB{path: abs, busy: o.busy, owner: o.owner, alive: o.alive, now: o.now}
	if db.w, err = sql.Open("sqlite", dsn(abs, o.busy, "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)", "_txlock=immediate")); err != nil {
		return fail(err)
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxIdleTime(0)
	if err := migrate(db.w, abs); err != nil {
		db.w.Close()
		return fail(err)
	}
	if err := db.identify(); err != nil {
		db.w.Close()
		return fail(err)
	}
	if db.r, err = sql.Open("sqlite", dsn(abs, o.busy, "_pragma=query_only(1)")); err != nil {
		db.w.Close()
		return fail(err)
	}
	db.r.SetMaxOpenConns(4)
	if err := db.sweep(); err != nil {
		db.Close()
		return fail(err)
	}
	return db, nil
}

// dsn is the driver's name for the file at path with the pragmas every
// connection needs plus extra. The path is escaped so that '?', '#' and '%'
// in directory names survive.
func dsn(path string, busy time.Duration, extra ...string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	q := append([]string{
		fmt.Sprintf("_pragma=busy_timeout(%d)", busy.Milliseconds()),
		"_pragma=foreign_keys(1)",
		// a page cache of 256 KiB per connection, not SQLite's 2 MiB: the
		// chat's five connections let a long session's pages pile up in
		// RSS (about 0.13 MB a turn), and the OS caches the file anyway
		"_pragma=cache_size(-256)",
	}, extra...)
	return u.String() + "?" + strings.Join(q, "&")
}

// precheck opens an existing file read-only and refuses it when it is not a
// database or its schema is newer than schemaVersion.
func precheck(path string, busy time.Duration) error {
	ro, err := sql.Open("sqlite", dsn(path, busy, "mode=ro"))
	if err != nil {
		return err
	}
	defer ro.Close()
	var n int
	if err := ro.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		return err
	}
	v, err := userVersion(ro)
	if err != nil {
		return err
	}
	return tooNew(path, v)
}

type querier interface {
	QueryRow(query string, args ...any) *sql.Row
}

func userVersion(q querier) (int, error) {
	var v int
	err := q.QueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}

func tooNew(path string, v int) error {
	if v <= schemaVersion {
		return nil
	}
	return &Error{
		Op: "open", Path: path, Kind: ErrTooNew,
		Detail: fmt.Sprintf("schema version %d is newer than this runnel understands (%d); the file was left untouched", v, schemaVersion),
		Hint:   "upgrade runnel, or pass --data-dir to use another history",
	}
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Close closes the database. Writes after Close fail with ErrClosed.
func (db *DB) Close() error {
	db.forget() // closing deletes the WAL: that is no removal
	var err error
	if db.r != nil {
		err = db.r.Close()
	}
	if db.w != nil {
		err = errors.Join(err, db.w.Close())
	}
	return wrap("close", db.path, db.busy, err)
}
