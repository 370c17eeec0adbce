package session_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
)

// events applies SSE data payloads to acc, failing the test on a bad one.
func events(t *testing.T, acc *stream.Accumulator, payloads ...string) {
	t.Helper()
	for _, p := range payloads {
		d := stream.NewDecoder(strings.NewReader("data: " + p + "\n\n"))
		for d.Next() {
			ev := *d.Event()
			if _, err := acc.Apply(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func textDelta(output int, s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"response.output_text.delta","output_index":` + strconv.Itoa(output) + `,"content_index":0,"delta":` + string(b) + `}`
}

// storedItems loads the first turn's items of the journal's session, by
// output index.
func storedItems(t *testing.T, db *store.DB, j *session.Journal) map[int]store.Item {
	t.Helper()
	j.Sync()
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]store.Item{}
	for _, r := range s.Turns[0].Responses {
		for _, it := range r.Items {
			out[it.OutputIndex] = it
		}
	}
	return out
}

// TestJournalWritesOnceASecondAndDoneItemsAtOnce: the first partial item is
// written at once (a crash in the first second keeps it), later partials at
// most once a second, and an item that is done at once.
func TestJournalWritesOnceASecondAndDoneItemsAtOnce(t *testing.T) {
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	defer j.Close()
	log := j.Begin(c.Say("q"))
	var acc stream.Accumulator
	all := func(*stream.Item) bool { return true }
	text := func(it store.Item) string {
		var m struct{ Content []struct{ Text string } }
		json.Unmarshal(it.Raw, &m)
		if len(m.Content) == 0 {
			return ""
		}
		return m.Content[0].Text
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

	events(t, &acc, `{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`, textDelta(0, "a"))
	log.Note(t0, acc.Responses(), all)
	if got := text(storedItems(t, db, j)[0]); got != "a" {
		t.Fatalf("first partial stored as %q, want it written at once", got)
	}
	for i := 1; i < 10; i++ { // 100 ms apart: within the second
		events(t, &acc, textDelta(0, "a"))
		log.Note(t0.Add(time.Duration(i)*100*time.Millisecond), acc.Responses(), all)
	}
	if got := text(storedItems(t, db, j)[0]); got != "a" {
		t.Errorf("stored %q within the second, want the first partial still", got)
	}
	events(t, &acc, textDelta(0, "a"))
	log.Note(t0.Add(time.Second), acc.Responses(), all)
	if got := text(storedItems(t, db, j)[0]); got != strings.Repeat("a", 11) {
		t.Errorf("stored %q after a second, want 11 a", got)
	}
	events(t, &acc,
		`{"type":"response.output_item.done","output_index":1,"item":{"id":"m2","type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}}`)
	log.Note(t0.Add(1100*time.Millisecond), acc.Responses(), all)
	items := storedItems(t, db, j)
	if it := items[1]; !it.Done || text(it) != "done" {
		t.Errorf("done item stored as %s (done %v), want it written at once", it.Raw, it.Done)
	}
}

// TestJournalStoresRealFixturesByteForByte: every real fixture streamed
// through the journal, a turn each, loads back with each item byte for byte
// as the accumulator last gave it, done, and with the responses' ids.
func TestJournalStoresRealFixturesByteForByte(t *testing.T) {
	files := sharedtest.RealFiles(t)
	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	type want struct {
		name  string
		items map[[2]int][]byte
		ids   []string
	}
	var wants []want
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range files {
		rel, _ := filepath.Rel(sharedtest.RealDir(t), f)
		turn := c.Say("replay " + rel)
		log := j.Begin(turn)
		var acc stream.Accumulator
		d := stream.NewDecoder(bytes.NewReader(sharedtest.ReadReal(t, rel)))
		for d.Next() {
			it, err := acc.Apply(d.Event())
			now = now.Add(50 * time.Millisecond)
			if err == nil && it != nil {
				log.Note(now, acc.Responses(), func(x *stream.Item) bool { return x == it })
			}
		}
		acc.Finish()
		c.Finish(turn, acc.Responses(), nil, false)
		log.End(now, turn)
		w := want{name: rel, items: map[[2]int][]byte{}}
		for ri, s := range acc.Responses() {
			w.ids = append(w.ids, s.ID)
			for _, it := range s.Items {
				w.items[[2]int{ri, it.Index}] = it.JSON()
			}
		}
		wants = append(wants, w)
	}
	j.Close()
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != len(wants) {
		t.Fatalf("%d turns stored, want %d", len(s.Turns), len(wants))
	}
	for i, tr := range s.Turns {
		w := wants[i]
		n := 0
		for _, r := range tr.Responses {
			if r.Index < len(w.ids) && r.ID != w.ids[r.Index] {
				t.Errorf("%s: response %d id %q, want %q", w.name, r.Index, r.ID, w.ids[r.Index])
			}
			for _, it := range r.Items {
				n++
				if !bytes.Equal(it.Raw, w.items[[2]int{r.Index, it.OutputIndex}]) {
					t.Errorf("%s: item %d.%d differs:\n got %.200s\nwant %.200s", w.name, r.Index, it.OutputIndex, it.Raw, w.items[[2]int{r.Index, it.OutputIndex}])
				}
				if !it.Done {
					t.Errorf("%s: item %d.%d not done after the turn ended", w.name, r.Index, it.OutputIndex)
				}
			}
		}
		if n != len(w.items) {
			t.Errorf("%s: %d items stored, want %d", w.name, n, len(w.items))
		}
	}
}
