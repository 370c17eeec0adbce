package store

import (
	"errors"
	"io/fs"
	"os"
)

// A database whose file is removed or replaced while it is open goes on
// accepting writes into the unlinked (or the old) file, and they are lost
// when runnel exits. Before each write the store checks that its path still
// names the file it opened, and refuses the write with one line if not.

// identify records which file db.path is, after Open created or opened it.
func (db *DB) identify() error {
	fi, err := os.Stat(db.path)
	if err != nil {
		return err
	}
	db.file = fi
	return nil
}

// stillThere returns an ErrGone error when db.path no longer names the file
// the store opened: removed, moved away, or replaced by another file.
func (db *DB) stillThere() error {
	if db.file == nil {
		return nil
	}
	fi, err := os.Stat(db.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Kind: ErrGone,
			Detail: "the database file was removed (or moved) while runnel was running, so this session is no longer being saved",
			Hint:   "restart runnel to start a new history there"}
	case err != nil:
		return err
	case !os.SameFile(fi, db.file):
		return &Error{Kind: ErrGone,
			Detail: "the database file was replaced by another file while runnel was running, so this session is no longer being saved",
			Hint:   "restart runnel to use the new file"}
	}
	return nil
}
