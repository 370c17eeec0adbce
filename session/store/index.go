package store

import (
	"database/sql"
	"encoding/json"
	"sync"
)

// The search index (FTS5 table "search") holds one row per finished turn and
// a few per streaming one:
//
//   - while a turn streams, its prompt row (rowid -turn, written by
//     BeginTurn) and one row per item (rowid = items.id) keep even a
//     half-written answer findable. An item's row is replaced when it is
//     done, and while it streams only when its text has doubled since the
//     row was written (itemIndex): a save each second of a growing answer
//     indexes about twice its text in all, not its text once per save (a
//     40 KB answer at 200 deltas/s: 1 MB); at least the first half of a
//     streaming item is findable;
//   - when it ends (FinishTurn, recovery as interrupted, import, migration)
//     foldTurn merges them into the one row -turn, taking an item's text
//     from its row where it has one (so a finished turn has no item rows,
//     and an item without one is read from its JSON).
//
// So a finished turn is one document: bm25 ranks turns rather than items,
// and a search over n turns touches about n rows. Column "turn" is the
// turns.id of every row; Search returns one hit per turn.

// itemIndex remembers, for the items of the turns this DB streams, how
// long each item's JSON was when its search row was last written, so a
// streaming item is indexed again only when it has doubled. It is safe for
// concurrent use.
//
// Invariant: sizes holds only items of turns not yet finished by this DB
// (FinishTurn forgets a turn's); an item not in it is indexed at its next
// save.
type itemIndex struct {
	mu    sync.Mutex
	sizes map[int64]indexed // by items.id
}

type indexed struct {
	turn TurnID
	size int
}

// due reports whether item id (of turn tid) is to be indexed now, and if
// so records it: a done item always; a partial one when it was never
// indexed or has doubled since.
func (x *itemIndex) due(id int64, tid TurnID, it ItemWrite) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if last, ok := x.sizes[id]; ok && !it.Done && it.size() < 2*last.size {
		return false
	}
	x.record(id, tid, it.size())
	return true
}

// wrote records that item id's search row was written from its JSON of n
// bytes.
func (x *itemIndex) wrote(id int64, tid TurnID, n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.record(id, tid, n)
}

func (x *itemIndex) record(id int64, tid TurnID, n int) {
	if x.sizes == nil {
		x.sizes = map[int64]indexed{}
	}
	x.sizes[id] = indexed{turn: tid, size: n}
}

// current reports whether item id's search row was written from the JSON
// stored now, n bytes long: a row written before the item grew holds less
// than it.
func (x *itemIndex) current(id int64, n int) bool {
	if x == nil {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	last, ok := x.sizes[id]
	return ok && last.size == n
}

// forget drops what is remembered of turn tid's items: it ended (its rows
// fold into one).
func (x *itemIndex) forget(tid TurnID) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for id, v := range x.sizes {
		if v.turn == tid {
			delete(x.sizes, id)
		}
	}
}

// indexItem replaces the search row of one item of a streaming turn (its
// Text, else what its Raw holds) and, when the item is an answer, the
// session's preview.
func indexItem(tx *sql.Tx, id int64, tid TurnID, it ItemWrite) error {
	var t itemText
	if it.Text != nil {
		t = searchText(*it.Text)
	} else {
		t = extract(it.body().Bytes())
	}
	if _, err := tx.Exec(`DELETE FROM search WHERE rowid = ?`, id); err != nil {
		return err
	}
	if t.empty() {
		return nil
	}
	if err := insertRow(tx, id, tid, t); err != nil {
		return err
	}
	if p := previewLine(t.answer); p != "" {
		_, err := tx.Exec(`UPDATE sessions SET preview = ? WHERE id = (SELECT session_id FROM turns WHERE id = ?)`, p, int64(tid))
		return err
	}
	return nil
}

// indexTurn writes the prompt row of a turn that starts streaming: its
// prompt (or, without one, the text of its input messages) and the tool
// outputs it sends.
func indexTurn(tx *sql.Tx, tid TurnID, prompt string, input []json.RawMessage) error {
	if _, err := tx.Exec(`DELETE FROM search WHERE rowid = ?`, -int64(tid)); err != nil {
		return err
	}
	t := inputText(prompt, input)
	if t.empty() {
		return nil
	}
	return insertRow(tx, -int64(tid), tid, t)
}

// foldTurn replaces every search row of a turn with one holding all its
// text, and makes its last answer the session's preview if it is the
// session's newest turn.
//
// x vouches for the item rows this DB wrote (nil: none); any other item
// row may hold less than its item (a streaming row is written again only
// as it doubles, and a crash leaves one behind), so it is dropped and the
// item read from its JSON.
func foldTurn(tx *sql.Tx, tid TurnID, x *itemIndex) error {
	if err := dropStale(tx, tid, x); err != nil {
		return err
	}
	var prompt string
	var input []byte
	if err := tx.QueryRow(`SELECT prompt, input FROM turns WHERE id = ?`, int64(tid)).Scan(&prompt, &input); err != nil {
		return err
	}
	in, _ := splitArray(input)
	in, _ = unpackInput(tx, in)
	t := inputText(prompt, in)
	last := ""
	// An item of a streaming turn has its own row, its text as extract
	// read it (indexItem): that is taken, and its JSON, which can be as
	// long as the response limit, is not read again. Any other item (a
	// late save, an import, a migration) is read from its JSON: in place
	// from its row, or, kept in chunks, joined once the rows are read.
	rows, err := tx.Query(`SELECT i.id, i.chunked, CASE WHEN s.rowid IS NULL AND NOT i.chunked THEN i.raw END, s.rowid IS NOT NULL, s.prompt, s.answer, s.reasoning, s.tool
		FROM items i LEFT JOIN search s ON s.rowid = i.id
		WHERE i.turn_id = ? ORDER BY i.response_idx, i.output_idx`, int64(tid))
	if err != nil {
		return err
	}
	var texts []itemText
	chunked := map[int]int64{} // texts[k] is to be read from item id's chunks
	for rows.Next() {
		var id int64
		var inChunks bool
		var raw sql.RawBytes // the driver's copy, read in place: an item can be as long as the response limit
		var indexed bool
		var row [4]sql.NullString
		if rows.Scan(&id, &inChunks, &raw, &indexed, &row[0], &row[1], &row[2], &row[3]) != nil {
			continue
		}
		x := itemText{row[0].String, row[1].String, row[2].String, row[3].String}
		switch {
		case indexed:
		case inChunks:
			chunked[len(texts)] = id
		default:
			x = extract(raw)
		}
		texts = append(texts, x)
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for k, id := range chunked {
		raw, err := itemJSON(tx, id)
		if err != nil {
			return err
		}
		texts[k] = extract(raw)
	}
	for _, x := range texts {
		t.prompt = join(t.prompt, x.prompt)
		t.answer = join(t.answer, x.answer)
		t.reasoning = join(t.reasoning, x.reasoning)
		t.tool = join(t.tool, x.tool)
		if x.answer != "" {
			last = x.answer
		}
	}
	if _, err := tx.Exec(`DELETE FROM search WHERE rowid IN (SELECT id FROM items WHERE turn_id = ?)`, int64(tid)); err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM search WHERE rowid = ?`, -int64(tid)); err != nil {
		return err
	}
	if !t.empty() {
		if err := insertRow(tx, -int64(tid), tid, t); err != nil {
			return err
		}
	}
	if p := previewLine(last); p != "" {
		_, err := tx.Exec(`UPDATE sessions SET preview = ?
			WHERE id = (SELECT session_id FROM turns WHERE id = ?)
			AND (SELECT max(seq) FROM turns WHERE session_id = sessions.id) = (SELECT seq FROM turns WHERE id = ?)`,
			p, int64(tid), int64(tid))
		return err
	}
	return nil
}

// dropStale deletes the item rows of turn tid that x does not vouch for.
func dropStale(tx *sql.Tx, tid TurnID, x *itemIndex) error {
	rows, err := tx.Query(`SELECT i.id, CASE WHEN i.chunked THEN (SELECT coalesce(sum(length(data)), 0) FROM item_chunks WHERE item_id = i.id) ELSE length(i.raw) END
		FROM items i JOIN search s ON s.rowid = i.id WHERE i.turn_id = ?`, int64(tid))
	if err != nil {
		return err
	}
	var stale []int64
	for rows.Next() {
		var id int64
		var n int
		if rows.Scan(&id, &n) == nil && !x.current(id, n) {
			stale = append(stale, id)
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for _, id := range stale {
		if _, err := tx.Exec(`DELETE FROM search WHERE rowid = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// inputText is the searchable text of what a turn sent.
func inputText(prompt string, input []json.RawMessage) itemText {
	var t itemText
	for _, in := range input {
		x := extract(in)
		t.prompt = join(t.prompt, x.prompt)
		t.tool = join(t.tool, x.tool, x.answer, x.reasoning)
	}
	if p := clip(prompt); p != "" {
		// the prompt stands for the typed text; attached text files
		// count as part of it
		t.prompt = join(p, clip(attachmentText(input)))
	}
	return t
}

func insertRow(tx *sql.Tx, rowid int64, tid TurnID, t itemText) error {
	_, err := tx.Exec(`INSERT INTO search (rowid, prompt, answer, reasoning, tool, turn) VALUES (?, ?, ?, ?, ?, ?)`,
		rowid, t.prompt, t.answer, t.reasoning, t.tool, int64(tid))
	return err
}
