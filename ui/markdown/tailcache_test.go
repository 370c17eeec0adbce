package markdown

import (
	"fmt"
	"strings"
	"testing"

	"runnel/theme"
)

// tailCacheDocs are documents whose streaming goes through the tail's
// caches (tablecache.go, waiting.go) in every way they can be wrong.
var tailCacheDocs = map[string]string{
	"rows": "Intro.\n\n| Name | Kind | Size |\n|------|:----:|-----:|\n| alpha | chat | 1.5 |\n| bravo | responses | 22.75 |\n" +
		"| charlie | chat | 333.125 |\n| delta | x | 4 |\n",
	// a late row widens a column (lipgloss's widths change), then one
	// wider than the screen (textwrap.Columns fixes the widths and cells wrap)
	"widen": "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| a cell that is much wider than the others | 5 |\n" +
		"| 6 | " + strings.Repeat("words that go on and on ", 8) + "|\n| 7 | 8 |\n\nAfter the table.\n",
	// a table ended by a blank line waits while the paragraph's first line comes
	"blank": "| k | v |\n|---|---|\n| one | 1 |\n| two | 2 |\n\n" + strings.Repeat("A long first line of the paragraph after the table, ", 4) +
		"\nand its second line.\n\n| k | v |\n|---|---|\n| one | 1 |\n| two | 2 |\n\nThe same table again, drawn from the cache.\n",
	// a table that ends with the text (no newline), and one whose last row is cut
	"open": "| a | b |\n|---|---|\n| x | y |\n| z",
	"fence": "Code first:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| after | code |\n|---|---|\n| a | b |\n\n" +
		"```\nplain\n```\nThen text.\n",
	// blocks that wait and then change: a setext underline, a delimiter row
	// that makes a paragraph a table, a lazy line, a list made loose
	"change": "Title line\n=====\n\nSubtitle\n---\n\nx | y\n--|--\n1 | 2\n\n- item one\n- item two\n\n  still item two\n\nA paragraph\nwith a lazy line.\n\n> quote\nlazy quote line\n\nEnd.\n",
	// a definition that comes after the block waiting for it
	"refs": "A paragraph with [a link][r] and [another][s].\n\n[r]: https://example.com/r\n\nText.\n\n[s]: https://example.com/s \"S\"\n\nMore text.\n",
	// a list that streams as the last block: items that turn loose, numbers,
	// tasks, nesting, lazy lines, a definition its items wait for
	"items": "1. first [item][d]\n2. second\n   with a continuation\nand a lazy line\n3. third\n   - nested a\n   - nested b\n\n4. now loose\n5. fifth\n\n" +
		"- [ ] task one\n- [x] task two\n- plain " + strings.Repeat("long words wrap here ", 6) + "\n- last\n\n[d]: https://example.com/d\n",
	// the list turns loose after its first item is complete: that item,
	// a paragraph and a list, now has a blank row between them
	"loose": "- first\n  - inner\n- second\n\n- third\n",
	// a definition inside a later item, for a link in an earlier one
	"itemref": "- see [x] here\n- and more\n- [x]: https://example.com/x\n- after\n",
	"lists":   "- one\n- two\n- three\n\nA paragraph after the list, long enough to span a few frames of deltas.\n\n1. first\n2. second\n\n## Heading\n\nAfter the heading.\n",
}

// TestTailCachesKeepEveryFrame: streamed a byte at a time at three widths,
// every frame's Parts joined are byte for byte a whole render of the text so
// far by a renderer of its own (nothing cached from the stream), and a
// second Parts with no new text returns the same parts without drawing
// anything (no cache is asked). The caches are used: tables are taken
// from the table cache, waiting blocks from the waiting render and list
// items from the items kept.
func TestTailCachesKeepEveryFrame(t *testing.T) {
	style := theme.New(theme.Dark()).Glamour()
	tableHits, waitHits, itemHits := 0, 0, 0
	for _, width := range []int{30, 60, 100} {
		for name, doc := range tailCacheDocs {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				r := newTestRenderer(t, style, width)
				s := NewStream(r)
				for i := range len(doc) {
					s.Append(doc[i : i+1])
					head, live := s.Parts()
					want, err := newTestRenderer(t, style, width).Render(doc[:i+1])
					if err != nil {
						t.Fatal(err)
					}
					if got := joinParts(head, live); got != want {
						t.Fatalf("after %q the frame is not the whole render:\n%s", tailOf(doc[:i+1], 30), diffVisible(got, want))
					}
					hits, draws, waits, items := r.tables.hits, r.tables.draws, s.wait.hits, s.items.hits
					if h, l := s.Parts(); h != head || l != live || r.tables.hits != hits || r.tables.draws != draws || s.wait.hits != waits || s.items.hits != items {
						t.Fatalf("after %q a Parts with no new text rendered again", tailOf(doc[:i+1], 30))
					}
				}
				tableHits += r.tables.hits
				waitHits += s.wait.hits
				itemHits += s.items.hits
			})
		}
	}
	if tableHits == 0 || waitHits == 0 || itemHits == 0 {
		t.Errorf("the caches were not used: %d tables, %d waiting blocks, %d list items taken from them", tableHits, waitHits, itemHits)
	}
}

// TestTableCacheKeysEveryInput: two tables that differ in one thing a
// drawing reads (an earlier row that widens a column, an alignment, a
// cell's style, a row too wide for the screen, one row more), drawn one
// after the other by the same renderer, are each drawn as a renderer of
// their own draws them: no table is taken for another.
func TestTableCacheKeysEveryInput(t *testing.T) {
	style := theme.New(theme.Dark()).Glamour()
	const head = "| k | v |\n|---|---|\n"
	pairs := map[string][2]string{
		"widened column": {head + "| a | 1 |\n| z | 9 |\n", head + "| a much wider cell | 1 |\n| z | 9 |\n"},
		"alignment":      {head + "| a | 1 |\n", "| k | v |\n|:-:|--:|\n| a | 1 |\n"},
		"style":          {head + "| a | 1 |\n", head + "| **a** | 1 |\n"},
		"too wide":       {head + "| a | 1 |\n| z | 9 |\n", head + "| " + strings.Repeat("wide words ", 12) + "| 1 |\n| z | 9 |\n"},
		"one row more":   {head + "| z | 9 |\n", head + "| z | 9 |\n| z | 9 |\n"},
		"a cell more":    {head + "| a | 1 |\n", "| k | v | w |\n|---|---|---|\n| a | 1 |\n"},
	}
	for name, p := range pairs {
		for _, width := range []int{30, 80} {
			r := newTestRenderer(t, style, width)
			for _, src := range []string{p[0], p[1], p[0]} {
				got, err := r.Render(src)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := newTestRenderer(t, style, width).Render(src)
				if got != want {
					t.Errorf("%s at width %d: %q is drawn as another table:\n%s", name, width, src, diffVisible(got, want))
				}
			}
			if r.tables.hits != 1 {
				t.Errorf("%s at width %d: %d tables taken from the cache, want 1 (the first again)", name, width, r.tables.hits)
			}
		}
	}
}
