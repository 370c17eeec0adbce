package store

import (
	"testing"
	"time"
)

// TestImportListsFirst: a session imported from an old export lists first,
// as updated when it was imported, and keeps the day it was created.
func TestImportListsFirst(t *testing.T) {
	old, c := openTest(t)
	sid := newSession(t, old, `{"model":"gpt-5"}`)
	record(t, old, c, sid, "an old question", "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	f := must[ExportFile](t)(old.Export(sid))
	orig := load(t, old, sid).Info

	db, dc := openTest(t)
	dc.advance(30 * 24 * time.Hour) // a month later
	recent := newSession(t, db, `{"model":"gpt-5"}`)
	record(t, db, dc, recent, "this week's question", "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	dc.advance(time.Hour)
	id := must[SessionID](t)(db.Import(f.Data))
	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 2 || list[0].ID != id {
		t.Fatalf("list %+v; want the import first", list)
	}
	if !list[0].Created.Equal(orig.Created) || !list[0].Updated.After(list[1].Updated) {
		t.Errorf("imported: created %v (want %v), updated %v (want after %v)", list[0].Created, orig.Created, list[0].Updated, list[1].Updated)
	}
}
