package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// sameTurns compares two loaded sessions' turns, ignoring turn row ids.
func sameTurns(t *testing.T, got, want *Session) {
	t.Helper()
	if len(got.Turns) != len(want.Turns) {
		t.Fatalf("%d turns, want %d", len(got.Turns), len(want.Turns))
	}
	for i := range want.Turns {
		g, w := got.Turns[i], want.Turns[i]
		g.ID, w.ID = 0, 0
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("turn %d differs:\n got %.400s\nwant %.400s", i+1, gj, wj)
		}
		for k, raw := range itemsOf(w) {
			if !bytes.Equal(itemsOf(g)[k], raw) {
				t.Errorf("turn %d item %d.%d bytes differ", i+1, k.response, k.output)
			}
		}
		for j := range w.Input {
			if !bytes.Equal(g.Input[j], w.Input[j]) {
				t.Errorf("turn %d input %d bytes differ", i+1, j)
			}
		}
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	db, c := openTest(t)
	sid := newSession(t, db, `{"model":"gpt-5","tools":[{"type":"function","name":"add"}]}`)
	for _, f := range []string{
		"charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse",
		"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse",
		"vercel__ai/openai-mcp-approval-request.sse",
		"vercel__ai/openai-error-insufficient-quota.sse",
		"vercel__ai/openai-image-generation.sse",
	} {
		record(t, db, c, sid, "replay <"+filepath.Base(f)+"> & more", f)
	}
	stopped := must[TurnID](t)(db.BeginTurn(sid, "stop me", nil, "resp_1"))
	check(t, db.SaveItem(stopped, 0, 0, json.RawMessage(`{ "type": "message",  "role":"assistant", "content": [] }`), false))
	check(t, db.FinishTurn(stopped, TurnEnd{Status: StatusStopped}))
	orig := load(t, db, sid)

	f := must[ExportFile](t)(db.Export(sid))
	if f.Name != "runnel-"+string(sid)+".json" || len(f.Warnings) != 0 {
		t.Errorf("export name %q warnings %v", f.Name, f.Warnings)
	}
	if !json.Valid(f.Data) || !bytes.HasPrefix(f.Data, []byte("{\n  \"runnel_export\": 1,")) {
		t.Fatalf("export is not the versioned JSON document: %.200s", f.Data)
	}

	// Into another database: the id is free there, so it is kept.
	other, _ := openTest(t)
	id := must[SessionID](t)(other.Import(f.Data))
	if id != sid {
		t.Errorf("imported as %s, want the free id %s", id, sid)
	}
	got := load(t, other, id)
	if got.Info != orig.Info || !bytes.Equal(got.Settings, orig.Settings) {
		t.Errorf("info %+v\nwant %+v", got.Info, orig.Info)
	}
	sameTurns(t, got, orig)
	if again := must[ExportFile](t)(other.Export(id)); !bytes.Equal(again.Data, f.Data) {
		t.Error("export → import → export is not byte-identical")
	}
	if hits := must[[]Hit](t)(other.Search("multiply", 5)); len(hits) != 1 || hits[0].Session != id {
		t.Errorf("imported session not searchable: %+v", hits)
	}

	// Into the same database: the id is taken, so it gets a new one.
	dup := must[SessionID](t)(db.Import(f.Data))
	if dup == sid || !validID(string(dup)) {
		t.Errorf("second import got id %q", dup)
	}
	sameTurns(t, load(t, db, dup), orig)
}

func TestImportStreamingTurnComesBackInterrupted(t *testing.T) {
	doc := `{"runnel_export":1,"session":{"title":"t"},"turns":[{"prompt":"p","status":"streaming",
		"items":[{"response":0,"output":0,"done":false,"item":{"type":"message","role":"assistant","content":[]}}]}]}`
	db, _ := openTest(t)
	id := must[SessionID](t)(db.Import([]byte(doc)))
	s := load(t, db, id)
	if s.Turns[0].Status != StatusInterrupted || s.Info.Title != "t" || s.Info.Created.IsZero() {
		t.Errorf("imported %+v %+v", s.Info, s.Turns[0])
	}
}

func TestImportRejectsWrongShapeWithPath(t *testing.T) {
	db, _ := openTest(t)
	turn := func(items string) string {
		return `{"runnel_export":1,"session":{"title":"x"},"turns":[{"prompt":"a","status":"completed"},{"prompt":"b","status":"completed"},
			{"prompt":"c","status":"completed"},{"prompt":"d","status":"completed","items":` + items + `}]}`
	}
	for doc, want := range map[string]string{
		turn(`[{"response":0,"output":0,"item":{}},"oops"]`):       `turns[3].items[1]: want an object, got a string`,
		turn(`[{"response":0,"output":0,"item":"x"}]`):             `turns[3].items[0].item: want an object, got a string`,
		turn(`[{"response":-1,"output":0,"item":{}}]`):             `turns[3].items[0].response: want a whole number ≥ 0, got a number`,
		turn(`[{"response":0,"output":0,"done":"yes","item":{}}]`): `turns[3].items[0].done: want true or false, got a string`,
		turn(`{}`): `turns[3].items: want an array, got an object`,
		turn(`[{"output":1,"item":{}},{"response":0,"output":1,"item":{}}]`):                      `turns[3].items[1]: a second item at response 0, output 1`,
		`{"runnel_export":1,"session":{},"turns":[{"status":"done"}]}`:                            `turns[0].status: want completed, incomplete, failed, stopped, interrupted or streaming, got "done"`,
		`{"runnel_export":1,"session":{},"turns":[{"status":"completed","input":[1]}]}`:           `turns[0].input[0]: want an object, got a number`,
		`{"runnel_export":1,"session":{},"turns":[{"status":"completed","response_ids":[null]}]}`: `turns[0].response_ids[0]: want a string, got null`,
		`{"runnel_export":1,"session":{},"turns":[{"status":"completed","started":"yesterday"}]}`: `turns[0].started: want an RFC 3339 time, got "yesterday"`,
		`{"runnel_export":1,"session":{"settings":[]},"turns":[]}`:                                `session.settings: want an object, got an array`,
		`{"runnel_export":1,"session":"x","turns":[]}`:                                            `session: want an object, got a string`,
		`{"runnel_export":1,"session":{},"turns":{}}`:                                             `turns: want an array, got an object`,
		`{"runnel_export":2,"session":{},"turns":[]}`:                                             `runnel_export: version 2 is not one this runnel reads (1 to 1)`,
		`{"session":{},"turns":[]}`:                                                               `runnel_export: missing; this is not a runnel export file`,
		`[1,2]`:                                                                                   `(document): want an object, got an array`,
		`{"runnel_export":1,`:                                                                     `not JSON: unexpected end of JSON input at byte 19`,
		`{"runnel_export":1,"session":{"title":"\u001b[31mx"},"turns":[true]}`:                    `turns[0]: want an object, got a boolean`,
	} {
		_, err := db.Import([]byte(doc))
		if !errors.Is(err, ErrBadInput) || err.Error() != "import: "+want {
			t.Errorf("Import(%.60s…):\n got %v\nwant import: %s", doc, err, want)
		}
		if list := must[[]SessionInfo](t)(db.List(0)); len(list) != 0 {
			t.Errorf("a rejected import wrote %d sessions", len(list))
		}
	}
}

func TestImportRedactsSettings(t *testing.T) {
	db, _ := openTest(t)
	doc := `{"runnel_export":1,"session":{"settings":{"model":"m","api_key":"` + testAPIKey + `"}},"turns":[]}`
	id := must[SessionID](t)(db.Import([]byte(doc)))
	if s := load(t, db, id); strings.Contains(string(s.Settings), testAPIKey) {
		t.Errorf("imported settings keep the key: %s", s.Settings)
	}
}
