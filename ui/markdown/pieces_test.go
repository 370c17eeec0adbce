package markdown

import (
	"slices"
	"strings"
	"testing"

	"runnel/theme"
)

// TestParaLinesJoinedMatchesApart checks that two pieces rendered as one
// paragraph with the split marker give the lines they give rendered apart,
// including pieces that hold the marker word themselves.
func TestParaLinesJoinedMatchesApart(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 60)
	if !r.para.ok {
		t.Fatal("the product style has no paragraph fast path")
	}
	cases := [][2]string{
		{"Some **bold** text, `code` and", "more words"},
		{"a [link](https://example.com/x) then [an open][later] ref", "and *it*"},
		{"plain", "words"},
		{"the word " + splitMark + " itself", "after"},
	}
	for _, c := range cases {
		joined, err := r.paraLines("", c[0], c[1])
		if err != nil {
			t.Fatalf("paraLines(%q, %q): %v", c[0], c[1], err)
		}
		apart, err := r.paraLinesApart("", c[:])
		if err != nil {
			t.Fatalf("paraLinesApart(%q, %q): %v", c[0], c[1], err)
		}
		if !slices.Equal(visibleLines(joined), visibleLines(apart)) {
			t.Errorf("%q: joined %q, apart %q", c, joined, apart)
		}
	}
}

func visibleLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(visible(l), "\n")
	}
	return out
}

// TestLastSafeSplitBrackets checks where brackets allow a paragraph split.
func TestLastSafeSplitBrackets(t *testing.T) {
	bp := newBlockParser()
	cases := []struct {
		text  string
		after string // the text must split just before this ("" for no split)
	}{
		{"see [docs][ref] and more", "more"},
		{"see [docs] and more", "more"},
		{"a [b [c] d] then e", "e"},
		{"an [open bracket still", ""},
		{"an \\[escaped] bracket here", ""},
		{"[label] with words", "words"},
		{"[label]: looks like a definition", ""},
		{"[label words", ""},
	}
	for _, c := range cases {
		at := lastSafeSplit(bp, c.text)
		got := ""
		if at > 0 {
			got = c.text[at+1:]
		}
		want := c.after
		if want != "" && !strings.HasSuffix(c.text, want) {
			t.Fatalf("bad case %q", c.text)
		}
		if got != want {
			t.Errorf("lastSafeSplit(%q) splits before %q, want %q", c.text, got, want)
		}
	}
}

// TestItemBegun checks which unfinished lines settle a new list item.
func TestItemBegun(t *testing.T) {
	bullet := listTail{bullet: '-'}
	ordered := listTail{delim: '.'}
	cases := []struct {
		c    *listTail
		line string
		want bool
	}{
		{&bullet, "- W", true},
		{&bullet, "- **Bold", true},
		{&bullet, "-", false},
		{&bullet, "- ", false},
		{&bullet, "- -", false}, // may become a thematic break
		{&bullet, "- - x", true},
		{&bullet, "  - nested", false},
		{&bullet, "* other", false},
		{&bullet, "-      code", false},
		{&ordered, "3. Item", true},
		{&ordered, "3) Item", false},
		{&ordered, "3.", false},
	}
	for _, c := range cases {
		if got := c.c.itemBegun(c.line); got != c.want {
			t.Errorf("itemBegun(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
