package markdown

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"runnel/theme"
)

var (
	fuzzOnce     sync.Once
	fuzzRenderer *Renderer
	fuzzQuick    *Renderer // fuzzRenderer's style without code highlighting
)

// FuzzStream feeds arbitrary text in arbitrary steps: View never panics and
// the final View shows what a whole render of the message shows. With the
// step's high bit set, most frames are drafts: the last draft shows the
// rows of a whole render, and the View after it is one.
func FuzzStream(f *testing.F) {
	edge, err := os.ReadFile("testdata/edge.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(edge), uint8(5))
	f.Add(genAnswer(1<<10), uint8(13))
	f.Add(genAnswer(1<<10), uint8(0x80|7))
	f.Add(string(edge), uint8(0x80|3))
	for _, s := range []string{
		"", "\n", "```", "```\n\n", "~~~\n```\n\n~~~", "- a\n\n  b\n\n- c", "1. a\n1. b\n\n1. c",
		"<!--\n\n-->", "[a]: /u\n\n[a]", "> q\n\n> r", "| a |\n|---|\n\n", "    code\n\n    more",
		"Term\n\n: def", "# H\ntext", "* * *\n- x", "\t\t- x\n\n\t\t```\n", "[x][y]\n\n[y]: <>",
		"A long line with **bold** and *it* and `code` then [a link](http://x.y) and more words. Then *open and on",
		"Words  with  double spaces, a_b snake_case, 3 * 4 = 12 and <b>html</b> then ~~gone~~ text and www.example.com here",
	} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, doc string, step uint8) {
		fuzzOnce.Do(func() {
			var err error
			// The product's style: it has the paragraph fast path.
			style := theme.New(theme.Dark()).Glamour()
			fuzzRenderer, err = NewRenderer(style, 40)
			if err != nil {
				t.Fatal(err)
			}
			style.CodeBlock.Chroma, style.CodeBlock.Theme = nil, ""
			if fuzzQuick, err = NewRenderer(style, 40); err != nil {
				t.Fatal(err)
			}
		})
		// The caller cleans text first (the package's contract): invalid
		// UTF-8 arrives as U+FFFD.
		doc = strings.ToValidUTF8(doc, "\uFFFD")
		n, drafts := int(step%16)+1, step&0x80 != 0
		s := NewStream(fuzzRenderer)
		s.long.min = 64 // exercise the long-block path on short input
		for i := 0; i < len(doc); i += n {
			s.Append(doc[i:min(i+n, len(doc))])
			if drafts && (i/n)%5 != 0 {
				_ = s.Draft(fuzzQuick)
			} else {
				_ = s.View()
			}
		}
		unrough(s)
		want, err := fuzzRenderer.Render(wholeOracle(s))
		if err != nil {
			return // glamour itself failed: nothing to compare with
		}
		if got := visible(s.Draft(fuzzQuick)); drafts && !slices.Equal(got, visible(want)) {
			t.Errorf("the last draft's rows differ from a whole render's:\n%q\nwant\n%q", got, visible(want))
		}
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Errorf("%s", diff)
		}
	})
}
