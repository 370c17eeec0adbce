package session_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/export"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestCutOffTurnExportsWhatTheChatSaid: a real recorded stream that ends
// cleanly halfway (no terminal event, no transport error) is stored with the
// words the chat shows, and both exports say them instead of "no reason was
// recorded".
func TestCutOffTurnExportsWhatTheChatSaid(t *testing.T) {
	evs := streamtest.SplitEvents(sharedtest.ReadReal(t, "vercel__ai/lmstudio-basic-markdown.sse"))
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: bytes.Join(evs[:len(evs)/2], nil)})
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say("write some markdown")
	send(t, c, cl, turn, j.Begin(turn))
	j.Close()
	if n := len(turn.Responses); turn.Err != nil || n == 0 || !turn.Responses[n-1].CutOff {
		t.Fatalf("the fixture's first half is not a clean cut-off: err %v, %d responses", turn.Err, n)
	}

	s, warns, err := db.Load(j.ID())
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	if got := s.Turns[0].Error; got != stream.CutOffNote {
		t.Errorf("stored reason %q, want %q", got, stream.CutOffNote)
	}

	var md strings.Builder
	if err := export.Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "**Cut off:** "+stream.CutOffNote) || strings.Contains(md.String(), "no reason") {
		t.Errorf("markdown export does not say the stream was cut off:\n%s", md.String())
	}

	f, err := db.Export(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Turns []struct{ Status, Error string }
	}
	if err := json.Unmarshal(f.Data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Turns) != 1 || doc.Turns[0].Error != stream.CutOffNote {
		t.Errorf("json export turns %+v, want the error %q", doc.Turns, stream.CutOffNote)
	}

	// Resumed, the turn is as it was live: cut off, not failed with an error.
	back, _ := session.FromStore(s)
	if bt := back.Turns[0]; bt.Err != nil || len(bt.Responses) == 0 || !bt.Responses[len(bt.Responses)-1].CutOff {
		t.Errorf("resumed turn: err %v, %d responses", bt.Err, len(bt.Responses))
	}
}
