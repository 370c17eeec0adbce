package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestRunsAreKeptBesideTheInput: how a round's runs ended is stored beside
// its outputs, read back byte for byte, replaced by a later record, carried
// by the JSON export and its import (and so by a fork), and absent, not
// empty, for a turn that recorded none.
func TestRunsAreKeptBesideTheInput(t *testing.T) {
	db, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	first := must[TurnID](t)(db.BeginTurn(sid, "run it", nil, ""))
	check(t, db.FinishTurn(first, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"resp_1"}}))
	round := must[TurnID](t)(db.BeginTurn(sid, "", nil, "resp_1"))
	check(t, db.SetInput(round, []json.RawMessage{json.RawMessage(`{"type":"function_call_output","call_id":"call_1","output":"boom"}`)}))
	check(t, db.SetRuns(round, json.RawMessage(`{"call_1":{"outcome":"ok"}}`)))
	want := `{"call_1":{"outcome":"failed","took_ms":1200}}`
	check(t, db.SetRuns(round, json.RawMessage(want)))

	s := load(t, db, sid)
	if s.Turns[0].Runs != nil {
		t.Errorf("a turn that recorded no runs has %s", s.Turns[0].Runs)
	}
	if got := string(s.Turns[1].Runs); got != want {
		t.Errorf("runs %s, want %s", got, want)
	}

	f := must[ExportFile](t)(db.Export(sid))
	if n := strings.Count(string(f.Data), `"runs"`); n != 1 {
		t.Errorf("the export names runs %d times, want once (the round's):\n%s", n, f.Data)
	}
	again := load(t, db, must[SessionID](t)(db.Import(f.Data)))
	if got := string(again.Turns[1].Runs); got != want || again.Turns[0].Runs != nil {
		t.Errorf("imported runs %s and %s", again.Turns[0].Runs, got)
	}
	fork := load(t, db, must[SessionID](t)(db.Copy(sid, 2, "fork")))
	if got := string(fork.Turns[1].Runs); got != want {
		t.Errorf("forked runs %s", got)
	}
}

// TestSetRunsRefusesWhatIsNotAnObject: the record is a JSON object, and
// the turn must exist; nothing else is written.
func TestSetRunsRefusesWhatIsNotAnObject(t *testing.T) {
	db, _ := openTest(t)
	sid := must[SessionID](t)(db.CreateSession(NewSession{Title: "t"}))
	tid := must[TurnID](t)(db.BeginTurn(sid, "go", nil, ""))
	for _, bad := range []string{``, `[]`, `"ok"`, `{"call_1":`} {
		if err := db.SetRuns(tid, json.RawMessage(bad)); !errors.Is(err, ErrBadInput) {
			t.Errorf("SetRuns(%q) = %v, want a bad-input error", bad, err)
		}
	}
	if err := db.SetRuns(tid+100, json.RawMessage(`{}`)); !errors.Is(err, ErrBadInput) {
		t.Errorf("SetRuns on a missing turn = %v", err)
	}
	if s := load(t, db, sid); s.Turns[0].Runs != nil {
		t.Errorf("runs %s after refused writes", s.Turns[0].Runs)
	}
}

// TestOldDatabaseLoadsWithoutRuns: a database written before runs were
// recorded (schema 1, with a tool round whose output is in its input)
// opens, migrates and loads with no runs on any turn; a damaged record is
// reported once and reads as none.
func TestOldDatabaseLoadsWithoutRuns(t *testing.T) {
	path, _ := loadV1(t)
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	s := load(t, db, "00qhd2a5x7")
	outputs := 0
	for _, tr := range s.Turns {
		if tr.Runs != nil {
			t.Errorf("turn %d has runs %s after the migration", tr.Seq, tr.Runs)
		}
		for _, in := range tr.Input {
			if strings.Contains(string(in), "function_call_output") {
				outputs++
			}
		}
	}
	if outputs == 0 {
		t.Fatal("the fixture has no tool output: it does not test an old round")
	}

	raw, err := sql.Open("sqlite", dsn(path, 0))
	check(t, err)
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE turns SET runs = CAST('{not json' AS BLOB) WHERE seq = 3`); err != nil {
		t.Fatal(err)
	}
	s, warn, err := db.Load("00qhd2a5x7")
	check(t, err)
	if len(warn) != 1 || !strings.Contains(warn[0].Error(), "tool runs") || s.Turns[2].Runs != nil {
		t.Errorf("damaged runs: warnings %v, runs %s", warn, s.Turns[2].Runs)
	}
}
