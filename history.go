package main

// This file finds the history database (--data-dir) and opens the store
// for the chat and -c/-r. The history commands are in sessions_cmd.go.

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"runnel/session/store"
)

// dataDirFlag is the persistent flag naming the history directory.
const dataDirFlag = "data-dir"

// dataDir returns the history database that cmd's --data-dir names
// (DIR/runnel.db), else store.DefaultPath().
func dataDir(cmd *cobra.Command) (string, error) {
	if f := cmd.Flag(dataDirFlag); f != nil && f.Value.String() != "" {
		return filepath.Join(f.Value.String(), "runnel.db"), nil
	}
	return store.DefaultPath()
}

// openHistory opens the store at the data dir. When it is unavailable the
// chat still runs, without history, and the error says why.
func openHistory(o options) (*store.DB, error) {
	if o.dbPathErr != nil {
		return nil, o.dbPathErr
	}
	return store.Open(o.dbPath)
}
