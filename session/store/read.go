package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// List returns up to limit sessions (all when limit <= 0), most recently
// updated (or imported: Import) first. Sessions with no turns are listed too: nothing is hidden.
func (db *DB) List(limit int) ([]SessionInfo, error) {
	if limit <= 0 {
		limit = -1
	}
	_ = db.sweep() // best effort: a failure leaves a dead turn "streaming" until the next look
	rows, err := db.r.Query(`SELECT s.id, s.title, s.model, s.provider, s.created, s.updated, s.preview,
			`+userTurnsSQL+`
		FROM sessions s ORDER BY max(s.updated, s.imported) DESC, s.id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, db.fail("list", err)
	}
	var out []SessionInfo
	for rows.Next() {
		var in sessionRow
		if err := rows.Scan(&in.id, &in.title, &in.model, &in.provider, &in.created, &in.updated, &in.preview, &in.turns); err != nil {
			continue // only a row whose id cannot be read: there is nothing to show or open
		}
		out = append(out, in.info())
	}
	if err := closeRows(rows); err != nil {
		return nil, db.fail("list", err)
	}
	return out, nil
}

// sessionRow scans a sessions row leniently: a damaged field reads as empty
// rather than hiding the session.
type sessionRow struct {
	id                      string
	title, model, preview   anyValue
	provider                anyValue
	created, updated, turns anyValue
}

func (r sessionRow) info() SessionInfo {
	return SessionInfo{
		ID: SessionID(r.id), Title: title(r.title.text()), Turns: int(r.turns.int()), Model: title(r.model.text()), Provider: title(r.provider.text()),
		Created: fromMS(r.created.int()), Updated: fromMS(r.updated.int()), Preview: previewLine(r.preview.text()),
	}
}

// anyValue is a column value of any type, read as text or integer on demand.
type anyValue struct{ v any }

func (l *anyValue) Scan(v any) error {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	l.v = v
	return nil
}

func (l anyValue) text() string {
	if s, ok := l.v.(string); ok {
		return s
	}
	return ""
}

func (l anyValue) int() int64 {
	if n, ok := l.v.(int64); ok {
		return n
	}
	return 0
}

// Latest returns the most recently updated (or imported) session, the
// first List gives; ErrNotFound when there is none.
func (db *DB) Latest() (SessionID, error) {
	var id string
	err := db.r.QueryRow(`SELECT id FROM sessions ORDER BY max(updated, imported) DESC, id DESC LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", &Error{Kind: ErrNotFound, Detail: "no saved sessions yet"}
	}
	if err != nil {
		return "", db.fail("latest", err)
	}
	return SessionID(id), nil
}

// Resolve turns a session id or a unique prefix of one (any case) into the
// id. No match is ErrNotFound; several are ErrAmbiguous, listing them.
func (db *DB) Resolve(idOrPrefix string) (SessionID, error) {
	p := strings.ToLower(strings.TrimSpace(idOrPrefix))
	if p == "" {
		return "", &Error{Kind: ErrNotFound, Detail: "no session id given"}
	}
	const show = 5
	rows, err := db.r.Query(`SELECT id, title FROM sessions WHERE id >= ? AND id < ? ORDER BY id DESC LIMIT ?`,
		p, p+"\x7f", show+1)
	if err != nil {
		return "", db.fail("resolve", err)
	}
	type match struct{ id, title string }
	var ms []match
	for rows.Next() {
		var m match
		if rows.Scan(&m.id, &m.title) == nil {
			ms = append(ms, m)
		}
	}
	if err := closeRows(rows); err != nil {
		return "", db.fail("resolve", err)
	}
	for _, m := range ms {
		if m.id == p {
			return SessionID(m.id), nil
		}
	}
	switch len(ms) {
	case 0:
		return "", &Error{Kind: ErrNotFound, Detail: fmt.Sprintf("no session matches %q", p)}
	case 1:
		return SessionID(ms[0].id), nil
	}
	names := make([]string, 0, show)
	for i, m := range ms {
		if i == show {
			names = append(names, "…")
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", m.id, cut(title(m.title), 30)))
	}
	return "", &Error{Kind: ErrAmbiguous, Detail: fmt.Sprintf("%q matches several sessions: %s; type more of the id", p, strings.Join(names, ", "))}
}

// Load reads a whole session. A turn or item row that does not decode is
// skipped and reported in the warnings; the rest loads. The error is for a
// session that does not exist or a database that cannot be read.
func (db *DB) Load(id SessionID) (*Session, []error, error) {
	var warn []error
	if err := db.sweep(); err != nil {
		warn = append(warn, fmt.Errorf("could not mark dead turns interrupted: %w", err))
	}
	tx, err := db.r.Begin() // one snapshot for all three reads
	if err != nil {
		return nil, nil, db.fail("load", err)
	}
	defer tx.Rollback()

	var in sessionRow
	var settings anyValue
	var compacted []byte
	var tip sql.NullInt64
	var imported anyValue
	err = tx.QueryRow(`SELECT s.id, s.title, s.model, s.provider, s.created, s.updated, s.preview, s.settings, s.compacted, s.tip, s.imported,
			`+userTurnsSQL+`
		FROM sessions s WHERE s.id = ?`, string(id)).
		Scan(&in.id, &in.title, &in.model, &in.provider, &in.created, &in.updated, &in.preview, &settings, &compacted, &tip, &imported, &in.turns)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound(id)
	}
	if err != nil {
		return nil, nil, db.fail("load", err)
	}
	s := &Session{Info: in.info(), Settings: json.RawMessage(settings.text())}
	s.Imported = imported.int() > in.updated.int() // imported, and not continued since
	if !json.Valid(s.Settings) {
		warn = append(warn, errors.New("settings are not valid JSON; ignored"))
		s.Settings = json.RawMessage("{}")
	}
	if len(compacted) > 0 {
		if s.Compacted, err = splitArray(compacted); err != nil {
			warn = append(warn, errors.New("the compacted window is not a JSON array; ignored"))
			s.Compacted = nil
		}
	}

	turns, w, err := loadTurns(tx, id)
	if err != nil {
		return nil, nil, db.fail("load", err)
	}
	warn = append(warn, w...)
	byID := make(map[TurnID]*Turn, len(turns))
	for i := range turns {
		byID[turns[i].ID] = &turns[i]
	}
	w, err = loadItems(tx, id, byID)
	if err != nil {
		return nil, nil, db.fail("load", err)
	}
	warn = append(warn, w...)
	at := -1 // the last turn
	if tip.Valid {
		at = int(tip.Int64)
	}
	s.Turns, s.Off = splitPath(turns, at)
	return s, warn, nil
}

func loadTurns(tx *sql.Tx, id SessionID) ([]Turn, []error, error) {
	rows, err := tx.Query(`SELECT id, seq, prompt, input, previous_response_id, response_ids, status, usage, error, started, ended, background_id, background_seq, runs, parent
		FROM turns WHERE session_id = ? ORDER BY seq`, string(id))
	if err != nil {
		return nil, nil, err
	}
	var turns []Turn
	var warn []error
	parents := map[int]sql.NullInt64{}
	n := 0
	for rows.Next() {
		n++
		var (
			t           Turn
			input, ids  []byte
			status      string
			usage, runs []byte
			ended       sql.NullInt64
			started     int64
			tid, seq    int64
			prompt, prv string
			errText     string
			parent      sql.NullInt64
		)
		if err := rows.Scan(&tid, &seq, &prompt, &input, &prv, &ids, &status, &usage, &errText, &started, &ended, &t.Background.ID, &t.Background.After, &runs, &parent); err != nil {
			warn = append(warn, fmt.Errorf("turn row %d: %v; skipped", n, err))
			continue
		}
		t.ID, t.Seq, t.Prompt, t.PreviousResponseID, t.Status, t.Error = TurnID(tid), int(seq), prompt, prv, Status(status), errText
		t.Started, t.Ended = fromMS(started), fromMS(ended.Int64)
		if t.Input, err = splitArray(input); err != nil {
			warn = append(warn, fmt.Errorf("turn %d: stored input is not a JSON array; turn skipped", seq))
			continue
		}
		if len(ids) > 0 && json.Unmarshal(ids, &t.ResponseIDs) != nil {
			warn = append(warn, fmt.Errorf("turn %d: stored response ids are not a JSON array of strings; turn skipped", seq))
			continue
		}
		if len(usage) > 0 {
			if !json.Valid(usage) {
				warn = append(warn, fmt.Errorf("turn %d: stored usage is not JSON; usage dropped", seq))
			} else {
				t.Usage = usage
			}
		}
		if len(runs) > 0 {
			if _, err := object("runs", runs); err != nil {
				warn = append(warn, fmt.Errorf("turn %d: stored tool runs are not a JSON object; their outcomes read as unknown", seq))
			} else {
				t.Runs = runs
			}
		}
		parents[t.Seq] = parent
		turns = append(turns, t)
	}
	if err := closeRows(rows); err != nil {
		return nil, nil, err
	}
	resolveParents(turns, parents)
	for i := range turns {
		var w []error
		turns[i].Input, w = unpackInput(tx, turns[i].Input)
		for _, e := range w {
			warn = append(warn, fmt.Errorf("turn %d: %w", turns[i].Seq, e))
		}
	}
	return turns, warn, nil
}

func loadItems(tx *sql.Tx, id SessionID, byID map[TurnID]*Turn) ([]error, error) {
	rows, err := tx.Query(`SELECT i.id, i.turn_id, i.response_idx, i.output_idx, i.raw, i.chunked, i.done
		FROM items i JOIN turns t ON t.id = i.turn_id
		WHERE t.session_id = ? ORDER BY t.seq, i.response_idx, i.output_idx`, string(id))
	if err != nil {
		return nil, err
	}
	type row struct {
		id, tid, resp, out int64
		raw                []byte
		chunked, done      bool
	}
	var read []row
	var warn []error
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.tid, &r.resp, &r.out, &r.raw, &r.chunked, &r.done); err != nil {
			warn = append(warn, fmt.Errorf("item row (turn id %d): %v; skipped", r.tid, err))
			continue
		}
		read = append(read, r)
	}
	if err := closeRows(rows); err != nil {
		return warn, err
	}
	for _, row := range read {
		t := byID[TurnID(row.tid)]
		if t == nil {
			continue // its turn was skipped, and reported
		}
		raw := row.raw
		if row.chunked { // kept in chunks (chunks.go): joined once the rows are read
			if raw, err = itemJSON(tx, row.id); err != nil {
				return warn, err
			}
		}
		if err := checkObject(raw); err != nil {
			warn = append(warn, fmt.Errorf("turn %d, response %d, item %d: stored item: %v; skipped", t.Seq, row.resp, row.out, err))
			continue
		}
		r := responseAt(t, int(row.resp))
		r.Items = append(r.Items, Item{OutputIndex: int(row.out), Raw: raw, Done: row.done})
	}
	for _, t := range byID {
		for i := range t.ResponseIDs {
			responseAt(t, i)
		}
		for i := range t.Responses {
			if r := &t.Responses[i]; r.Index < len(t.ResponseIDs) {
				r.ID = t.ResponseIDs[r.Index]
			}
		}
	}
	return warn, nil
}

// responseAt returns the turn's response with index i, adding it in order
// when missing.
func responseAt(t *Turn, i int) *Response {
	j := len(t.Responses)
	for j > 0 && t.Responses[j-1].Index >= i {
		if t.Responses[j-1].Index == i {
			return &t.Responses[j-1]
		}
		j--
	}
	t.Responses = append(t.Responses, Response{})
	copy(t.Responses[j+1:], t.Responses[j:])
	t.Responses[j] = Response{Index: i}
	return &t.Responses[j]
}
