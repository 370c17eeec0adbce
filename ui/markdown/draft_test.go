package markdown

import (
	"slices"
	"testing"

	"runnel/theme"
)

// quickRenderer is r's style without code highlighting, as ui/block makes
// it for Stream.Draft.
func quickRenderer(t testing.TB, width int) (full, quick *Renderer) {
	style := theme.New(theme.Dark()).Glamour()
	full = newTestRenderer(t, style, width)
	style.CodeBlock.Chroma, style.CodeBlock.Theme = nil, ""
	return full, newTestRenderer(t, style, width)
}

// TestDraftsKeepTheRowsAndViewColoursThem is the property Draft adds, on
// every recorded answer and the edge document: however drafts and views
// alternate while a message streams, a draft shows the rows of a whole
// render (the same text in the same places), and the next View equals a
// whole render, styles included. Drafts do leave code uncoloured.
func TestDraftsKeepTheRowsAndViewColoursThem(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: long property run (every recorded answer)")
	}
	t.Parallel() // renderers of its own
	docs := allAnswers(t)
	for name, doc := range testDocs(t) {
		docs[name] = doc
	}
	full, quick := quickRenderer(t, 60)
	plain := 0
	for name, doc := range docs {
		s := NewStream(full)
		ds := chunks(doc)
		for i, d := range ds {
			s.Append(d)
			draft := i%97 < 80 // runs of drafts, then of views
			if i%7 != 0 && i != len(ds)-1 {
				continue
			}
			want, err := full.Render(s.Source())
			if err != nil {
				t.Fatal(err)
			}
			if !draft {
				if diff := diffVisible(s.View(), want); diff != "" {
					t.Fatalf("%s: a view after drafts, after %d bytes (last %q): %s", name, len(s.Source()), tailOf(s.Source(), 40), diff)
				}
				continue
			}
			got := s.Draft(quick)
			if !slices.Equal(visible(got), visible(want)) {
				t.Fatalf("%s: a draft after %d bytes (last %q) has other rows than a whole render:\n%s\nwant\n%s", name, len(s.Source()), tailOf(s.Source(), 40), got, want)
			}
			if got != want {
				plain++
			}
		}
		want, _ := full.Render(s.Source())
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Fatalf("%s: the last view: %s", name, diff)
		}
	}
	if plain == 0 {
		t.Fatal("no draft differed from a whole render: drafts highlighted their code")
	}
}

// TestDraftHighlightsNothing: a message drafted from its first byte to its
// last highlights no code; the View after it highlights each block once
// more than it was (the open fence's lines, then the closed block).
func TestDraftHighlightsNothing(t *testing.T) {
	full, quick := quickRenderer(t, 80)
	src := "Some code:\n\n```go\nx := 1\ny := 2\n```\n\nThen more:\n\n```python\nprint(1)\n```\n\nThe end, still"
	s := NewStream(full)
	for i := range src {
		s.Append(src[i : i+1])
		s.Draft(quick)
	}
	if n := full.lines.misses; n != 0 {
		t.Fatalf("drafts highlighted %d pieces of code", n)
	}
	want, _ := full.Render(src)
	if got := s.View(); got != want {
		t.Fatalf("the view after drafts is not a whole render:\n%s\nwant\n%s", got, want)
	}
	if s.Draft(quick) != want {
		t.Fatal("a draft with nothing new is not the last view")
	}
}
