package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// testStyles are the glamour styles the properties are checked with: the
// stock dark style (coloured document, margin 2) and the colourless one.
func testStyles() map[string]ansi.StyleConfig {
	return map[string]ansi.StyleConfig{
		"dark":  styles.DarkStyleConfig,
		"notty": styles.NoTTYStyleConfig,
	}
}

func newTestRenderer(t testing.TB, style ansi.StyleConfig, width int) *Renderer {
	t.Helper()
	r, err := NewRenderer(style, width)
	if err != nil {
		t.Fatalf("NewRenderer: %v", err)
	}
	return r
}

// visible returns the rows of a render as the terminal shows them: escape
// sequences removed, trailing spaces trimmed.
func visible(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(xansi.Strip(l), " ")
	}
	return lines
}

// diffVisible describes the first difference between two renders' visible
// rows, or returns "".
func diffVisible(got, want string) string {
	g, w := visible(got), visible(want)
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("row %d (of %d streamed, %d whole):\n  streamed: %q\n  whole:    %q", i, len(g), len(w), gl, wl)
		}
	}
	return ""
}

// testDocs returns the markdown documents the properties are checked on.
func testDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	edge, err := os.ReadFile("testdata/edge.md")
	if err != nil {
		t.Fatalf("read edge doc: %v", err)
	}
	docs["edge.md"] = string(edge)
	docs["generated-3KB"] = genAnswer(3 << 10)
	if _, err := os.Stat("../../../shared"); err == nil {
		for _, name := range fixtureAnswers {
			docs[name] = outputText(t, name)
		}
	} else {
		t.Logf("shared fixtures not found beside the repo; checking edge.md and generated docs only")
	}
	return docs
}

// chunks splits doc into deltas of 1 to 7 bytes, deterministically, cutting
// through UTF-8 sequences as a network would.
func chunks(doc string) []string {
	var out []string
	for i, k := 0, 0; i < len(doc); k++ {
		n := min(1+(k*5)%7, len(doc)-i)
		out = append(out, doc[i:i+n])
		i += n
	}
	return out
}

// TestStreamMatchesWholeAtEveryPrefix is the main property: after every
// delta, the streamed View shows the same text as a whole-document render of
// the message so far.
func TestStreamMatchesWholeAtEveryPrefix(t *testing.T) {
	docs := testDocs(t)
	for sname, style := range testStyles() {
		r := newTestRenderer(t, style, 72)
		for dname, doc := range docs {
			t.Run(sname+"/"+dname, func(t *testing.T) {
				s := NewStream(r)
				for i, d := range chunks(doc) {
					s.Append(d)
					got := s.View()
					want, err := r.Render(wholeOracle(s))
					if err != nil {
						t.Fatalf("Render: %v", err)
					}
					if diff := diffVisible(got, want); diff != "" {
						t.Fatalf("after delta %d (%d bytes, last %q): %s", i, len(s.Source()), tailOf(s.Source(), 40), diff)
					}
				}
				if s.Err() != nil {
					t.Errorf("Err: %v", s.Err())
				}
			})
		}
	}
}

// wholeOracle returns the source a whole render must see to match View:
// the message, minus an unfinished reference definition on its last line
// (definitions count once complete; see Stream.partialDef).
func wholeOracle(s *Stream) string {
	src := s.Source()
	if s.partialDef(src) {
		return src[:s.sc.pos]
	}
	return src
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
