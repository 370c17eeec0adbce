package store

// Prompts returns up to limit distinct prompts the user sent, in any
// session, newest first (a prompt sent twice counts once, at its latest
// use): the chat's ↑ history and its history search. Tool-result rounds,
// which have no prompt, are left out.
func (db *DB) Prompts(limit int) ([]string, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.r.Query(`SELECT prompt FROM turns WHERE prompt <> ''
		GROUP BY prompt ORDER BY max(started) DESC, max(id) DESC LIMIT ?`, limit)
	if err != nil {
		return nil, db.fail("read prompts", err)
	}
	var out []string
	for rows.Next() {
		var p anyValue
		if rows.Scan(&p) == nil && p.text() != "" {
			out = append(out, p.text())
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, db.fail("read prompts", err)
	}
	return out, nil
}
