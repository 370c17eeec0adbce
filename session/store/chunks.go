package store

// An item's JSON longer than chunkBytes (an answer as long as the response
// limit allows) is not kept in its items row but in rows of item_chunks,
// each at most chunkBytes, in seq order; its items row then says chunked
// and keeps an empty raw. It is written from the item's encoder a chunk
// at a time (ItemWrite.JSON, stream.ItemJSON.WriteTo), so that a save
// never holds the whole JSON: not in the process, not in the driver's copy
// of a bound value, not in SQLite's. Reading joins the chunks back
// (itemJSON), so every reader of an item (Load, and through it a resume,
// an export, a rebuilt input) gets it whole as before; the search index
// still takes an item's first stream.SearchTextBytes of text (index.go).

import (
	"database/sql"
	"encoding/json"
	"errors"

	"runnel/stream"
)

// chunkBytes is the most an item's JSON holds in one row: longer JSON goes
// to item_chunks in pieces of this size.
const chunkBytes = 1 << 20

// body is the item's JSON to write: JSON when given, else Raw.
func (it ItemWrite) body() *stream.ItemJSON {
	if it.JSON != nil {
		return it.JSON
	}
	return stream.RawItemJSON(it.Raw)
}

// size is the length of the item's JSON.
func (it ItemWrite) size() int { return it.body().Len() }

// upsertItem writes one item of turn tid and returns its row id; ok is
// false when it was not written: a partial that arrived after the done
// item, which is kept. JSON longer than chunkBytes is written in chunks.
func upsertItem(tx *sql.Tx, tid TurnID, it ItemWrite, now int64) (id int64, ok bool, err error) {
	body := it.body()
	chunked := body.Len() > chunkBytes
	raw := []byte{}
	if !chunked {
		raw = body.Bytes()
	}
	err = tx.QueryRow(`INSERT INTO items (turn_id, response_idx, output_idx, raw, done, updated, chunked)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (turn_id, response_idx, output_idx) DO UPDATE
			SET raw = excluded.raw, done = excluded.done, updated = excluded.updated, chunked = excluded.chunked
			WHERE items.done = 0 OR excluded.done = 1
		RETURNING id`,
		int64(tid), it.Response, it.Output, raw, it.Done, now, chunked).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if _, err := tx.Exec(`DELETE FROM item_chunks WHERE item_id = ?`, id); err != nil {
		return 0, false, err
	}
	if chunked {
		w := &chunkWriter{tx: tx, id: id, buf: make([]byte, 0, chunkBytes)}
		if _, err := body.WriteTo(w); err != nil {
			return 0, false, err
		}
		if err := w.flush(); err != nil {
			return 0, false, err
		}
	}
	return id, true, nil
}

// chunkWriter writes what is written to it as the chunks of item id, each
// chunkBytes long but the last.
type chunkWriter struct {
	tx  *sql.Tx
	id  int64
	seq int
	buf []byte
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), chunkBytes-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) == chunkBytes {
			if err := w.flush(); err != nil {
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// flush writes what is buffered as the next chunk.
func (w *chunkWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.tx.Exec(`INSERT INTO item_chunks (item_id, seq, data) VALUES (?, ?, ?)`, w.id, w.seq, w.buf)
	w.seq++
	w.buf = w.buf[:0]
	return err
}

// itemJSON reads back the JSON of chunked item id whole, in a buffer of
// exactly its size. A chunk lost from the file leaves JSON that does not
// parse, which the reader reports as it would a damaged item.
func itemJSON(tx *sql.Tx, id int64) (json.RawMessage, error) {
	var n int64
	if err := tx.QueryRow(`SELECT coalesce(sum(length(data)), 0) FROM item_chunks WHERE item_id = ?`, id).Scan(&n); err != nil {
		return nil, err
	}
	rows, err := tx.Query(`SELECT data FROM item_chunks WHERE item_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, n)
	for rows.Next() {
		var b sql.RawBytes // the driver's copy, read in place
		if err := rows.Scan(&b); err != nil {
			rows.Close()
			return nil, err
		}
		buf = append(buf, b...)
	}
	return buf, closeRows(rows)
}

// addItemChunks adds item_chunks, where an item's JSON longer than
// chunkBytes is kept in pieces (chunks.go), and the items column that says
// an item is kept so. Items stored before are whole in their rows and read
// as before.
func addItemChunks(tx *sql.Tx) error {
	return execAll(tx,
		`ALTER TABLE items ADD COLUMN chunked INTEGER NOT NULL DEFAULT 0`,
		`CREATE TABLE item_chunks (
			item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
			seq     INTEGER NOT NULL, -- 0, 1, … in the JSON's order
			data    BLOB NOT NULL,    -- at most chunkBytes of the item's JSON
			PRIMARY KEY (item_id, seq)
		)`,
	)
}
