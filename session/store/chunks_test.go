package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/costtest"
)

// longItem is a streamed answer of about n bytes of text (its JSON a
// little longer) as the journal hands it over: its JSON to encode, and
// the JSON whole, as Item.JSON builds it, to compare with.
func longItem(n int) (*stream.Item, json.RawMessage) {
	it := stream.StoredItem(msg("msg_long", "x"))
	it.Content[0].Text = longAnswer(n)
	it.Content[0].Raw = nil
	it.Raw = nil // only streamed: encoded from its fields
	return it, it.JSON()
}

// chunkRows reports how item rows of turn tid keep their JSON: the
// longest raw, the number of chunk rows and the longest chunk.
func chunkRows(t *testing.T, db *DB, tid TurnID) (longestRaw, chunks, longestChunk int) {
	t.Helper()
	check(t, db.r.QueryRow(`SELECT coalesce(max(length(raw)), 0) FROM items WHERE turn_id = ?`, int64(tid)).Scan(&longestRaw))
	check(t, db.r.QueryRow(`SELECT count(*), coalesce(max(length(data)), 0) FROM item_chunks
		WHERE item_id IN (SELECT id FROM items WHERE turn_id = ?)`, int64(tid)).Scan(&chunks, &longestChunk))
	return
}

// An item's JSON longer than chunkBytes is written in rows of at most
// chunkBytes, none holding it whole, and reads back byte for byte (Load,
// and so resume and export); the search index keeps its first
// SearchTextBytes. Written again shorter, or deleted with its session, its
// chunks go.
func TestLongItemIsStoredInChunks(t *testing.T) {
	t.Parallel() // it counts no allocations and times nothing; parallel tests run after the sequential ones, which do
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "a long answer please", nil, ""))
	it, want := longItem(3*chunkBytes + 12345)
	text := it.Text()
	check(t, db.SaveItems(tid, []ItemWrite{{JSON: it.Encoded(), Done: false, Text: &stream.Searchable{Answer: text}}}))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusIncomplete, Items: []ItemWrite{{JSON: it.Encoded(), Done: true, Text: &stream.Searchable{Answer: text}}}}))
	raw, chunks, longest := chunkRows(t, db, tid)
	if raw != 0 || chunks != len(want)/chunkBytes+1 || longest != chunkBytes {
		t.Errorf("a %d-byte item is kept as raw of %d bytes and %d chunks of at most %d, want no raw and %d chunks of %d",
			len(want), raw, chunks, longest, len(want)/chunkBytes+1, chunkBytes)
	}
	s := load(t, db, sid)
	if got := s.Turns[0].Responses[0].Items[0].Raw; !bytes.Equal(got, want) {
		t.Fatalf("loaded %d bytes, want the item's %d", len(got), len(want))
	}
	if hits := must[[]Hit](t)(db.Search("lemurs", 5)); len(hits) != 1 {
		t.Errorf("the start of a long answer is not findable: %+v", hits)
	}
	if hits := must[[]Hit](t)(db.Search("tarsiers", 5)); len(hits) != 0 {
		t.Errorf("text past the first %d bytes is indexed: %+v", stream.SearchTextBytes, hits)
	}
	f := must[ExportFile](t)(db.Export(sid))
	if !bytes.Contains(f.Data, []byte("omega tarsiers")) {
		t.Error("the export lacks the end of the long answer")
	}
	imported := must[SessionID](t)(db.Import(f.Data))
	if got := load(t, db, imported).Turns[0].Responses[0].Items[0].Raw; !bytes.Equal(got, want) {
		t.Errorf("imported %d bytes, want the item's %d", len(got), len(want))
	}

	check(t, db.SaveItems(tid, []ItemWrite{{Raw: msg("msg_long", "short now"), Done: true}}))
	if raw, chunks, _ := chunkRows(t, db, tid); raw == 0 || chunks != 0 {
		t.Errorf("written again short, the item keeps %d bytes of raw and %d chunks, want its raw and none", raw, chunks)
	}
	check(t, db.Delete(imported))
	var left int
	check(t, db.r.QueryRow(`SELECT count(*) FROM item_chunks`).Scan(&left))
	if left != 0 {
		t.Errorf("%d chunk rows left after their sessions were rewritten or deleted", left)
	}
}

// A partial item never replaces a done one, chunks included.
func TestLongItemPartialKeepsTheDoneChunks(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "a long answer please", nil, ""))
	it, want := longItem(2 * chunkBytes)
	check(t, db.SaveItems(tid, []ItemWrite{{JSON: it.Encoded(), Done: true}}))
	check(t, db.SaveItems(tid, []ItemWrite{{Raw: msg("msg_long", "partial"), Done: false}}))
	if got := load(t, db, sid).Turns[0].Responses[0].Items[0].Raw; !bytes.Equal(got, want) {
		t.Errorf("after a late partial, loaded %d bytes, want the done item's %d", len(got), len(want))
	}
}

// With the session's secrets set, a long item is written with them hidden
// as a short one is: what Redactor.JSON makes of its whole JSON.
func TestLongItemIsWrittenRedacted(t *testing.T) {
	const key = "sk-echoed-0123456789abcdef"
	db, _ := openTest(t)
	r := stream.NewRedactor(key)
	db.SetSecrets(r)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hello", nil, ""))
	it, _ := longItem(2 * chunkBytes)
	it.Content[0].Text = "the key " + key + " é\t" + it.Content[0].Text + key
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{JSON: it.Encoded(), Done: true}}}))
	got := load(t, db, sid).Turns[0].Responses[0].Items[0].Raw
	if want := r.JSON(it.JSON()); !bytes.Equal(got, want) || bytes.Contains(got, []byte(key)) {
		t.Errorf("stored %d bytes (key in it: %v), want %d, Redactor.JSON's", len(got), bytes.Contains(got, []byte(key)), len(want))
	}
}

// An item whose JSON is handed over to encode (as the journal does) is
// saved without its JSON ever built whole: saving and ending the turn of
// an answer as long as the response limit allocate a small part of the
// text (a chunk buffer, the indexed text), where building its JSON alone
// is 1.0 byte per byte. The driver's and SQLite's copies of what is bound
// are outside the Go heap: chunkRows bounds them (no row holds more than
// chunkBytes).
func TestLongItemSaveHoldsNoWholeJSON(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	it, _ := longItem(16 << 20)
	text := it.Text()
	db, _ := openTest(t)
	least := uint64(math.MaxUint64)
	for range 3 {
		sid := newSession(t, db, `{}`)
		tid := must[TurnID](t)(db.BeginTurn(sid, "a long answer please", nil, ""))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{JSON: it.Encoded(), Done: true, Text: &stream.Searchable{Answer: text}}}}))
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
		if raw, _, longest := chunkRows(t, db, tid); raw != 0 || longest > chunkBytes {
			t.Errorf("a row holds %d bytes of raw, a chunk %d; want none and at most %d", raw, longest, chunkBytes)
		}
	}
	perByte := float64(least) / float64(len(text))
	t.Logf("ending a turn with a %d MiB answer allocated %.3f bytes per byte of text", len(text)>>20, perByte)
	if perByte > 0.4 {
		t.Errorf("ending a turn with a %d MiB answer allocated %.3f bytes per byte of its text, want at most 0.4 (no copy of its JSON)", len(text)>>20, perByte)
	}
	if strings.Count(text, "omega tarsiers") != 1 {
		t.Fatal("the answer lost its end")
	}
}

// A database of schema 7 (before item chunks) migrates, reads as before,
// and then stores a long item in chunks.
func TestMigratedDatabaseStoresLongItemsInChunks(t *testing.T) {
	db := openV7(t)
	before := load(t, db, v7Session)
	tid := must[TurnID](t)(db.BeginTurn(v7Session, "a long answer please", nil, before.LastResponseID()))
	it, want := longItem(chunkBytes + 1)
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{JSON: it.Encoded(), Done: true}}}))
	after := load(t, db, v7Session)
	if len(after.Turns) != len(before.Turns)+1 {
		t.Fatalf("%d turns, want %d", len(after.Turns), len(before.Turns)+1)
	}
	for i, tr := range before.Turns {
		if !reflect.DeepEqual(itemsOf(tr), itemsOf(after.Turns[i])) {
			t.Errorf("turn %d's items changed", tr.Seq)
		}
	}
	if got := after.Turns[len(after.Turns)-1].Responses[0].Items[0].Raw; !bytes.Equal(got, want) {
		t.Errorf("loaded %d bytes, want %d", len(got), len(want))
	}
	if _, chunks, _ := chunkRows(t, db, tid); chunks != 2 {
		t.Errorf("%d chunks, want 2", chunks)
	}
}

// An item handed over to encode whose values do not encode, with no JSON
// received to fall back on, is refused as bad input, and nothing of it is
// stored.
func TestItemJSONThatDoesNotEncodeIsRefused(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hello", nil, ""))
	it := &stream.Item{Type: "message", ID: "msg_1", Role: "assistant",
		Content: []stream.Part{{Type: "output_text", Text: "hi", Annotations: []json.RawMessage{json.RawMessage(`{"broken`)}}}}
	err := db.SaveItems(tid, []ItemWrite{{JSON: it.Encoded(), Done: true}})
	if !errors.Is(err, ErrBadInput) {
		t.Fatalf("saved an item whose JSON does not encode: %v", err)
	}
	if n := len(load(t, db, sid).Turns[0].Responses); n != 0 {
		t.Errorf("%d responses stored, want none", n)
	}
}
