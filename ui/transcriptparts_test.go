package ui

import (
	"strings"
	"testing"
)

// partsText is an Entry that renders in two parts (partsEntry).
type partsText struct{ settled, live string }

func (e *partsText) View(int) string {
	switch {
	case e.settled == "":
		return e.live
	case e.live == "":
		return e.settled
	}
	return e.settled + "\n" + e.live
}
func (e *partsText) Live() bool                           { return true }
func (e *partsText) viewParts(int) (settled, live string) { return e.settled, e.live }

// TestReadPartsAsAFreshRead: a slot of an entry that renders in parts holds,
// after every change (settled growing, its last row going on, settled
// rewritten or gone, live changing, a new width), the lines a first read of
// the whole text gives; rows too wide and tabs are fitted.
func TestReadPartsAsAFreshRead(t *testing.T) {
	wide := strings.Repeat("w", 50)
	steps := []partsText{
		{"", "first\trow"},
		{"one", "\nlive"},
		{"one\n\ntwo", "\nlive " + wide},
		{"one\n\ntwo and more", ""},
		{"one\n\ntwo and more\n\n" + wide, "\nlive\n\tend"},
		{"one\n\ntwo and more\n\n" + wide + "\n\nthree", "\n"},
		{"rewritten\n\nfrom the start", "\nlive"},
		{"", "only live\nrows"},
		{"settled again", ""},
	}
	for _, width := range []int{40, 20} {
		e := &partsText{}
		var s slot
		s.e = e
		for i, st := range steps {
			*e = st
			s.read(width)
			var fresh slot
			fresh.e = &textEntry{e.View(width)}
			fresh.read(width)
			if strings.Join(s.lines, "\n") != strings.Join(fresh.lines, "\n") || len(s.lines) != len(fresh.lines) {
				t.Fatalf("width %d, step %d: lines %q, want %q", width, i, s.lines, fresh.lines)
			}
			if strings.Join(s.raw, "\n") != e.View(width) {
				t.Fatalf("width %d, step %d: raw rows %q are not the view", width, i, s.raw)
			}
		}
	}
}
