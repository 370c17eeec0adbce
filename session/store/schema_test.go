package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// loadV1 writes testdata/v1.sql into a new database file and returns its
// path and the raw item bytes it holds, by item id.
func loadV1(t *testing.T) (string, map[int64][]byte) {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("testdata", "v1.sql"))
	check(t, err)
	path := filepath.Join(t.TempDir(), "runnel.db")
	raw, err := sql.Open("sqlite", dsn(path, time.Second))
	check(t, err)
	defer raw.Close()
	if _, err := raw.Exec(string(script)); err != nil {
		t.Fatalf("v1.sql: %v", err)
	}
	items := map[int64][]byte{}
	rows, err := raw.Query("SELECT id, raw FROM items")
	check(t, err)
	for rows.Next() {
		var id int64
		var b []byte
		check(t, rows.Scan(&id, &b))
		items[id] = b
	}
	check(t, closeRows(rows))
	if v, _ := userVersion(raw); v != 1 {
		t.Fatalf("fixture has user_version %d, want 1", v)
	}
	return path, items
}

func TestMigrateV1PreservesData(t *testing.T) {
	path, rawItems := loadV1(t)
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	if v, _ := userVersion(db.w); v != schemaVersion {
		t.Fatalf("user_version %d after open, want %d", v, schemaVersion)
	}

	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 2 {
		t.Fatalf("%d sessions after migration, want 2", len(list))
	}
	in := list[0]
	if in.ID != "00qhd2a5x7" || in.Title != "explain rust lifetimes" || in.Turns != 3 || // turn 3 is a tool round
		in.Model != "gpt-4.1" {
		t.Errorf("listed %+v", in)
	}
	if in.Preview != "Tomorrow looks" {
		t.Errorf("preview %q, want the newest answer's first line", in.Preview)
	}
	if !in.Created.Equal(time.UnixMilli(1740000000000)) {
		t.Errorf("created %v", in.Created)
	}

	s := load(t, db, "00qhd2a5x7")
	if len(s.Turns) != 4 {
		t.Fatalf("%d turns", len(s.Turns))
	}
	var id int64
	for _, tr := range s.Turns {
		for _, r := range tr.Responses {
			for _, it := range r.Items {
				id++
				if string(it.Raw) != string(rawItems[id]) {
					t.Errorf("item %d changed in migration:\n got %s\nwant %s", id, it.Raw, rawItems[id])
				}
			}
		}
	}
	if id != 5 {
		t.Errorf("%d items loaded, want 5", id)
	}
	if got := s.Turns[3].Status; got != StatusInterrupted {
		t.Errorf("v1 turn left streaming: %s, want interrupted (no owner was recorded)", got)
	}
	if got := s.Turns[0].Usage; string(got) != `{"input_tokens":12,"output_tokens":80,"total_tokens":92}` {
		t.Errorf("usage %s", got)
	}
	if s.LastResponseID() != "resp_3" {
		t.Errorf("LastResponseID %q, want resp_3", s.LastResponseID())
	}

	// The new index covers the old rows: answers, reasoning, tool calls and
	// the tool output sent as input.
	for q, turn := range map[string]int{"borrow checker": 1, "scopes": 1, "get_weather": 2, "breeze": 3, "sunny Paris": 3} {
		hits := must[[]Hit](t)(db.Search(q, 5))
		if len(hits) == 0 || hits[0].Turn != turn {
			t.Errorf("search %q after migration: %+v, want turn %d first", q, hits, turn)
		}
	}
	// The untitled session from v1 is still listed, not hidden.
	if list[1].ID != "00qhd3b9k2" || list[1].Turns != 0 {
		t.Errorf("second session %+v", list[1])
	}
}

func TestMigrationIsIdempotentAcrossOpens(t *testing.T) {
	path, _ := loadV1(t)
	for i := 0; i < 2; i++ {
		db, err := Open(path)
		check(t, err)
		hits := must[[]Hit](t)(db.Search("lifetimes", 10))
		if len(hits) != 1 {
			t.Errorf("open %d: %d hits for lifetimes, want 1 (index rows duplicated?)", i, len(hits))
		}
		check(t, db.Close())
	}
}
