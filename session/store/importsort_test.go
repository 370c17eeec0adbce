package store

import (
	"testing"
	"time"
)

// TestImportListsFirst: a session imported from an old export lists first
// (and is the one -c continues), with its own created and updated times.
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
	if !list[0].Created.Equal(orig.Created) || !list[0].Updated.Equal(orig.Updated) {
		t.Errorf("imported: created %v updated %v; want the original %v %v", list[0].Created, list[0].Updated, orig.Created, orig.Updated)
	}
	if latest := must[SessionID](t)(db.Latest()); latest != id {
		t.Errorf("Latest is %s; want the import %s", latest, id)
	}
	// a turn in the other session since puts it first again
	record(t, db, dc, recent, "one more", "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	if list := must[[]SessionInfo](t)(db.List(0)); list[0].ID != recent {
		t.Errorf("after a new turn the list starts with %s", list[0].ID)
	}
}
