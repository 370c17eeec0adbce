package store

import (
	"database/sql"
	"encoding/json"
)

// The search index (FTS5 table "search") holds one row per finished turn and
// a few per streaming one:
//
//   - while a turn streams, its prompt row (rowid -turn, written by
//     BeginTurn) and one row per item (rowid = items.id, replaced at each
//     save) keep even a half-written answer findable, at the cost of one
//     item's text per save;
//   - when it ends (FinishTurn, recovery as interrupted, import, migration)
//     foldTurn merges them into the one row -turn, taking an item's text
//     from its row where it has one (so a finished turn has no item rows,
//     and an item without one is read from its JSON).
//
// So a finished turn is one document: bm25 ranks turns rather than items,
// and a search over n turns touches about n rows. Column "turn" is the
// turns.id of every row; Search returns one hit per turn.

// indexItem replaces the search row of one item of a streaming turn (its
// Text, else what its Raw holds) and, when the item is an answer, the
// session's preview.
func indexItem(tx *sql.Tx, id int64, tid TurnID, it ItemWrite) error {
	var t itemText
	if it.Text != nil {
		t = searchText(*it.Text)
	} else {
		t = extract(it.Raw)
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
func foldTurn(tx *sql.Tx, tid TurnID) error {
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
	// late save, an import, a migration) is read from its JSON.
	rows, err := tx.Query(`SELECT CASE WHEN s.rowid IS NULL THEN i.raw END, s.rowid IS NOT NULL, s.prompt, s.answer, s.reasoning, s.tool
		FROM items i LEFT JOIN search s ON s.rowid = i.id
		WHERE i.turn_id = ? ORDER BY i.response_idx, i.output_idx`, int64(tid))
	if err != nil {
		return err
	}
	for rows.Next() {
		var raw sql.RawBytes // the driver's copy, read in place: an item can be as long as the response limit
		var indexed bool
		var row [4]sql.NullString
		if rows.Scan(&raw, &indexed, &row[0], &row[1], &row[2], &row[3]) != nil {
			continue
		}
		x := itemText{row[0].String, row[1].String, row[2].String, row[3].String}
		if !indexed {
			x = extract(raw)
		}
		t.prompt = join(t.prompt, x.prompt)
		t.answer = join(t.answer, x.answer)
		t.reasoning = join(t.reasoning, x.reasoning)
		t.tool = join(t.tool, x.tool)
		if x.answer != "" {
			last = x.answer
		}
	}
	if err := closeRows(rows); err != nil {
		return err
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
