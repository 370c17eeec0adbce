package stream

import (
	"bytes"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"runnel/stream/costtest"
)

// TestMarshalOnceIsMarshal: marshalOnce writes what json.Marshal writes,
// byte for byte, for the values Item.JSON builds, long strings with every
// kind of escape (HTML, controls, U+2028, invalid UTF-8, runes across a
// chunk's edge) included.
func TestMarshalOnceIsMarshal(t *testing.T) {
	long := func(unit string) string { return strings.Repeat(unit, 3*bigString/len(unit)+7) }
	cases := []any{
		map[string]any{},
		map[string]any{"type": "message", "content": []any{map[string]any{"type": "output_text", "text": "a<b>&\"c\"\n", "annotations": []json.RawMessage{}}}},
		map[string]any{"text": long("word <tag> & \"q\"\n\t\x01")},
		map[string]any{"text": long("é日本\u2028\u2029😀")},
		map[string]any{"text": long("ab\xff\xe2\x82") + "\xe2"},
		map[string]any{"text": strings.Repeat("x", bigString-1) + "😀" + long("\x80")},
		map[string]any{"n": 1.5, "b": true, "null": nil, "raw": json.RawMessage(`{ "a" : [1, 2] }`), "cmds": []string{"ls <x>"},
			"nested": map[string]any{"z": []any{"y", map[string]any{"x": long("q")}}}, "nilmap": map[string]any(nil), "nilslice": []any(nil)},
	}
	for i, c := range cases {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalOnce(c)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d: marshalOnce differs from json.Marshal (len %d, want %d)", i, len(got), len(want))
		}
		if cap(got) != len(got) {
			t.Errorf("case %d: buffer of %d for %d bytes, want it exact", i, cap(got), len(got))
		}
	}
}

// TestItemJSONHoldsTextOnce: the JSON of a streamed answer as long as the
// response limit is written holding about one more copy of its text (the
// JSON itself), where json.Marshal held three or four at once (its
// doubling buffer and the copy it returns): the journal writes each
// answer's JSON as the turn ends.
func TestItemJSONHoldsTextOnce(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	const n = 8 << 20 // the whole limit, also under -short: the counter is the process's, and a parallel test's allocations must stay small beside it
	it := &Item{Type: "message", ID: "msg_1", Role: "assistant", Status: "completed", Added: true,
		Content: []Part{{Type: "output_text", Text: strings.Repeat("word and more <words>\n", n/22)}}}
	// The counter is the process's: what another test's goroutines still
	// allocate adds to a sample, never takes from it, so the least of a few
	// samples is Item.JSON's own.
	var raw []byte
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		raw = it.JSON()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if got := StoredItem(raw); got == nil || got.Text() != it.Content[0].Text {
		t.Fatal("the JSON does not hold the answer")
	}
	perByte := float64(least) / float64(len(it.Content[0].Text))
	t.Logf("%.2f bytes allocated per byte of text (%d bytes of JSON)", perByte, len(raw))
	if max := 1.1 * float64(len(raw)) / float64(len(it.Content[0].Text)); perByte > max {
		t.Errorf("Item.JSON allocated %.2f bytes per byte of an %d MiB answer, want at most %.2f (its JSON, once)", perByte, n>>20, max)
	}
}
