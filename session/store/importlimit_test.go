package store

import (
	"errors"
	"strings"
	"testing"
)

// TestImportIsBounded: a document past the bounds (a prompt, an item, the
// number of turns, the whole) is refused with one line naming the limit,
// and nothing is written; at the bounds it imports.
func TestImportIsBounded(t *testing.T) {
	db, _ := openTest(t)
	doc := func(turns ...string) []byte {
		return []byte(`{"runnel_export":1,"session":{"id":"","title":"t"},"turns":[` + strings.Join(turns, ",") + `]}`)
	}
	turn := func(prompt, item string) string {
		return `{"prompt":"` + prompt + `","status":"completed","input":[],"items":[{"response":0,"output":0,"done":true,"item":` + item + `}]}`
	}
	small := `{"type":"message","content":[]}`
	bigText := strings.Repeat("x", MaxImportField+1)
	bigItem := `{"type":"message","text":"` + strings.Repeat("y", MaxImportItem) + `"}`
	many := make([]string, MaxImportTurns+1)
	for i := range many {
		many[i] = "{}"
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a prompt":    {doc(turn(bigText, small)), "turns[0].prompt: 16.0 MiB; an import holds at most 16 MiB here"},
		"an item":     {doc(turn("hi", bigItem)), "turns[0].items[0].item: 64.0 MiB; an import holds at most 64 MiB here"},
		"many turns":  {doc(many...), "turns: 10001 turns; an import holds at most 10000"},
		"a huge file": {make([]byte, MaxImportBytes()+1), "an import holds at most 256 MiB"},
	} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "an item" {
				t.Skip("-short: decoding a 64 MiB item takes 6 s (each level of the document is decoded again)")
			}
			_, err := db.Import(c.data)
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
