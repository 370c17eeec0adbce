package store

import (
	"database/sql"
	"fmt"
)

// schemaVersion is the schema this binary writes, kept in PRAGMA user_version.
// Version 0 is an empty file.
const schemaVersion = 9

// migrations[v] brings a database from version v to v+1. Each runs inside the
// one IMMEDIATE transaction that sets the new user_version, so a crash or a
// second process racing to migrate leaves the file at the old version or the
// new one, never between.
var migrations = [schemaVersion]func(tx *sql.Tx) error{
	0: createV1,
	1: addSearchAndOwners,
	2: addBlobs,
	3: addBackground,
	4: addProvider,
	5: addRuns,
	6: addCompactedAndImported,
	7: addBranches,
	8: addItemChunks,
}

// addBranches adds the branches of an edited conversation (branch.go): a
// turn's parent (the seq of the turn it follows; NULL: the turn before it
// in seq order, as every turn saved before was) and the session's tip (the
// seq of the turn the conversation continues from; NULL: its last turn; 0:
// none, the next turn starts a new root). A session that never branched
// keeps both NULL and reads as before.
func addBranches(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE turns ADD COLUMN parent INTEGER`,
		`ALTER TABLE sessions ADD COLUMN tip INTEGER`,
	)
}

// addCompactedAndImported adds a session's compacted window (/compact) that
// its conversation sends next instead of the chain (JSON array of input
// items; NULL for none), so a session compacted and then closed resumes
// compacted; and when it was imported (unix milliseconds; 0: it was not),
// which List sorts by when it is later than its last update.
func addCompactedAndImported(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE sessions ADD COLUMN compacted BLOB`,
		`ALTER TABLE sessions ADD COLUMN imported INTEGER NOT NULL DEFAULT 0`,
	)
}

// addRuns adds how runnel's own runs of a tool round's calls ended (the
// caller's JSON, by call_id; see Turn.Runs). Turns saved before have none
// (NULL): their calls read as ended, outcome unrecorded.
func addRuns(tx *sql.Tx) error {
	return execAll(tx, `ALTER TABLE turns ADD COLUMN runs BLOB`)
}

// addProvider adds the provider a session talks to (its name in the
// config, as the settings say), for listing; sessions saved before take it
// from their settings, which name none: "".
func addProvider(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE sessions ADD COLUMN provider TEXT NOT NULL DEFAULT ''`,
		`UPDATE sessions SET provider = coalesce(json_extract(CAST(settings AS TEXT), '$.provider'), '') WHERE json_valid(CAST(settings AS TEXT))`,
	)
}

// addBackground adds the background response a turn streams (background
// mode): its id and the last sequence number saved with the items, so that
// a runnel killed mid-stream can reattach (see Turn.Background).
func addBackground(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE turns ADD COLUMN background_id TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE turns ADD COLUMN background_seq INTEGER NOT NULL DEFAULT -1`,
	)
}

// createV1 is the first layout: sessions, turns and raw items.
func createV1(tx *sql.Tx) error {
	return execAll(tx,
		`CREATE TABLE sessions (
			id       TEXT PRIMARY KEY,
			title    TEXT NOT NULL DEFAULT '',
			created  INTEGER NOT NULL, -- unix milliseconds
			updated  INTEGER NOT NULL,
			settings TEXT NOT NULL DEFAULT '{}'
		)`,
		`CREATE TABLE turns (
			id         INTEGER PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			seq        INTEGER NOT NULL, -- 1, 2, … within the session
			prompt     TEXT NOT NULL DEFAULT '',
			input      BLOB NOT NULL DEFAULT '[]', -- JSON array of input items as sent
			previous_response_id TEXT NOT NULL DEFAULT '',
			response_ids TEXT NOT NULL DEFAULT '[]',
			status     TEXT NOT NULL,
			usage      BLOB, -- JSON as received, NULL when none
			error      TEXT NOT NULL DEFAULT '',
			started    INTEGER NOT NULL,
			ended      INTEGER,
			UNIQUE (session_id, seq)
		)`,
		`CREATE TABLE items (
			id           INTEGER PRIMARY KEY,
			turn_id      INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
			response_idx INTEGER NOT NULL,
			output_idx   INTEGER NOT NULL,
			raw          BLOB NOT NULL, -- the item's JSON, byte for byte
			done         INTEGER NOT NULL DEFAULT 0,
			UNIQUE (turn_id, response_idx, output_idx)
		)`,
		`CREATE INDEX sessions_updated ON sessions(updated)`,
	)
}

// addSearchAndOwners adds what version 1 lacked: the model and answer preview
// for listing, the process that streams each turn (to tell a live turn from
// one whose process died), item save times, and the full-text index, which
// migrate fills from the items already stored once the schema is current
// (reindexAll reads the items as this binary stores them).
func addSearchAndOwners(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE sessions ADD COLUMN model TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE sessions ADD COLUMN preview TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE turns ADD COLUMN owner TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE items ADD COLUMN updated INTEGER NOT NULL DEFAULT 0`,
		`UPDATE sessions SET model = coalesce(json_extract(CAST(settings AS TEXT), '$.model'), '') WHERE json_valid(CAST(settings AS TEXT))`,
		`UPDATE items SET updated = coalesce((SELECT coalesce(ended, started) FROM turns WHERE turns.id = items.turn_id), 0)`,
		`CREATE INDEX turns_streaming ON turns(status) WHERE status = 'streaming'`,
		// Rows: see index.go. Weights: a word in the prompt counts twice
		// one in the answer, four times one in reasoning or tool text.
		`CREATE VIRTUAL TABLE search USING fts5(
			prompt, answer, reasoning, tool, turn UNINDEXED,
			tokenize = 'porter unicode61 remove_diacritics 2'
		)`,
		`INSERT INTO search(search, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0, 1.0, 0.0)')`,
	)
}

// addBlobs adds attachment storage (blob.go): each payload once, by sha256,
// and which turns use it.
func addBlobs(tx *sql.Tx) error {
	return execAll(tx,
		`CREATE TABLE blobs (
			sha256 TEXT PRIMARY KEY, -- hex of the payload's hash
			data   BLOB NOT NULL     -- the payload: a data URL or a text part
		)`,
		`CREATE TABLE turn_blobs (
			turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
			sha256  TEXT NOT NULL,
			PRIMARY KEY (turn_id, sha256)
		)`,
		`CREATE INDEX turn_blobs_sha256 ON turn_blobs(sha256)`,
	)
}

// reindexAll fills the search index and the answer previews from the stored
// turns, oldest first so that each session's newest answer is its preview.
func reindexAll(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT id FROM turns ORDER BY session_id, seq`)
	if err != nil {
		return err
	}
	var ids []TurnID
	for rows.Next() {
		var id int64
		if rows.Scan(&id) == nil {
			ids = append(ids, TurnID(id))
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for _, id := range ids {
		if err := foldTurn(tx, id, nil); err != nil {
			return err
		}
	}
	return nil
}

// migrate brings the database to schemaVersion. It writes nothing when the
// schema is current, and refuses a newer one without writing.
func migrate(w *sql.DB, path string) error {
	v, err := userVersion(w)
	if err != nil {
		return err
	}
	if v == schemaVersion {
		return nil
	}
	if err := tooNew(path, v); err != nil {
		return err
	}
	tx, err := w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if v, err = userVersion(tx); err != nil { // another process may have migrated meanwhile
		return err
	}
	if err := tooNew(path, v); err != nil {
		return err
	}
	reindex := v >= 1 && v < 2 // the index addSearchAndOwners adds is filled at the current schema
	for ; v < schemaVersion; v++ {
		if err := migrations[v](tx); err != nil {
			return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
		}
	}
	if reindex {
		if err := reindexAll(tx); err != nil {
			return fmt.Errorf("migrate schema: fill the search index: %w", err)
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

func execAll(tx *sql.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.Exec(s); err != nil {
			return err
		}
	}
	return nil
}

func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
