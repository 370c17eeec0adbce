package store

// This file is a session's branches: an edited prompt (or one sent after
// /undo) starts a new turn beside the one it replaces, so a session is a
// tree of turns. Each turn names its parent by seq (the column is NULL when
// the parent is the turn just before it, as for every turn of a session
// that never branched), and the session names its tip: the turn the
// conversation continues from (NULL: the last turn). Load gives the path
// from the root to the tip as Turns and every other turn as Off.

import (
	"database/sql"
	"sort"
)

// parentColumn is what BeginTurn stores as the parent of turn seq given the
// session's tip: NULL when it follows the turn before it.
func parentColumn(tip sql.NullInt64, seq int) any {
	if !tip.Valid || tip.Int64 == int64(seq-1) {
		return nil
	}
	return tip.Int64
}

// SetTip makes turn tid the one the session continues from: the next turn
// (BeginTurn) follows it, and Load shows the path that ends at it. tid 0
// is the root: the next turn starts a branch of its own.
func (db *DB) SetTip(sid SessionID, tid TurnID) error {
	return db.write("set tip", func(tx *sql.Tx) error {
		var tip any
		if tid != 0 {
			var seq, last int64
			err := tx.QueryRow(`SELECT seq, (SELECT max(seq) FROM turns WHERE session_id = ?) FROM turns WHERE id = ? AND session_id = ?`,
				string(sid), int64(tid), string(sid)).Scan(&seq, &last)
			if err != nil {
				return err
			}
			if seq != last {
				tip = seq
			}
		} else {
			tip = 0
		}
		res, err := tx.Exec(`UPDATE sessions SET tip = ? WHERE id = ?`, tip, string(sid))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(sid)
		}
		return nil
	})
}

// resolveParents fills each turn's Parent from its stored column: NULL (or
// a parent that is not an earlier turn) is the turn before it.
func resolveParents(turns []Turn, stored map[int]sql.NullInt64) {
	have := make(map[int]bool, len(turns))
	prev := 0
	for i := range turns {
		t := &turns[i]
		p := stored[t.Seq]
		switch {
		case p.Valid && p.Int64 == 0:
			t.Parent = 0
		case p.Valid && p.Int64 < int64(t.Seq) && have[int(p.Int64)]:
			t.Parent = int(p.Int64)
		default:
			t.Parent = prev
		}
		have[t.Seq] = true
		prev = t.Seq
	}
}

// splitPath splits turns (in seq order, parents resolved) into the path
// from the root to tip and the rest; tip < 0 (or a seq that is not there)
// is the last turn, 0 the root (an empty path).
func splitPath(turns []Turn, tip int) (path, off []Turn) {
	if len(turns) == 0 {
		return turns, nil
	}
	bySeq := make(map[int]int, len(turns))
	for i, t := range turns {
		bySeq[t.Seq] = i
	}
	if _, ok := bySeq[tip]; !ok && tip != 0 {
		tip = turns[len(turns)-1].Seq
	}
	on := map[int]bool{}
	for s := tip; s != 0; {
		i, ok := bySeq[s]
		if !ok || on[s] {
			break
		}
		on[s] = true
		s = turns[i].Parent
	}
	if len(on) == len(turns) {
		return turns, nil
	}
	for _, t := range turns {
		if on[t.Seq] {
			path = append(path, t)
		} else {
			off = append(off, t)
		}
	}
	return path, off
}

// All returns every turn of the session, the path's and the others', in
// seq order.
func (s *Session) All() []Turn {
	if len(s.Off) == 0 {
		return s.Turns
	}
	all := append(append([]Turn(nil), s.Turns...), s.Off...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Seq < all[j].Seq })
	return all
}

// Tip is the seq of the turn the session continues from (the last of
// Turns), 0 when it continues from the root.
func (s *Session) Tip() int {
	if len(s.Turns) == 0 {
		return 0
	}
	return s.Turns[len(s.Turns)-1].Seq
}

// TurnIDs returns the ids of the session's turns on its path (Load's
// Turns), in order.
func (db *DB) TurnIDs(sid SessionID) ([]TurnID, error) {
	s, _, err := db.Load(sid)
	if err != nil {
		return nil, err
	}
	ids := make([]TurnID, len(s.Turns))
	for i, t := range s.Turns {
		ids[i] = t.ID
	}
	return ids, nil
}

// branchUserTurn is the number of the user turn that turn seq is or
// continues, counted along its branch (the turns it follows), when session
// sid branched; ok is false when it did not (a count by seq is right) or
// the count failed.
func (db *DB) branchUserTurn(sid SessionID, seq int) (n int, ok bool) {
	var branched bool
	if db.r.QueryRow(`SELECT EXISTS (SELECT 1 FROM turns WHERE session_id = ? AND parent IS NOT NULL)
		OR EXISTS (SELECT 1 FROM sessions WHERE id = ? AND tip IS NOT NULL)`, string(sid), string(sid)).Scan(&branched) != nil || !branched {
		return 0, false
	}
	// each step goes to a lower seq (a parent not below the turn is the
	// turn before it), so the walk ends
	err := db.r.QueryRow(`WITH RECURSIVE up(seq) AS (
			SELECT ?
			UNION ALL
			SELECT CASE WHEN t.parent IS NULL OR t.parent >= t.seq THEN t.seq - 1 ELSE t.parent END
			FROM turns t JOIN up ON t.session_id = ? AND t.seq = up.seq WHERE up.seq > 0)
		SELECT count(*) FROM turns t WHERE t.session_id = ? AND t.seq IN (SELECT seq FROM up) AND `+userTurnSQL,
		seq, string(sid), string(sid)).Scan(&n)
	return n, err == nil
}
