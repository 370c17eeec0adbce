package markdown

import (
	"os"
	"strings"
	"sync"
	"testing"

	"runnel/theme"
)

var (
	fuzzOnce     sync.Once
	fuzzRenderer *Renderer
)

// FuzzStream feeds arbitrary text in arbitrary steps: View never panics and
// the final View shows what a whole render of the message shows.
func FuzzStream(f *testing.F) {
	edge, err := os.ReadFile("testdata/edge.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(edge), uint8(5))
	f.Add(genAnswer(1<<10), uint8(13))
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
			fuzzRenderer, err = NewRenderer(theme.New(theme.Dark()).Glamour(), 40)
			if err != nil {
				t.Fatal(err)
			}
		})
		// The caller cleans text first (the package's contract): invalid
		// UTF-8 arrives as U+FFFD.
		doc = strings.ToValidUTF8(doc, "\uFFFD")
		n := int(step%16) + 1
		s := NewStream(fuzzRenderer)
		s.paraMin = 16 // exercise the long-paragraph fast path on short input
		for i := 0; i < len(doc); i += n {
			s.Append(doc[i:min(i+n, len(doc))])
			_ = s.View()
		}
		want, err := fuzzRenderer.Render(wholeOracle(s))
		if err != nil {
			return // glamour itself failed: nothing to compare with
		}
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Errorf("%s", diff)
		}
	})
}
