package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"runnel/stream"
)

// openV7 copies testdata/v7.db (a session of three turns written by schema
// version 7) into a temporary directory and opens it.
func openV7(t *testing.T) *DB {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "v7.db"))
	check(t, err)
	path := filepath.Join(t.TempDir(), "runnel.db")
	check(t, os.WriteFile(path, raw, 0o600))
	db, err := Open(path)
	check(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

const v7Session = SessionID("01s9n0fdx7")

func seqs(ts []Turn) []int {
	out := []int{}
	for _, t := range ts {
		out = append(out, t.Seq)
	}
	return out
}

func parents(ts []Turn) []int {
	out := []int{}
	for _, t := range ts {
		out = append(out, t.Parent)
	}
	return out
}

func TestMigrateV7SessionReadsAsBefore(t *testing.T) {
	db := openV7(t)
	if v, _ := userVersion(db.w); v != schemaVersion {
		t.Fatalf("user_version %d after open, want %d", v, schemaVersion)
	}
	s := load(t, db, v7Session)
	if got := seqs(s.Turns); !reflect.DeepEqual(got, []int{1, 2, 3}) || len(s.Off) != 0 {
		t.Fatalf("path %v, off %v; want [1 2 3] and none", got, seqs(s.Off))
	}
	if got := parents(s.Turns); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("parents %v, want each turn after the one before", got)
	}
	if s.LastResponseID() != "resp_3" {
		t.Errorf("last response %q", s.LastResponseID())
	}
	f, err := db.Export(v7Session)
	check(t, err)
	if strings.Contains(string(f.Data), `"parent"`) || strings.Contains(string(f.Data), `"tip"`) {
		t.Errorf("a session with no branches exports parents or a tip:\n%s", f.Data)
	}
}

// branch makes turn 4 a second branch beside turn 2 of the v7 session: the
// tip is moved to turn 1 first, as an edit of turn 2 does.
func branch(t *testing.T, db *DB) TurnID {
	t.Helper()
	s := load(t, db, v7Session)
	check(t, db.SetTip(v7Session, s.Turns[0].ID))
	tid := must[TurnID](t)(db.BeginTurn(v7Session, "and a vegetable", []json.RawMessage{stream.UserText("and a vegetable")}, "resp_1"))
	check(t, db.SaveItem(tid, 0, 0, msg("msg_4", "A leek."), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"resp_4"}}))
	return tid
}

func TestBranchKeepsBothAndResumesTheTip(t *testing.T) {
	db := openV7(t)
	branch(t, db)
	s := load(t, db, v7Session)
	if got := seqs(s.Turns); !reflect.DeepEqual(got, []int{1, 4}) {
		t.Fatalf("path %v, want [1 4]: the new turn follows turn 1", got)
	}
	if got := seqs(s.Off); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Fatalf("off %v, want the first branch's [2 3]", got)
	}
	if s.LastResponseID() != "resp_4" || s.Turns[1].Parent != 1 {
		t.Errorf("last response %q, parent %d", s.LastResponseID(), s.Turns[1].Parent)
	}
	in := s.RebuildInput()
	if len(in) != 4 || !strings.Contains(string(in[1]), "Teal") || !strings.Contains(string(in[3]), "leek") {
		t.Errorf("local history holds another branch: %s", in)
	}

	// back to the first branch: its tip is turn 3
	check(t, db.SetTip(v7Session, s.Off[1].ID))
	s = load(t, db, v7Session)
	if got, off := seqs(s.Turns), seqs(s.Off); !reflect.DeepEqual(got, []int{1, 2, 3}) || !reflect.DeepEqual(off, []int{4}) {
		t.Fatalf("after SetTip(3): path %v, off %v", got, off)
	}
	if s.LastResponseID() != "resp_3" {
		t.Errorf("continues from %q, want resp_3", s.LastResponseID())
	}
}

func TestSetTipRootStartsABranchOfItsOwn(t *testing.T) {
	db := openV7(t)
	check(t, db.SetTip(v7Session, 0))
	s := load(t, db, v7Session)
	if len(s.Turns) != 0 || len(s.Off) != 3 {
		t.Fatalf("path %v, off %v; want none and all three", seqs(s.Turns), seqs(s.Off))
	}
	must[TurnID](t)(db.BeginTurn(v7Session, "start over", []json.RawMessage{stream.UserText("start over")}, ""))
	s = load(t, db, v7Session)
	if got := seqs(s.Turns); !reflect.DeepEqual(got, []int{4}) || s.Turns[0].Parent != 0 {
		t.Fatalf("path %v (parent %v), want [4] from the root", got, parents(s.Turns))
	}
}

func TestExportImportKeepsBranches(t *testing.T) {
	db := openV7(t)
	branch(t, db)
	s := load(t, db, v7Session)
	check(t, db.SetTip(v7Session, s.Off[1].ID)) // the tip is not the last turn
	f, err := db.Export(v7Session)
	check(t, err)
	doc := string(f.Data)
	if !strings.Contains(doc, `"tip": 3`) || !strings.Contains(doc, `"parent": 1`) {
		t.Fatalf("export lacks the tip or the parent:\n%s", doc)
	}
	id, err := db.Import(f.Data)
	check(t, err)
	got := load(t, db, id)
	if p, off := seqs(got.Turns), seqs(got.Off); !reflect.DeepEqual(p, []int{1, 2, 3}) || !reflect.DeepEqual(off, []int{4}) || got.Off[0].Parent != 1 {
		t.Fatalf("imported path %v, off %v (parents %v)", p, off, parents(got.Off))
	}
	again, err := db.Export(id)
	check(t, err)
	if strings.Replace(string(again.Data), string(id), string(v7Session), 1) != doc {
		t.Errorf("the import exports differently:\n%s\nwant\n%s", again.Data, doc)
	}

	// a fork copies the path shown, as one branch
	check(t, db.SetTip(v7Session, s.Turns[1].ID))
	cp, err := db.Copy(v7Session, 5, "fork: x")
	check(t, err)
	c := load(t, db, cp)
	if len(c.Off) != 0 || len(c.Turns) != 2 || c.Turns[1].Prompt != "and a vegetable" || c.Turns[1].Parent != 1 {
		t.Errorf("fork of the second branch: %v / %v", seqs(c.Turns), seqs(c.Off))
	}
}

func TestImportReadsAnExportWithoutBranches(t *testing.T) {
	db := openV7(t)
	f, err := db.Export(v7Session)
	check(t, err)
	id, err := db.Import(f.Data)
	check(t, err)
	s := load(t, db, id)
	if got := seqs(s.Turns); !reflect.DeepEqual(got, []int{1, 2, 3}) || len(s.Off) != 0 {
		t.Fatalf("path %v, off %v", got, seqs(s.Off))
	}
}

// TestSearchNumbersATurnAlongItsBranch: a hit in the edited turn (seq 4,
// following turn 1) is its branch's turn 2, as the chat shows it.
func TestSearchNumbersATurnAlongItsBranch(t *testing.T) {
	db := openV7(t)
	branch(t, db)
	hits, err := db.Search("vegetable", 5)
	check(t, err)
	if len(hits) != 1 || hits[0].Turn != 4 || hits[0].UserTurn != 2 {
		t.Fatalf("hits %+v, want seq 4 numbered turn 2", hits)
	}
	hits, err = db.Search("city", 5)
	check(t, err)
	if len(hits) != 1 || hits[0].Turn != 3 || hits[0].UserTurn != 3 {
		t.Errorf("hits %+v, want seq 3 numbered turn 3", hits)
	}
}

// TestListCountsTheTipsBranch: the list's turn count is the branch the
// session continues, as /status counts it, not every branch's turns.
func TestListCountsTheTipsBranch(t *testing.T) {
	db := openV7(t)
	count := func() int {
		t.Helper()
		list, err := db.List(0)
		check(t, err)
		for _, in := range list {
			if in.ID == v7Session {
				return in.Turns
			}
		}
		t.Fatal("session not listed")
		return 0
	}
	if n := count(); n != 3 {
		t.Fatalf("before branching: %d turns, want 3", n)
	}
	branch(t, db) // turn 4 follows turn 1: the path is [1 4]
	if n, want := count(), load(t, db, v7Session).UserTurns(); n != 2 || n != want {
		t.Fatalf("after branching: %d turns, want 2 (the path, as loaded: %d)", n, want)
	}
	s := load(t, db, v7Session)
	check(t, db.SetTip(v7Session, s.Off[1].ID)) // back to [1 2 3]
	if n := count(); n != 3 {
		t.Fatalf("back on the first branch: %d turns, want 3", n)
	}
	check(t, db.SetTip(v7Session, 0))
	if n := count(); n != 0 {
		t.Fatalf("tip at the root: %d turns, want 0", n)
	}
}
