package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A database whose files are removed or replaced while it is open goes on
// accepting writes into the unlinked (or the old) files, and they are lost
// when runnel exits or crashes, or never seen by another process. Before each
// write the store checks that its path still names the file it opened, and
// that the write-ahead log and shared-memory files it last wrote beside it
// are still those; if not, the write is refused with one line (ErrGone).

// files is which files the store's paths named when it last looked.
//
// Invariants: db is set by Open and cleared by Close (no checks then); wal
// and shm are what path-wal and path-shm were after the last write (nil when
// absent), so SQLite deleting and recreating them between two writes of
// this store, which it does only when every connection closed, is never
// mistaken for a removal.
type files struct {
	mu       sync.Mutex
	db       os.FileInfo
	wal, shm os.FileInfo
}

// identify records which file db.path is, after Open created or opened it.
func (db *DB) identify() error {
	fi, err := os.Stat(db.path)
	if err != nil {
		return err
	}
	db.files.mu.Lock()
	db.files.db = fi
	db.files.mu.Unlock()
	db.noteSidecars()
	return nil
}

// forget stops the checks (Close: SQLite deletes the sidecars itself, and a
// later write fails with ErrClosed).
func (db *DB) forget() {
	db.files.mu.Lock()
	db.files.db, db.files.wal, db.files.shm = nil, nil, nil
	db.files.mu.Unlock()
}

// noteSidecars records the write-ahead log and shared-memory files as they
// are now (nothing once the store is closed).
func (db *DB) noteSidecars() {
	wal, _ := os.Stat(db.path + "-wal")
	shm, _ := os.Stat(db.path + "-shm")
	db.files.mu.Lock()
	if db.files.db != nil {
		db.files.wal, db.files.shm = wal, shm
	}
	db.files.mu.Unlock()
}

// stillThere returns an ErrGone error when the store's files are no longer
// the ones it opened and wrote: removed, moved away, or replaced.
func (db *DB) stillThere() error {
	db.files.mu.Lock()
	f := struct{ db, wal, shm os.FileInfo }{db.files.db, db.files.wal, db.files.shm}
	db.files.mu.Unlock()
	if f.db == nil {
		return nil
	}
	for _, c := range []struct {
		path, what string
		was        os.FileInfo
	}{
		{db.path, "the database file", f.db},
		{db.path + "-wal", "the database's write-ahead log " + filepath.Base(db.path) + "-wal", f.wal},
		{db.path + "-shm", "the database's shared-memory file " + filepath.Base(db.path) + "-shm", f.shm},
	} {
		if c.was == nil {
			continue
		}
		fi, err := os.Stat(c.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return gone(c.what+" was removed (or moved)", "restart runnel to start a new history there")
		case err != nil:
			return err
		case !os.SameFile(fi, c.was):
			return gone(c.what+" was replaced by another file", "restart runnel to use the history now there")
		}
	}
	return nil
}

func gone(what, hint string) error {
	return &Error{Kind: ErrGone,
		Detail: fmt.Sprintf("%s while runnel was running, so this session is no longer being saved", what),
		Hint:   hint}
}
