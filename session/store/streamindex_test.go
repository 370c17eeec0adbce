package store

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A streaming item is indexed when first saved and again once its JSON has
// doubled, not at every save: a save that only grew it leaves its row as it
// was, so a word of the newest text is found once the item doubles, is done,
// or the turn ends (folded with the end's items, written in the same
// transaction).
func TestStreamingItemIndexedAsItDoubles(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "tell me about lemurs", nil, ""))
	found := func(word string) bool {
		t.Helper()
		return len(must[[]Hit](t)(db.Search(word, 5))) == 1
	}
	text := "Lemurs live in Madagascar " + strings.Repeat("and eat leaves ", 10)
	check(t, db.SaveItem(tid, 0, 0, msg("m", text), false))
	if !found("madagascar") {
		t.Fatal("the first save of a streaming item is not findable")
	}
	text += "aardvark"
	check(t, db.SaveItem(tid, 0, 0, msg("m", text), false))
	if found("aardvark") {
		t.Error("a save that barely grew the item indexed it again")
	}
	text += " " + strings.Repeat("and sleep in trees ", 20) + "baobab"
	check(t, db.SaveItem(tid, 0, 0, msg("m", text), false))
	if !found("aardvark") || !found("baobab") {
		t.Error("an item that doubled was not indexed again")
	}
	text += " chameleon"
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{Raw: msg("m", text), Done: true}}}))
	if !found("chameleon") {
		t.Error("the item written with the turn's end is not findable")
	}
	var n int
	check(t, db.r.QueryRow(`SELECT count(*) FROM search WHERE turn = ?`, int64(tid)).Scan(&n))
	if n != 1 {
		t.Errorf("finished turn has %d search rows, want 1", n)
	}
	var raw string
	check(t, db.r.QueryRow(`SELECT raw FROM items WHERE turn_id = ?`, int64(tid)).Scan(&raw))
	if !strings.Contains(raw, "chameleon") {
		t.Error("the end's item was not stored")
	}
	if len(db.index.sizes) != 0 {
		t.Errorf("the finished turn's items are still remembered: %v", db.index.sizes)
	}
}

// A done item is indexed at once, however little it grew.
func TestDoneItemIndexedAtOnce(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hi", nil, ""))
	text := "Quokkas " + strings.Repeat("smile a lot ", 10)
	check(t, db.SaveItem(tid, 0, 0, msg("m", text), false))
	check(t, db.SaveItem(tid, 0, 0, msg("m", text+"wallaby"), true))
	if len(must[[]Hit](t)(db.Search("wallaby", 5))) != 1 {
		t.Error("a done item's last words are not findable while its turn streams")
	}
}

// BenchmarkStreamingSaves is what the store does for a 40 KB answer
// streamed at 200 deltas/s: a save of the growing item each second (50),
// then its end, against the baseline of one FinishTurn that writes the
// whole item, timed in the same run (x-one-finish).
func BenchmarkStreamingSaves(b *testing.B) {
	const saves = 50
	var words []string
	for i := range 8000 {
		words = append(words, fmt.Sprintf("word%d", i%997))
	}
	doc := strings.Join(words, " ") // about 40 KB
	db, _ := openTest(b)
	sid := newSession(b, db, `{}`)
	var streamed, whole time.Duration
	for b.Loop() {
		tid := must[TurnID](b)(db.BeginTurn(sid, "a long answer", nil, ""))
		t0 := time.Now()
		for i := 1; i <= saves; i++ {
			check(b, db.SaveItem(tid, 0, 0, msg("m", doc[:len(doc)*i/saves]), false))
		}
		check(b, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{Raw: msg("m", doc), Done: true}}}))
		streamed += time.Since(t0)
		tid = must[TurnID](b)(db.BeginTurn(sid, "a long answer", nil, ""))
		t1 := time.Now()
		check(b, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Items: []ItemWrite{{Raw: msg("m", doc), Done: true}}}))
		whole += time.Since(t1)
	}
	b.ReportMetric(float64(streamed)/float64(b.N)/1e6, "ms/answer")
	b.ReportMetric(float64(streamed)/float64(whole), "x-one-finish")
}

// A turn that ends without its items (stopped mid-answer) folds what its
// items hold now, not the half an item's row held when it was last
// indexed: the row of an item that grew since is dropped and the item read
// from its JSON.
func TestStoppedTurnFoldsItsItemsWhole(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "tell me about tenrecs", nil, ""))
	text := "Tenrecs " + strings.Repeat("are small mammals ", 10)
	check(t, db.SaveItem(tid, 0, 0, msg("m", text), false))
	check(t, db.SaveItem(tid, 0, 0, msg("m", text+"fossa"), false)) // grew, not doubled: its row is stale
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusStopped}))
	if len(must[[]Hit](t)(db.Search("fossa", 5))) != 1 {
		t.Error("the stopped turn's last words are not findable")
	}
}
