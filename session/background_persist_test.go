package session_test

import (
	"testing"
	"time"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
)

// The background response id and sequence number noted on a turn's log are
// written with its items, and a stored turn whose process died comes back
// reattachable with them; the continued log finishes the same row.
func TestJournalKeepsBackgroundResponse(t *testing.T) {
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true, Background: true}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say("hello")
	if !turn.Request.Background {
		t.Fatal("the request does not ask for background mode")
	}
	log := j.Begin(turn)
	it := &stream.Item{Type: "message", Role: "assistant", Status: "in_progress"}
	snap := &stream.Snapshot{ID: "resp_j", Items: []*stream.Item{it}}
	log.Background("resp_j", 7)
	log.Note(time.Now(), []*stream.Snapshot{snap}, func(*stream.Item) bool { return true })
	j.Close()

	id, err := db.Latest()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := db.Load(id)
	if err != nil || len(s.Turns) != 1 {
		t.Fatalf("load: %v", err)
	}
	if bg := s.Turns[0].Background; bg.ID != "resp_j" || bg.After != 7 {
		t.Fatalf("stored background %+v", bg)
	}
	s.Turns[0].Status = store.StatusInterrupted // as the sweep marks a dead process's turn
	conv, _ := session.FromStore(s)
	rt := conv.Reattachable()
	if rt == nil || rt.Background.After != 7 || rt.Row != s.Turns[0].ID {
		t.Fatalf("reattachable turn %+v", rt)
	}
	j2 := session.ResumeJournal(db, id, conv.Settings)
	l2 := j2.Reattach(rt)
	l2.Background("resp_j", 9)
	it.Status, it.Done = "completed", true
	rt.Responses = []*stream.Snapshot{{ID: "resp_j", Status: "completed", Terminal: true, Items: []*stream.Item{it}}}
	l2.End(time.Now(), rt)
	j2.Close()
	s, _, _ = db.Load(id)
	if len(s.Turns) != 1 || s.Turns[0].Status != store.StatusCompleted || s.Turns[0].Background.After != 9 {
		t.Fatalf("after the reattach: %d turns, status %q, background %+v", len(s.Turns), s.Turns[0].Status, s.Turns[0].Background)
	}
}
