package main

// This file opens the session store for the chat.

import (
	"runnel/session/store"
)

// openHistory opens the store at the data dir. When it is unavailable the
// chat still runs, without history, and the error says why.
func openHistory(o options) (*store.DB, error) {
	if o.dbPathErr != nil {
		return nil, o.dbPathErr
	}
	return store.Open(o.dbPath)
}
