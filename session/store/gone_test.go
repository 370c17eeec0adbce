package store

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestRemovedDatabaseFailsWrites: once the database's files are removed
// under an open store, the next write fails with ErrGone as one line that
// names the file, says the session is no longer being saved and what to do;
// so do the writes after it.
func TestRemovedDatabaseFailsWrites(t *testing.T) {
	db, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	tid := must[TurnID](t)(db.BeginTurn(sid, "first", nil, ""))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db.Path() + suffix)
	}
	err := db.SaveItems(tid, []ItemWrite{{Raw: json.RawMessage(`{"type":"message"}`)}})
	checkGone(t, err, db.Path(), "removed")
	_, err = db.BeginTurn(sid, "second", nil, "")
	checkGone(t, err, db.Path(), "removed")
	if _, err := os.Stat(db.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Error("a write recreated the removed file")
	}
}

// TestReplacedDatabaseFailsWrites: a different file moved over the path
// (another history, a restored backup) is not written under this store's
// feet either.
func TestReplacedDatabaseFailsWrites(t *testing.T) {
	db, _ := openTest(t)
	other, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	other.Close()
	if err := os.Rename(other.Path(), db.Path()); err != nil {
		t.Fatal(err)
	}
	_, err := db.BeginTurn(sid, "after", nil, "")
	checkGone(t, err, db.Path(), "replaced")
}

// TestRemovedWALFailsWrites: removing only the write-ahead log (where the
// last writes wait for a checkpoint) is noticed too.
func TestRemovedWALFailsWrites(t *testing.T) {
	db, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	os.Remove(db.Path() + "-wal")
	_, err := db.BeginTurn(sid, "after", nil, "")
	checkGone(t, err, db.Path(), "write-ahead log")
}

// TestOtherProcessesDoNotLookGone: another handle on the same file opening,
// writing and closing between this store's writes (as `runnel sessions` or a
// second chat does) is not taken for a removal.
func TestOtherProcessesDoNotLookGone(t *testing.T) {
	db, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	for i := 0; i < 5; i++ {
		other, err := Open(db.Path())
		check(t, err)
		must[SessionID](t)(other.CreateSession(NewSession{Title: "other"}))
		check(t, other.Close())
		tid, err := db.BeginTurn(sid, "turn", nil, "")
		check(t, err)
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	}
}

func checkGone(t *testing.T, err error, path, how string) {
	t.Helper()
	if !errors.Is(err, ErrGone) {
		t.Fatalf("err = %v, want ErrGone", err)
	}
	msg := err.Error()
	for _, want := range []string{path, how, "no longer being saved", "restart runnel"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("not one line: %q", msg)
	}
}
