package store

import "encoding/json"

// A stored turn is a user turn when the user sent something: a prompt, or
// (a turn stored without its prompt, an import, an attachment-only message)
// a user message among its input items. The other turns are rounds: the
// outputs of tool calls or the answers to MCP approval requests going back
// to the model (session.Journal.BeginRound), which continue the user turn
// before them. Lists, counts ("3 turns") and the markdown export count and
// number user turns only; the rows of the turns table stay one per request.

// UserTurn reports whether a turn with this prompt and input is a user turn.
func UserTurn(prompt string, input []json.RawMessage) bool {
	if prompt != "" {
		return true
	}
	for _, in := range input {
		var f struct {
			Role string `json:"role"`
		}
		if json.Unmarshal(in, &f) == nil && f.Role == "user" {
			return true
		}
	}
	return false
}

// UserTurn reports whether t is a user turn (see the package function).
func (t *Turn) UserTurn() bool { return UserTurn(t.Prompt, t.Input) }

// UserTurns counts the user turns of s.
func (s *Session) UserTurns() int {
	n := 0
	for i := range s.Turns {
		if s.Turns[i].UserTurn() {
			n++
		}
	}
	return n
}

// userTurnSQL is UserTurn over a row of turns aliased t, for queries. A
// round's input (tool outputs, often large) is parsed only when the token
// "user" occurs in it, which a JSON string value holding the word cannot
// fake (its quotes are escaped). An input that is not a JSON array of
// objects holds no user message (and makes no error).
const userTurnSQL = `(CASE WHEN t.prompt != '' THEN 1
	WHEN instr(CAST(t.input AS TEXT), '"user"') = 0 THEN 0
	ELSE EXISTS (
		SELECT 1 FROM json_each(CASE WHEN json_valid(CAST(t.input AS TEXT)) AND json_type(CAST(t.input AS TEXT)) = 'array'
			THEN CAST(t.input AS TEXT) ELSE '[]' END) j
		WHERE CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.role') END = 'user')
	END)`

// userTurnsSQL counts the user turns of the session row s along the branch
// it continues (from the root to its tip, as splitPath walks it), the
// count the chat's /status shows: a session that never branched counts
// every turn; one that did, only its tip's path, not the other branches'.
const userTurnsSQL = `(CASE WHEN s.tip IS NULL AND NOT EXISTS (SELECT 1 FROM turns b WHERE b.session_id = s.id AND b.parent IS NOT NULL)
	THEN (SELECT count(*) FROM turns t WHERE t.session_id = s.id AND ` + userTurnSQL + `)
	ELSE (WITH RECURSIVE up(seq) AS (
			SELECT CASE WHEN s.tip IS NULL OR (s.tip != 0 AND NOT EXISTS (SELECT 1 FROM turns x WHERE x.session_id = s.id AND x.seq = s.tip))
				THEN (SELECT max(m.seq) FROM turns m WHERE m.session_id = s.id) ELSE s.tip END
			UNION
			SELECT CASE WHEN t.parent IS NULL OR t.parent >= t.seq THEN t.seq - 1 ELSE t.parent END
			FROM turns t JOIN up ON t.session_id = s.id AND t.seq = up.seq WHERE up.seq > 0)
		SELECT count(*) FROM turns t WHERE t.session_id = s.id AND t.seq IN (SELECT seq FROM up) AND ` + userTurnSQL + `)
	END)`
