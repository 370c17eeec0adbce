package session_test

import (
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/stream"
)

// TestJournalPutsOffAHugeStreamingItem: an item past 4 MiB is not written
// again while it streams (that would cost its size every second); what was
// written of it before stays, and the end writes it whole.
func TestJournalPutsOffAHugeStreamingItem(t *testing.T) {
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say("a long one")
	log := j.Begin(turn)
	var acc stream.Accumulator
	apply := func(payload string) {
		d := stream.NewDecoder(strings.NewReader("data: " + payload + "\n\n"))
		for d.Next() {
			ev := *d.Event()
			if _, err := acc.Apply(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := func(*stream.Item) bool { return true }
	apply(`{"type":"response.created","response":{"id":"resp_big","status":"in_progress","output":[]}}`)
	apply(`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"small start "}`)
	now := time.Now()
	log.Note(now, acc.Responses(), all)
	apply(`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"` + strings.Repeat("x", 5<<20) + `"}`)
	log.Note(now.Add(2*session.SaveEvery), acc.Responses(), all)
	j.Close()
	back, _ := reload(t, db, j.ID())
	if got := back.Turns[0].Responses[0].Items[0].Text(); got != "small start " {
		t.Errorf("stored %d bytes while streaming, want the %d written before it grew", len(got), len("small start "))
	}
}
