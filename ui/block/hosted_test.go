package block

import (
	"strings"
	"testing"
	"time"
)

// TestHostedLine: the six web_search_call items of the fixture as one
// Hosted line: searches, distinct sources, pages opened and finds in pages
// counted apart (an open_page is not a search); a spinner and the phase
// while one runs; expanded, the six panels follow, each titled by what it
// did, and every row fits.
func TestHostedLine(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-web-search-6-calls.sse"))
	h := NewHosted()
	sawLive := false
	for r.next() {
		for _, b := range r.byType("web_search_call") {
			h.Add(b)
		}
		if len(h.members) == 0 {
			continue
		}
		out := visible(h.Render(r.ctx(100)))
		if strings.Contains(out, "\n") {
			t.Fatalf("collapsed Hosted is more than one row:\n%s", out)
		}
		if h.Live() {
			sawLive = true
			if !spinnerRE.MatchString(out) {
				t.Fatalf("live Hosted line without a spinner: %q", out)
			}
		}
	}
	if !sawLive {
		t.Error("the line was never live")
	}
	if len(h.members) != 6 {
		t.Fatalf("%d members, want 6", len(h.members))
	}
	want := "⌕ 2 searches · 21 sources · 1 page opened · 3 finds in pages"
	if got := visible(h.Render(r.ctx(100))); got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	h.SetExpanded(true)
	for _, w := range []int{100, 40, 10} {
		out := h.Render(r.ctx(w))
		checkFits(t, "expanded", out, w)
		checkSafe(t, "expanded", out)
	}
	vis := visible(h.Render(r.ctx(100)))
	for title, n := range map[string]int{"web search": 2, "open page": 1, "find in page": 3} {
		if got := countHeaders(vis, title); got != n {
			t.Errorf("%d %q panels, want %d:\n%s", got, title, n, vis)
		}
	}
	if !strings.Contains(vis, "… 1 more line") && !strings.Contains(vis, "11 sources") {
		t.Errorf("expanded panels:\n%s", vis)
	}
	for _, m := range h.members {
		if !m.(Expander).Expanded() {
			t.Error("a member is not expanded with its line")
		}
	}
}

// TestHostedStates: a failed search and one cut off by the end of the
// response are counted on the line.
func TestHostedStates(t *testing.T) {
	h := NewHosted()
	failed := ForItem(item(t, `{"type":"web_search_call","id":"a","status":"failed","action":{"type":"search","query":"q"}}`), epoch)
	cut := ForItem(item(t, `{"type":"file_search_call","id":"b","status":"in_progress","queries":["q"]}`), epoch)
	cut.Item().Done = false
	h.Add(failed)
	h.Add(cut)
	h.Update(epoch)
	if !h.Live() || !strings.Contains(visible(h.Render(Context{Width: 80, Styles: testStyles, Now: epoch.Add(time.Second)})), "1 failed") {
		t.Errorf("live: %q", visible(h.Render(Context{Width: 80, Styles: testStyles, Now: epoch})))
	}
	h.End(epoch.Add(time.Second))
	got := visible(h.Render(Context{Width: 80, Styles: testStyles, Now: epoch.Add(2 * time.Second)}))
	if want := "⌕ 1 search · 1 file search · 1 failed · 1 interrupted"; got != want || h.Live() {
		t.Errorf("ended: %q, want %q", got, want)
	}
}
