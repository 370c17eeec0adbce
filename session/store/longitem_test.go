package store

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"runnel/stream"

	"runnel/stream/costtest"
)

// longAnswer is an answer of about n bytes whose first words are "alpha
// lemurs" and whose last, past stream.SearchTextBytes, are "omega
// tarsiers".
func longAnswer(n int) string {
	return "alpha lemurs\n" + strings.Repeat("filler words in a paragraph\n", n/28) + "omega tarsiers\n"
}

// An item longer than stream.SearchTextBytes is stored whole; the search
// index keeps its first SearchTextBytes, so its start is findable and its
// end is not, and a resume reads it back byte for byte.
func TestSearchKeepsTheFirstPartOfALongItem(t *testing.T) {
	t.Parallel() // it counts no allocations and times nothing; parallel tests run after the sequential ones, which do
	for _, viaText := range []bool{false, true} {
		db, _ := openTest(t)
		sid := newSession(t, db, `{}`)
		tid := must[TurnID](t)(db.BeginTurn(sid, "a long answer please", nil, ""))
		text := longAnswer(3 * stream.SearchTextBytes)
		raw := msg("m", text)
		w := ItemWrite{Raw: raw, Done: true}
		if viaText {
			w.Text = &stream.Searchable{Answer: text}
		}
		check(t, db.SaveItems(tid, []ItemWrite{w}))
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusIncomplete}))
		if hits := must[[]Hit](t)(db.Search("lemurs", 5)); len(hits) != 1 {
			t.Errorf("Text given %v: the start of a long answer is not findable: %+v", viaText, hits)
		}
		if hits := must[[]Hit](t)(db.Search("tarsiers", 5)); len(hits) != 0 {
			t.Errorf("Text given %v: text past the first %d bytes is indexed: %+v", viaText, stream.SearchTextBytes, hits)
		}
		var indexed int
		check(t, db.r.QueryRow(`SELECT length(answer) FROM search WHERE rowid = ?`, -int64(tid)).Scan(&indexed))
		if indexed > stream.SearchTextBytes {
			t.Errorf("Text given %v: the index holds %d bytes of the answer, want at most %d", viaText, indexed, stream.SearchTextBytes)
		}
		s := load(t, db, sid)
		if got := s.Turns[0].Responses[0].Items[0].Raw; !bytes.Equal(got, raw) {
			t.Errorf("Text given %v: the stored item is not the item (%d bytes, want %d)", viaText, len(got), len(raw))
		}
	}
}

// The search text a caller gives with an item (ItemWrite.Text) is the
// index's: and like the item itself it is written with the session's
// secrets hidden.
func TestSaveItemsTextIsIndexedRedacted(t *testing.T) {
	const key = "sk-echoed-0123456789abcdef"
	db, _ := openTest(t)
	db.SetSecrets(stream.NewRedactor(key))
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "hello", nil, ""))
	text := "the gibbons say " + key
	check(t, db.SaveItems(tid, []ItemWrite{{Raw: msg("m", text), Done: true, Text: &stream.Searchable{Answer: text}}}))
	if hits := must[[]Hit](t)(db.Search("gibbons", 5)); len(hits) != 1 {
		t.Errorf("the given text is not indexed while the turn streams: %+v", hits)
	}
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	if hits := must[[]Hit](t)(db.Search("gibbons", 5)); len(hits) != 1 {
		t.Errorf("the given text is not indexed once the turn ends: %+v", hits)
	}
	var answer string
	check(t, db.r.QueryRow(`SELECT answer FROM search WHERE rowid = ?`, -int64(tid)).Scan(&answer))
	if strings.Contains(answer, "0123456789abcdef") || !strings.Contains(answer, stream.Redacted) {
		t.Errorf("indexed answer %q, want the key redacted", answer)
	}
}

// Saving an answer as long as the response limit, with its search text
// (as the journal does), and ending its turn allocate far less than the
// answer: the index reads neither the item's JSON nor, when the turn ends
// and its rows fold into one, the stored item again (it held the text
// four times over, twice, as the turn ended).
//
// Under -short the answer is 8 MiB: the bound (four times
// stream.SearchTextBytes) does not scale with it, and one copy of the
// answer is still twice it.
func TestLongAnswerSaveAndFoldDoNotDecodeIt(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "a long answer please", nil, ""))
	size := 16 << 20
	if testing.Short() {
		size = 8 << 20
	}
	text := longAnswer(size)
	raw := msg("m", text)
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	save := allocated(func() {
		check(t, db.SaveItems(tid, []ItemWrite{{Raw: raw, Done: true, Text: &stream.Searchable{Answer: text}}}))
	})
	fold := allocated(func() { check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted})) })
	t.Logf("a %d MiB answer: SaveItems allocated %.1f MiB, FinishTurn %.1f MiB", len(text)>>20, float64(save)/(1<<20), float64(fold)/(1<<20))
	bound := uint64(4 * stream.SearchTextBytes)
	if save > bound || fold > bound {
		t.Errorf("saving a %d MiB answer allocated %d bytes and ending its turn %d, want each at most %d (a few copies of the indexed text, none of the answer)",
			len(text)>>20, save, fold, bound)
	}
	if hits := must[[]Hit](t)(db.Search("lemurs", 5)); len(hits) != 1 {
		t.Errorf("the answer is not findable: %+v", hits)
	}
	var n int
	check(t, db.r.QueryRow(`SELECT count(*) FROM search WHERE turn = ?`, int64(tid)).Scan(&n))
	if n != 1 {
		t.Errorf("the finished turn has %d search rows, want 1", n)
	}
}
