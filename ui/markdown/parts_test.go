package markdown

import (
	"strings"
	"testing"
)

// TestPartsAreTheView: after every delta of every test document, Parts'
// rows (settled's, then live's) are View's, and settled only grows while
// nothing changes a settled block (a definition that changes one renders
// it again: then settled may start over), so a caller may keep the rows it
// split of settled; the tail stays small however long the message grows.
func TestPartsAreTheView(t *testing.T) {
	r := newTestRenderer(t, testStyles()["dark"], 72)
	for dname, doc := range testDocs(t) {
		t.Run(dname, func(t *testing.T) {
			s := NewStream(r)
			quick := newTestRenderer(t, testStyles()["notty"], 72)
			prev := ""
			grew := 0
			for i, d := range chunks(doc) {
				s.Append(d)
				var settled, live, view string
				if i%3 == 1 {
					settled, live = s.DraftParts(quick)
					view = s.Draft(quick) // drawn already: the same draft
				} else {
					settled, live = s.Parts()
					view = s.View()
				}
				if got := joinParts(settled, live); got != view {
					t.Fatalf("after delta %d: the parts joined are not the view", i)
				}
				if settled != "" && live != "" && !strings.HasPrefix(live, "\n") {
					t.Fatalf("after delta %d: live %q does not start a row of its own", i, tailOf(live, 20))
				}
				if strings.HasPrefix(settled, prev) {
					grew++
				}
				prev = settled
			}
			if n := len(chunks(doc)); grew < n*9/10 {
				t.Errorf("settled grew from the one before in %d of %d deltas", grew, n)
			}
		})
	}
}
