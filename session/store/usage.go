package store

import "encoding/json"

// TurnUsages returns the usage of every finished turn of session id, in
// turn order, as FinishTurn stored it (JSON; turns without usage are left
// out). `runnel sessions` prices them.
func (db *DB) TurnUsages(id SessionID) ([]json.RawMessage, error) {
	rows, err := db.r.Query(`SELECT usage FROM turns WHERE session_id = ? AND usage IS NOT NULL ORDER BY seq`, string(id))
	if err != nil {
		return nil, db.fail("usage", err)
	}
	var out []json.RawMessage
	for rows.Next() {
		var u []byte
		if rows.Scan(&u) != nil || !json.Valid(u) {
			continue // a damaged row: that turn has no usage
		}
		out = append(out, json.RawMessage(u))
	}
	if err := closeRows(rows); err != nil {
		return nil, db.fail("usage", err)
	}
	return out, nil
}
