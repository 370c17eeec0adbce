package store

import (
	"encoding/json"
	"testing"

	"runnel/stream"
)

// A session of three prompts, two of which called a tool (each call's
// output went back in a round of its own, as session.Journal.BeginRound
// stores it), lists, loads and searches as three turns.
func TestRoundsAreNotTurns(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	turn := func(prompt string, input []json.RawMessage, out json.RawMessage) TurnID {
		t.Helper()
		tid := must[TurnID](t)(db.BeginTurn(sid, prompt, input, ""))
		check(t, db.SaveItems(tid, []ItemWrite{{Raw: out, Done: true}}))
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"resp"}}))
		return tid
	}
	call := json.RawMessage(`{"type":"function_call","call_id":"c1","name":"shell","arguments":"{}"}`)
	output := json.RawMessage(`{"type":"function_call_output","call_id":"c1","output":"ok"}`)
	turn("list the files", []json.RawMessage{stream.UserText("list the files")}, call)
	turn("", []json.RawMessage{output}, msg("m1", "three files"))
	turn("count them", []json.RawMessage{stream.UserText("count them")}, call)
	turn("", []json.RawMessage{output}, msg("m2", "zebra answer"))
	// a turn stored without its prompt but with a user message is a user turn
	turn("", []json.RawMessage{stream.UserText("and the third")}, msg("m3", "done"))
	// damaged input is a round, not an error
	tid := turn("", nil, msg("m4", "after damage"))
	_, err := db.w.Exec(`UPDATE turns SET input = '{"role":"user"' WHERE id = ?`, int64(tid))
	check(t, err)

	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 1 || list[0].Turns != 3 {
		t.Fatalf("listed %+v, want 3 turns", list)
	}
	s, _, err := db.Load(sid)
	check(t, err)
	if s.Info.Turns != 3 || s.UserTurns() != 3 {
		t.Errorf("loaded %d turns (UserTurns %d), want 3", s.Info.Turns, s.UserTurns())
	}
	hits := must[[]Hit](t)(db.Search("zebra", 0))
	if len(hits) != 1 || hits[0].Turn != 4 || hits[0].UserTurn != 2 {
		t.Errorf("hits %+v, want seq 4 in user turn 2", hits)
	}
}
