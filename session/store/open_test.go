package store

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data/xdg")
	if p, _ := DefaultPath(); p != "/data/xdg/runnel/runnel.db" {
		t.Errorf("with XDG_DATA_HOME: %s", p)
	}
	t.Setenv("XDG_DATA_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/someone")
	if p, _ := DefaultPath(); p != "/home/someone/.local/share/runnel/runnel.db" {
		t.Errorf("without XDG_DATA_HOME: %s", p)
	}
}

func TestOpenCreatesPrivateFilesInWALMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "runnel.db")
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("directory: %v %v, want 0700", fi.Mode(), err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file: %v %v, want 0600", fi.Mode(), err)
	}
	var mode string
	var fk, sync, busy int
	check(t, db.w.QueryRow("PRAGMA journal_mode").Scan(&mode))
	check(t, db.w.QueryRow("PRAGMA foreign_keys").Scan(&fk))
	check(t, db.w.QueryRow("PRAGMA synchronous").Scan(&sync))
	check(t, db.w.QueryRow("PRAGMA busy_timeout").Scan(&busy))
	if mode != "wal" || fk != 1 || sync != 1 || busy != 5000 {
		t.Errorf("journal_mode %s, foreign_keys %d, synchronous %d, busy_timeout %d; want wal, 1, 1 (NORMAL), 5000", mode, fk, sync, busy)
	}
	if v, _ := userVersion(db.w); v != schemaVersion {
		t.Errorf("user_version %d, want %d", v, schemaVersion)
	}
	// every connection's page cache is small: a long session's pages are
	// not kept in RSS (the writer's and a reader's)
	for _, q := range []*sql.DB{db.w, db.r} {
		var cache int
		check(t, q.QueryRow("PRAGMA cache_size").Scan(&cache))
		if cache != -256 {
			t.Errorf("cache_size %d, want -256 (256 KiB)", cache)
		}
	}
	// Reopening a current database works and changes nothing.
	db2, err := Open(path)
	check(t, err)
	db2.Close()
}

func TestOpenPathWithURLCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd ?#% dir", "runnel.db")
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	newSession(t, db, `{}`)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the path given: %v", err)
	}
}

func TestOpenCorruptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel.db")
	garbage := bytes.Repeat([]byte("this is not a database, just some text\n"), 200)
	check(t, os.WriteFile(path, garbage, 0o600))
	_, err := Open(path)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrUnavailable and ErrCorrupt", err)
	}
	oneLine(t, err, path, "move the file aside")
	if b, _ := os.ReadFile(path); !bytes.Equal(b, garbage) {
		t.Error("the damaged file was modified")
	}
}

func TestOpenUnwritableDirectory(t *testing.T) {
	// A regular file where the directory should be: nobody, root included,
	// can create the database there.
	parent := filepath.Join(t.TempDir(), "file")
	check(t, os.WriteFile(parent, nil, 0o600))
	path := filepath.Join(parent, "runnel", "runnel.db")
	_, err := Open(path)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrDenied) {
		t.Fatalf("err = %v, want ErrUnavailable and ErrDenied", err)
	}
	oneLine(t, err, path, "--data-dir")

	if os.Geteuid() != 0 { // root ignores permission bits
		dir := filepath.Join(t.TempDir(), "ro")
		check(t, os.Mkdir(dir, 0o500))
		_, err := Open(filepath.Join(dir, "runnel.db"))
		if !errors.Is(err, ErrDenied) {
			t.Errorf("read-only directory: err = %v, want ErrDenied", err)
		}
	}
}

func TestOpenLockedBeyondBusyTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel.db")
	other, err := sql.Open("sqlite", dsn(path, time.Second))
	check(t, err)
	defer other.Close()
	other.SetMaxOpenConns(1)
	check(t, execSQL(other, "PRAGMA locking_mode = EXCLUSIVE", "CREATE TABLE x (y)", "BEGIN EXCLUSIVE", "INSERT INTO x VALUES (1)"))

	// The 50 ms busy timeout is what is under test, not a sleep: Open must
	// give up after it instead of hanging.
	_, err = open(path, options{busy: 50 * time.Millisecond})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrUnavailable and ErrLocked", err)
	}
	oneLine(t, err, path, "locked by another process for longer than 50ms")

	check(t, execSQL(other, "COMMIT", "PRAGMA locking_mode = NORMAL", "SELECT 1"))
	other.Close()
	db, err := Open(path)
	check(t, err)
	db.Close()
}

func TestOpenNewerSchemaLeavesFileUntouched(t *testing.T) {
	for _, wal := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "runnel.db")
		raw, err := sql.Open("sqlite", dsn(path, time.Second))
		check(t, err)
		stmts := []string{"CREATE TABLE future (x)", "INSERT INTO future VALUES ('from a newer runnel')", "PRAGMA user_version = 99"}
		if wal {
			stmts = append([]string{"PRAGMA journal_mode = WAL"}, stmts...)
		}
		check(t, execSQL(raw, stmts...))
		check(t, raw.Close())
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		check(t, os.Chtimes(path, old, old))
		before, _ := os.ReadFile(path)

		_, err = Open(path)
		if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrTooNew) {
			t.Fatalf("wal=%v: err = %v, want ErrUnavailable and ErrTooNew", wal, err)
		}
		oneLine(t, err, path, "schema version 99 is newer than this runnel understands ("+strconv.Itoa(schemaVersion)+")")
		after, _ := os.ReadFile(path)
		fi, _ := os.Stat(path)
		if !bytes.Equal(before, after) || !fi.ModTime().Equal(old) {
			t.Errorf("wal=%v: the newer database was modified (mtime %v, was %v)", wal, fi.ModTime(), old)
		}
	}
}

func TestClosedDatabaseFailsWritesCleanly(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hi", nil, ""))
	check(t, db.Close())
	err := db.SaveItem(tid, 0, 0, msg("m", "lost"), false)
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	oneLine(t, err, db.Path(), "not saved")
}

func TestDiskFullIsReportedAndRecoverable(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hi", nil, ""))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "short"), false))

	// Cap the file at its current size: the next growth fails as on a full disk.
	var pages int
	check(t, db.w.QueryRow("PRAGMA page_count").Scan(&pages))
	check(t, execSQL(db.w, "PRAGMA max_page_count = "+itoa(pages)))
	big := msg("m", strings.Repeat("a long answer that no longer fits ", 2000))
	err := db.SaveItem(tid, 0, 0, big, false)
	if !errors.Is(err, ErrFull) {
		t.Fatalf("err = %v, want ErrFull", err)
	}
	oneLine(t, err, db.Path(), "not saved")

	// Nothing broke: the old partial is intact, and once there is room the
	// same save works.
	s := load(t, db, sid)
	if got := string(s.Turns[0].Responses[0].Items[0].Raw); !strings.Contains(got, "short") {
		t.Errorf("item after failed save: %s", got)
	}
	check(t, execSQL(db.w, "PRAGMA max_page_count = 1073741823"))
	check(t, db.SaveItem(tid, 0, 0, big, false))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
}

// oneLine checks that err reads as one line naming the file and saying want.
func oneLine(t *testing.T, err error, path, want string) {
	t.Helper()
	s := err.Error()
	if strings.ContainsAny(s, "\n\r\x1b") {
		t.Errorf("error is not one clean line: %q", s)
	}
	if abs, _ := filepath.Abs(path); !strings.Contains(s, abs) {
		t.Errorf("error %q does not name the file %s", s, abs)
	}
	if !strings.Contains(s, want) {
		t.Errorf("error %q does not say %q", s, want)
	}
}

func execSQL(db *sql.DB, stmts ...string) error {
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return errors.New(s + ": " + err.Error())
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
