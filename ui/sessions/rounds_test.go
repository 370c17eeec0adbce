package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream"
)

// seed stores one session of two prompts, the first answered after a tool
// round, and returns the Env on it.
func seed(t *testing.T) (Env, *bytes.Buffer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "runnel.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid, err := db.CreateSession(store.NewSession{Title: "two prompts", Settings: json.RawMessage(`{"model":"m"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []json.RawMessage{
		stream.UserText("list the files"),
		json.RawMessage(`{"type":"function_call_output","call_id":"c1","output":"a b"}`),
		stream.UserText("count the **zebras**"),
	} {
		tid, err := db.BeginTurn(sid, "", []json.RawMessage{in}, "")
		if err == nil {
			err = db.SaveItems(tid, []store.ItemWrite{{Done: true, Raw: json.RawMessage(`{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"## Answer about **zebras**","annotations":[]}]}`)}})
		}
		if err == nil {
			err = db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{"r"}})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	return Env{Stdout: &out, Stderr: &out, Terminal: func(any) bool { return false }, Now: time.Now, DB: path, Width: 100}, &out
}

// TestListCountsPrompts: the list counts prompts, not tool rounds, and
// previews the answer as plain text.
func TestListCountsPrompts(t *testing.T) {
	h, out := seed(t)
	if err := h.List(true, 0); err != nil {
		t.Fatal(err)
	}
	var line SessionLine
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if line.Turns != 2 || line.Preview != "Answer about zebras" {
		t.Errorf("listed %+v, want 2 turns and a plain preview", line)
	}
}

// TestSearchNoMatchIsAnError: a search that finds nothing returns
// *NoMatchError (the command exits 1) and prints nothing; a hit is
// numbered by prompt.
func TestSearchNoMatchIsAnError(t *testing.T) {
	h, out := seed(t)
	for _, asJSON := range []bool{false, true} {
		err := h.Search("giraffe", asJSON, 0)
		var none *NoMatchError
		if !errors.As(err, &none) || err.Error() != `no session matches "giraffe"` || out.Len() != 0 {
			t.Errorf("json %v: %v, printed %q", asJSON, err, out)
		}
	}
	if err := h.Search("count zebras", false, 0); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); !strings.Contains(first, "turn 2") {
		t.Errorf("hit %q, want turn 2", first)
	}
}
