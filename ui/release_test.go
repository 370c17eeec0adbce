package ui

import (
	"strings"
	"testing"
)

// releasingEntry is a fakeEntry that counts releases and drops its cache.
type releasingEntry struct {
	fakeEntry
	released int
}

func (e *releasingEntry) release() { e.released++; e.cache, e.cacheW = "", 0 }

// TestTranscriptReleasesFarEntries: entries that fell keepEntries behind the
// end, off screen, drop their rendered lines and their own renders (a long
// session keeps sources, not styled renders); scrolling back to one renders
// it again, the same. Live entries and the last keepEntries are kept.
func TestTranscriptReleasesFarEntries(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(40, 10)
	var es []*releasingEntry
	for i := range 200 {
		e := &releasingEntry{fakeEntry: fakeEntry{name: "e" + string(rune('a'+i%26)), n: 3, live: i == 5}}
		es = append(es, e)
		tr.Append(e)
		_ = tr.View()
	}
	if es[0].released != 1 || tr.slots[0].lines != nil {
		t.Errorf("entry 0: released %d times, %d lines cached", es[0].released, len(tr.slots[0].lines))
	}
	if es[5].released != 0 {
		t.Error("a live entry was released")
	}
	for _, e := range es[len(es)-keepEntries:] {
		if e.released != 0 {
			t.Fatal("one of the last entries was released")
		}
	}
	want := es[0].View(40)
	tr.ScrollTo(0)
	if v := tr.View(); !strings.HasPrefix(v, want) {
		t.Errorf("entry 0 after scrolling back:\n%s\nwant it to start with\n%s", v, want)
	}
}
