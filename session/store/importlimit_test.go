package store

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestImportIsBounded: a document past the bounds (a prompt, an item, the
// number of turns, the whole) is refused with one line naming the limit,
// and nothing is written; at the bounds it imports.
func TestImportIsBounded(t *testing.T) {
	t.Parallel() // it counts no allocations and times nothing; parallel tests run after the sequential ones, which do
	db, _ := openTest(t)
	doc := func(turns ...string) []byte {
		return []byte(`{"runnel_export":1,"session":{"id":"","title":"t"},"turns":[` + strings.Join(turns, ",") + `]}`)
	}
	turn := func(prompt, item string) string {
		return `{"prompt":"` + prompt + `","status":"completed","input":[],"items":[{"response":0,"output":0,"done":true,"item":` + item + `}]}`
	}
	small := `{"type":"message","content":[]}`
	// each document is built when its case runs, so -short never builds
	// the one it skips, and only one is held at a time
	for _, c := range []struct {
		name string
		data func() []byte
		want string
	}{
		{"a prompt", func() []byte { return doc(turn(strings.Repeat("x", MaxImportField+1), small)) }, "turns[0].prompt: 16.0 MiB; an import holds at most 16 MiB here"},
		{"an item", func() []byte {
			return doc(turn("hi", `{"type":"message","text":"`+strings.Repeat("y", MaxImportItem)+`"}`))
		}, "turns[0].items[0].item: 64.0 MiB; an import holds at most 64 MiB here"},
		{"many turns", func() []byte { return doc(slices.Repeat([]string{"{}"}, MaxImportTurns+1)...) }, "turns: 10001 turns; an import holds at most 10000"},
		{"a huge file", func() []byte { return make([]byte, MaxImportBytes()+1) }, "an import holds at most 256 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name == "an item" {
				t.Skip("-short: decoding a 64 MiB item takes 6 s (each level of the document is decoded again)")
			}
			_, err := db.Import(c.data())
			if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
	if list, err := db.List(10); err != nil || len(list) != 0 {
		t.Errorf("something was written: %v %v", list, err)
	}
	if _, err := db.Import(doc(turn(strings.Repeat("x", 1000), small))); err != nil {
		t.Errorf("within the bounds: %v", err)
	}
}
