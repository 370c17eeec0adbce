package store

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/attach"
	"runnel/stream"
)

// pngBytes is a file that sniffs as PNG.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{7}, 3000)...)

func withFiles(t *testing.T, text string) json.RawMessage {
	t.Helper()
	files := []*attach.File{
		{Path: "shot.png", Name: "shot.png", Kind: attach.Image, MIME: "image/png", Size: int64(len(pngBytes)), Data: pngBytes},
		{Path: "docs/paper.pdf", Name: "paper.pdf", Kind: attach.PDF, MIME: "application/pdf", Size: 9, Data: []byte("%PDF-1.7\n")},
		{Path: "notes/todo.md", Name: "todo.md", Kind: attach.Text, MIME: "text/plain", Size: int64(len(text)), Data: []byte(text)},
	}
	return attach.Message("look at these", files, attach.Limits{Detail: "high"})
}

func rowCount(t *testing.T, db *DB, table string) int {
	t.Helper()
	var n int
	check(t, db.w.QueryRow(`SELECT count(*) FROM `+table).Scan(&n))
	return n
}

// TestAttachmentsStoredOnceAndLoadedWhole: a message's image, PDF and text
// file are stored as blobs, once however many turns send them; the turn's
// stored input holds only their hashes; loading gives back the input as
// sent; deleting the last session using a blob deletes it.
func TestAttachmentsStoredOnceAndLoadedWhole(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{"model":"m"}`)
	in := withFiles(t, "buy oranges")
	for i := 0; i < 2; i++ {
		tid := must[TurnID](t)(db.BeginTurn(sid, "look at these", []json.RawMessage{in}, ""))
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	}
	if n := rowCount(t, db, "blobs"); n != 3 {
		t.Errorf("%d blobs for 3 files sent twice, want 3", n)
	}
	var raw []byte
	check(t, db.w.QueryRow(`SELECT input FROM turns LIMIT 1`).Scan(&raw))
	b64 := base64.StdEncoding.EncodeToString(pngBytes)
	if bytes.Contains(raw, []byte(b64[:40])) || bytes.Contains(raw, []byte("buy oranges")) || !bytes.Contains(raw, []byte(`"blob:image_url"`)) {
		t.Errorf("stored input should hold hashes, not payloads: %s", raw)
	}
	s := load(t, db, sid)
	for _, tr := range s.Turns {
		if !sameJSON(tr.Input[0], in) {
			t.Errorf("loaded input differs from what was sent:\n got %s\nwant %s", tr.Input[0], in)
		}
	}
	other := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(other, "again", []json.RawMessage{in}, ""))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	check(t, db.Delete(sid))
	if n := rowCount(t, db, "blobs"); n != 3 {
		t.Errorf("%d blobs after deleting one of two sessions using them, want 3", n)
	}
	check(t, db.Delete(other))
	if n := rowCount(t, db, "blobs"); n != 0 {
		t.Errorf("%d blobs after deleting every session, want 0", n)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// TestAttachmentsExportImportRoundTrip: a JSON export carries the
// attachments inline; importing it into another database gives back the
// same input, stored as blobs again, and a fork (Copy) keeps them.
func TestAttachmentsExportImportRoundTrip(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{"model":"m"}`)
	in := withFiles(t, "buy oranges")
	tid := must[TurnID](t)(db.BeginTurn(sid, "look at these", []json.RawMessage{in}, ""))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"resp_1"}}))
	f := must[ExportFile](t)(db.Export(sid))
	if !bytes.Contains(f.Data, []byte(base64.StdEncoding.EncodeToString(pngBytes))) || !bytes.Contains(f.Data, []byte("buy oranges")) {
		t.Fatalf("export lacks the attachments inline")
	}
	if bytes.Contains(f.Data, []byte(`blob:`)) {
		t.Errorf("export leaks blob references")
	}
	db2, _ := openTest(t)
	id := must[SessionID](t)(db2.Import(f.Data))
	s := load(t, db2, id)
	if len(s.Turns) != 1 || !sameJSON(s.Turns[0].Input[0], in) {
		t.Fatalf("imported input differs: %s", s.Turns[0].Input)
	}
	if n := rowCount(t, db2, "blobs"); n != 3 {
		t.Errorf("%d blobs after import, want 3", n)
	}
	fork := must[SessionID](t)(db2.Copy(id, 1, "fork"))
	if s := load(t, db2, fork); len(s.Turns) != 1 || !sameJSON(s.Turns[0].Input[0], in) {
		t.Errorf("forked input differs")
	}
	if n := rowCount(t, db2, "blobs"); n != 3 {
		t.Errorf("%d blobs after fork, want 3 (shared)", n)
	}
}

// TestSearchFindsAttachedText: the text of an attached file is searchable,
// in a streaming turn, a finished one, and after an import.
func TestSearchFindsAttachedText(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "look at these", []json.RawMessage{withFiles(t, "remember the pamplemousse")}, ""))
	hits := must[[]Hit](t)(db.Search("pamplemousse", 5))
	if len(hits) != 1 || hits[0].TurnID != tid {
		t.Fatalf("streaming turn: hits %+v", hits)
	}
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	hits = must[[]Hit](t)(db.Search("pamplemousse", 5))
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "pamplemousse") {
		t.Fatalf("finished turn: hits %+v", hits)
	}
	if hits := must[[]Hit](t)(db.Search("todo.md", 5)); len(hits) != 1 {
		t.Errorf("the file's path is not searchable: %+v", hits)
	}
	f := must[ExportFile](t)(db.Export(sid))
	db2, _ := openTest(t)
	must[SessionID](t)(db2.Import(f.Data))
	if hits := must[[]Hit](t)(db2.Search("pamplemousse", 5)); len(hits) != 1 {
		t.Errorf("imported turn: hits %+v", hits)
	}
}

// TestAttachedTextSecretFree: a known secret inside an attached text file is
// not stored.
func TestAttachedTextSecretFree(t *testing.T) {
	db, _ := openTest(t)
	db.SetSecrets(stream.NewRedactor("sk-attach-secret-123"))
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "env", []json.RawMessage{withFiles(t, "OPENAI_API_KEY=sk-attach-secret-123")}, ""))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	var n int
	check(t, db.w.QueryRow(`SELECT count(*) FROM blobs WHERE instr(data, 'sk-attach-secret-123') > 0`).Scan(&n))
	if n != 0 {
		t.Errorf("the secret is stored in %d blobs", n)
	}
	if s := load(t, db, sid); !strings.Contains(string(s.Turns[0].Input[0]), stream.Redacted) {
		t.Errorf("loaded text not redacted: %s", s.Turns[0].Input[0])
	}
}

// TestFilesOnlyMessageTitle: a session whose first message is files only is
// titled by their names, not by their contents.
func TestFilesOnlyMessageTitle(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	in := attach.Message("", []*attach.File{{Path: "/x/notes.md", Name: "notes.md", Kind: attach.Text, Size: 1, Data: []byte("x")},
		{Path: "/x/a.png", Name: "a.png", Kind: attach.Image, MIME: "image/png", Size: 4, Data: []byte("\x89PNG")}}, attach.Limits{})
	must[TurnID](t)(db.BeginTurn(sid, "", []json.RawMessage{in}, ""))
	if s := load(t, db, sid); s.Info.Title != "notes.md, a.png" {
		t.Errorf("title %q", s.Info.Title)
	}
}
