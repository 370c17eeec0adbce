package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"runnel/stream"
)

// With SetSecrets, a secret that reaches the store anyway (in a prompt, an
// input or output item, even \u-escaped, an error, a title) is hidden
// before it is written: the database files never hold it.
func TestSetSecretsHidesThemInEveryWrite(t *testing.T) {
	const key = "sk-echoed-0123456789abcdef"
	db, _ := openTest(t)
	db.SetSecrets(stream.NewRedactor(key))
	sid := newSession(t, db, `{"tools":[{"type":"function","name":"x","description":"uses `+key+`"}]}`)
	check(t, db.SetSettings(sid, json.RawMessage(`{"instructions":"`+key+`"}`)))
	tid := must[TurnID](t)(db.BeginTurn(sid, "my key is "+key, []json.RawMessage{
		json.RawMessage(`{"type":"message","role":"user","content":"my key is ` + key + `"}`),
		json.RawMessage(`{"type":"function_call_output","call_id":"c","output":"\u0073k-echoed-0123456789abcdef"}`),
	}, ""))
	check(t, db.SaveItem(tid, 0, 0, json.RawMessage(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"it is `+key+`"}]}`), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusFailed, Error: "401: bad key " + key}))
	check(t, db.SetTitle(sid, "about "+key))
	s := load(t, db, sid)
	if len(s.Turns) != 1 || s.Turns[0].Error != "401: bad key [redacted]" {
		t.Errorf("turn error = %+v", s.Turns)
	}
	check(t, db.Close())
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(db.Path()), "*"))
	if len(files) == 0 {
		t.Fatal("no database files to check")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte("0123456789abcdef")) {
			t.Errorf("%s holds the key", filepath.Base(f))
		}
	}
}
