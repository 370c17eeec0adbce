package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"runnel/stream"
)

// NewSession is what CreateSession stores.
type NewSession struct {
	Title    string          // "" takes the first prompt (one line, at most 80 runes)
	Settings json.RawMessage // a JSON object (model, instructions, reasoning, tools); secret-looking values are redacted
}

// ItemWrite is one item for SaveItems.
type ItemWrite struct {
	Response int             // response index within the turn, from 0
	Output   int             // output_index within the response, from 0
	Raw      json.RawMessage // the item's JSON object, stored byte for byte
	// JSON, when set, is the item's JSON instead of Raw: a long one is
	// written a chunk at a time from it (chunks.go), never built whole.
	// It is trusted to be an object, as stream.Item.Encoded makes it.
	JSON *stream.ItemJSON
	Done bool // output_item.done (or the terminal response) delivered it whole
	// Text, when set, is the item's searchable text as
	// stream.KindFor(type).Text reads the item Raw was made from: the
	// search index takes it rather than decoding Raw again, which for an
	// answer as long as the response limit would hold its text several
	// times over. nil: the index reads Raw.
	Text *stream.Searchable
}

// itemKey names an item within a turn: its response and output indexes.
type itemKey struct{ response, output int }

// TurnEnd is how a turn ended, for FinishTurn.
type TurnEnd struct {
	ResponseIDs []string        // in response order; "" where an id never arrived
	Status      Status          // completed, incomplete, failed or stopped
	Usage       json.RawMessage // as received (or summed by the caller); nil for none
	Error       string          // what ended a failed turn, one line
	Items       []ItemWrite     // the turn's last item writes, saved with its end (as SaveItems would, indexed once, folded)
}

// CreateSession stores a new session and returns its id.
func (db *DB) CreateSession(s NewSession) (SessionID, error) {
	settings, err := redactSettings(db.secrets.JSON(s.Settings))
	if err != nil {
		return "", db.fail("create session", err)
	}
	now := db.now()
	var id SessionID
	err = db.write("create session", func(tx *sql.Tx) error {
		for try := 0; try < 32; try++ {
			id = newSessionID(now)
			res, err := tx.Exec(`INSERT INTO sessions (id, title, created, updated, settings, model, provider)
				VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
				string(id), title(s.Title), ms(now), ms(now), string(settings), modelOf(settings), providerOf(settings))
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				return nil
			}
		}
		return errors.New("no free session id this second")
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// SetTitle renames a session ("" lets the next prompt name it).
func (db *DB) SetTitle(id SessionID, t string) error {
	return db.updateSession(id, `UPDATE sessions SET title = ? WHERE id = ?`, title(db.secrets.String(t)), string(id))
}

// SetSettings replaces a session's settings (e.g. after a model switch).
func (db *DB) SetSettings(id SessionID, settings json.RawMessage) error {
	s, err := redactSettings(db.secrets.JSON(settings))
	if err != nil {
		return db.fail("update session", err)
	}
	return db.updateSession(id, `UPDATE sessions SET settings = ?, model = ?, provider = ?, updated = ? WHERE id = ?`,
		string(s), modelOf(s), providerOf(s), ms(db.now()), string(id))
}

// SetCompacted records the compacted window /compact answered with for
// session id, which its next request sends instead of the chain; nil
// clears it. Secrets are redacted as in a turn's input.
func (db *DB) SetCompacted(id SessionID, window []json.RawMessage) error {
	var arg any
	if len(window) > 0 {
		arr, err := joinObjects("compacted", db.redactAll(window))
		if err != nil {
			return db.fail("update session", err)
		}
		arg = arr
	}
	return db.updateSession(id, `UPDATE sessions SET compacted = ?, updated = ? WHERE id = ?`, arg, ms(db.now()), string(id))
}

func (db *DB) updateSession(id SessionID, query string, args ...any) error {
	return db.write("update session", func(tx *sql.Tx) error {
		res, err := tx.Exec(query, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(id)
		}
		return nil
	})
}

// BeginTurn stores a turn as the request is sent, with status streaming, and
// names the session after prompt if it has no title yet. The turn follows
// the session's tip (SetTip; its last turn when none was set) and becomes
// the tip. input is stored
// byte for byte; each element must be a JSON object.
func (db *DB) BeginTurn(sid SessionID, prompt string, input []json.RawMessage, previousResponseID string) (TurnID, error) {
	prompt, input = db.secrets.String(prompt), db.redactAll(input)
	packed, blobs := packInput(input)
	arr, err := joinObjects("input", packed)
	if err != nil {
		return 0, db.fail("begin turn", err)
	}
	now := ms(db.now())
	var tid TurnID
	err = db.write("begin turn", func(tx *sql.Tx) error {
		var seq int
		var tip sql.NullInt64
		err := tx.QueryRow(`SELECT (SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session_id = s.id), s.tip
			FROM sessions s WHERE s.id = ?`, string(sid)).Scan(&seq, &tip)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(sid)
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(`INSERT INTO turns (session_id, seq, prompt, input, previous_response_id, status, started, owner, parent)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			string(sid), seq, prompt, arr, previousResponseID, string(StatusStreaming), now, db.owner, parentColumn(tip, seq))
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		tid = TurnID(id)
		if err := saveBlobs(tx, tid, blobs); err != nil {
			return err
		}
		name := title(prompt)
		if name == "" {
			name = title(attachmentNames(input)) // a message of files only
		}
		if name == "" {
			name = title(extractPrompt(input))
		}
		if _, err := tx.Exec(`UPDATE sessions SET updated = ?, tip = NULL, title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?`,
			now, name, string(sid)); err != nil {
			return err
		}
		return indexTurn(tx, tid, prompt, input)
	})
	if err != nil {
		return 0, err
	}
	return tid, nil
}

// redactAll hides the secrets in JSON values.
func (db *DB) redactAll(raws []json.RawMessage) []json.RawMessage {
	if db.secrets.Len() == 0 {
		return raws
	}
	out := make([]json.RawMessage, len(raws))
	for i, r := range raws {
		out[i] = db.secrets.JSON(r)
	}
	return out
}

// SaveItems stores output items of a turn in one transaction, each
// replacing what was stored at its (Response, Output): a partial item (Done
// false) while it streams, the whole item when it is done. A partial never
// replaces a done item. Each Raw must be a JSON object; it is stored byte for
// byte and indexed for Search (its Text, when given, is indexed instead of
// what Raw holds; a partial one only as it doubles: see index.go).
// session.Journal calls it for each batch.
func (db *DB) SaveItems(tid TurnID, items []ItemWrite) error {
	items, err := db.checkItems(items)
	if err != nil {
		return db.fail("save item", err)
	}
	if len(items) == 0 {
		return nil
	}
	now := ms(db.now())
	return db.write("save item", func(tx *sql.Tx) error {
		var status string
		if err := tx.QueryRow(`SELECT status FROM turns WHERE id = ?`, int64(tid)).Scan(&status); errors.Is(err, sql.ErrNoRows) {
			return badInput("turn %d does not exist (deleted?)", tid)
		} else if err != nil {
			return err
		}
		streaming := Status(status) == StatusStreaming
		for _, it := range items {
			id, ok, err := upsertItem(tx, tid, it, now)
			if err != nil {
				return err
			}
			if !ok || !streaming || !db.index.due(id, tid, it) {
				continue // kept the done one; folded below; or indexed recently enough
			}
			if err := indexItem(tx, id, tid, it); err != nil {
				return err
			}
		}
		if !streaming {
			return foldTurn(tx, tid, nil) // a late save to a finished turn
		}
		return nil
	})
}

// checkItems validates items for a write and returns them with secrets
// hidden.
func (db *DB) checkItems(items []ItemWrite) ([]ItemWrite, error) {
	for i, it := range items {
		if it.Response < 0 || it.Output < 0 {
			return nil, badInput("item %d: negative index (response %d, output %d)", i, it.Response, it.Output)
		}
		if it.JSON != nil { // an object by construction, unless a value in it does not encode
			if it.JSON.Len() == 0 {
				return nil, badInput("item %d (response %d, output %d): its JSON does not encode", i, it.Response, it.Output)
			}
			continue
		}
		if err := checkObject(it.Raw); err != nil {
			return nil, badInput("item %d (response %d, output %d): %v", i, it.Response, it.Output, err)
		}
	}
	if db.secrets.Len() > 0 {
		items = slices.Clone(items)
		for i := range items {
			if items[i].JSON != nil {
				items[i].JSON = items[i].JSON.Redact(db.secrets)
			} else {
				items[i].Raw = db.secrets.JSON(items[i].Raw)
			}
			if t := items[i].Text; t != nil {
				items[i].Text = &stream.Searchable{Prompt: db.secrets.String(t.Prompt), Answer: db.secrets.String(t.Answer),
					Reasoning: db.secrets.String(t.Reasoning), Tool: db.secrets.String(t.Tool)}
			}
		}
	}
	return items, nil
}

// FinishTurn records how a turn ended.
func (db *DB) FinishTurn(tid TurnID, f TurnEnd) error {
	if !f.Status.final() {
		return db.fail("finish turn", badInput("turn %d: status %q cannot end a turn (want completed, incomplete, failed or stopped)", tid, f.Status))
	}
	var usage []byte
	if u := bytes.TrimSpace(f.Usage); len(u) > 0 && string(u) != "null" {
		if !json.Valid(u) {
			return db.fail("finish turn", badInput("turn %d: usage is not JSON", tid))
		}
		usage = u
	}
	ids := f.ResponseIDs
	if ids == nil {
		ids = []string{}
	}
	idsJSON, _ := json.Marshal(ids)
	f.Error = db.secrets.String(f.Error)
	items, err := db.checkItems(f.Items)
	if err != nil {
		return db.fail("finish turn", err)
	}
	now := ms(db.now())
	defer db.index.forget(tid)
	return db.write("finish turn", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE turns SET status = ?, response_ids = ?, usage = ?, error = ?, ended = ? WHERE id = ?`,
			string(f.Status), string(idsJSON), usage, f.Error, now, int64(tid))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return badInput("turn %d does not exist (deleted?)", tid)
		}
		for _, it := range items {
			id, ok, err := upsertItem(tx, tid, it, now)
			if err != nil {
				return err
			}
			if ok && it.Text != nil { // the fold takes this row: the item's own text, not its JSON read again
				if err := indexItem(tx, id, tid, it); err != nil {
					return err
				}
				db.index.wrote(id, tid, it.size())
			}
		}
		if _, err = tx.Exec(`UPDATE sessions SET updated = ? WHERE id = (SELECT session_id FROM turns WHERE id = ?)`, now, int64(tid)); err != nil {
			return err
		}
		return foldTurn(tx, tid, &db.index)
	})
}

// Delete removes a session with its turns, items and search rows.
func (db *DB) Delete(id SessionID) error {
	return db.write("delete", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM search WHERE rowid IN (
				SELECT i.id FROM items i JOIN turns t ON t.id = i.turn_id WHERE t.session_id = ?
				UNION ALL SELECT -id FROM turns WHERE session_id = ?)`, string(id), string(id)); err != nil {
			return err
		}
		res, err := tx.Exec(`DELETE FROM sessions WHERE id = ?`, string(id))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(id)
		}
		return dropUnusedBlobs(tx)
	})
}

// sweep marks interrupted the turns still streaming whose process is gone,
// ending them at their last item save. It writes only when there are some.
func (db *DB) sweep() error {
	rows, err := db.r.Query(`SELECT id, owner FROM turns WHERE status = 'streaming'`)
	if err != nil {
		return err
	}
	var dead []int64
	for rows.Next() {
		var id int64
		var owner string
		if rows.Scan(&id, &owner) == nil && !db.alive(owner) {
			dead = append(dead, id)
		}
	}
	if err := closeRows(rows); err != nil || len(dead) == 0 {
		return err
	}
	return db.write("recover", func(tx *sql.Tx) error {
		for _, id := range dead {
			if _, err := tx.Exec(`UPDATE turns SET status = 'interrupted',
				ended = coalesce((SELECT max(updated) FROM items WHERE turn_id = turns.id AND updated > 0), started)
				WHERE id = ? AND status = 'streaming'`, id); err != nil {
				return err
			}
			if err := foldTurn(tx, TurnID(id), nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// write runs fn in one IMMEDIATE transaction and wraps any failure for op.
func (db *DB) write(op string, fn func(tx *sql.Tx) error) error {
	if err := db.stillThere(); err != nil {
		return db.fail(op, err)
	}
	defer db.noteSidecars()
	tx, err := db.w.Begin()
	if err != nil {
		return db.fail(op, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return db.fail(op, err)
	}
	if err := tx.Commit(); err != nil {
		tx.Rollback()
		return db.fail(op, err)
	}
	return nil
}

func (db *DB) fail(op string, err error) error { return wrap(op, db.path, db.busy, err) }

func notFound(id SessionID) error {
	return &Error{Kind: ErrNotFound, Detail: fmt.Sprintf("no session %q", string(id))}
}

// checkObject reports why raw is not a JSON object.
func checkObject(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		return errors.New("not valid JSON")
	}
	if raw[0] != '{' {
		return fmt.Errorf("want a JSON object, got %s", kind(raw))
	}
	return nil
}

// joinObjects returns items as one JSON array, each element byte for byte.
func joinObjects(what string, items []json.RawMessage) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if err := checkObject(it); err != nil {
			return nil, badInput("%s[%d]: %v", what, i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// extractPrompt is the text of the input's messages, for a title when the
// turn has no typed prompt.
func extractPrompt(input []json.RawMessage) string {
	for _, in := range input {
		if t := extract(in); t.prompt != "" {
			return t.prompt
		}
	}
	return ""
}

func modelOf(settings json.RawMessage) string {
	var s struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(settings, &s)
	return title(s.Model)
}

// providerOf is the settings' "provider": the name of the provider the
// session talks to, "" when they name none.
func providerOf(settings json.RawMessage) string {
	var s struct {
		Provider string `json:"provider"`
	}
	_ = json.Unmarshal(settings, &s)
	return title(s.Provider)
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// SetInput replaces a turn's stored input items: a tool round records its
// calls' outputs as they run (a call still running has status
// "in_progress"), so that a process killed mid-round leaves them behind.
// Each element must be a JSON object.
func (db *DB) SetInput(tid TurnID, input []json.RawMessage) error {
	input = db.redactAll(input)
	packed, blobs := packInput(input)
	arr, err := joinObjects("input", packed)
	if err != nil {
		return db.fail("set input", err)
	}
	return db.write("set input", func(tx *sql.Tx) error {
		var prompt, status string
		err := tx.QueryRow(`SELECT prompt, status FROM turns WHERE id = ?`, int64(tid)).Scan(&prompt, &status)
		if errors.Is(err, sql.ErrNoRows) {
			return badInput("turn %d does not exist (deleted?)", tid)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE turns SET input = ? WHERE id = ?`, arr, int64(tid)); err != nil {
			return err
		}
		if err := saveBlobs(tx, tid, blobs); err != nil {
			return err
		}
		if err := dropUnusedBlobs(tx); err != nil {
			return err
		}
		if Status(status) == StatusStreaming {
			return indexTurn(tx, tid, prompt, input)
		}
		return foldTurn(tx, tid, nil)
	})
}

// SetRuns records how runnel's own runs of turn tid's calls ended: the
// caller's JSON object (session/tools' record, by call_id), replacing what
// was recorded before. It holds codes and durations, no text of the calls.
func (db *DB) SetRuns(tid TurnID, runs json.RawMessage) error {
	if _, err := object("runs", runs); err != nil {
		return db.fail("save tool runs", &Error{Kind: ErrBadInput, Detail: err.Error()})
	}
	return db.write("save tool runs", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE turns SET runs = ? WHERE id = ?`, []byte(runs), int64(tid))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return badInput("turn %d does not exist (deleted?)", tid)
		}
		return nil
	})
}

// SetBackground records the background response turn tid streams and the
// last sequence number its stored items hold.
func (db *DB) SetBackground(tid TurnID, id string, after int64) error {
	return db.write("save background response", func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE turns SET background_id = ?, background_seq = ? WHERE id = ?`, id, after, int64(tid))
		return err
	})
}
