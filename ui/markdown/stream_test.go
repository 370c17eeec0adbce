package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"

	"runnel/stream/sharedtest"
	"runnel/theme"
)

// testStyles are the glamour styles the properties are checked with: the
// product's (theme, dark), glamour's stock dark style (document colour and
// a margin of 2, so a different framing) and the colourless ones:
// glamour's notty (markers for emphasis) and theme's NO_COLOR style.
func testStyles() map[string]ansi.StyleConfig {
	return map[string]ansi.StyleConfig{
		"theme":   theme.New(theme.Dark()).Glamour(),
		"dark":    styles.DarkStyleConfig,
		"notty":   styles.NoTTYStyleConfig,
		"nocolor": theme.New(theme.NoColor()).Glamour(),
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

// diffVisible describes the first difference between two renders' styled
// rows (styledRow: every cell's text, colours, attributes and hyperlink),
// or returns "".
func diffVisible(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		if i >= len(g) || i >= len(w) {
			var gl, wl string
			if i < len(g) {
				gl = styledRow(g[i])
			}
			if i < len(w) {
				wl = styledRow(w[i])
			}
			return fmt.Sprintf("row %d (of %d streamed, %d whole):\n  streamed: %q\n  whole:    %q", i, len(g), len(w), gl, wl)
		}
		// a row's style starts afresh (styledRow), so rows with the same
		// bytes look the same: only rows that differ are canonicalised
		if g[i] == w[i] {
			continue
		}
		if gl, wl := styledRow(g[i]), styledRow(w[i]); gl != wl {
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
	docs["generated-2KB"] = genAnswer(2 << 10)
	if _, err := sharedtest.Find(); err == nil {
		for _, name := range fixtureAnswers {
			docs[name] = outputText(t, name)
		}
	} else if sharedtest.InCI() {
		sharedtest.Missing(t, "%v", err)
	} else {
		t.Logf("%v; checking edge.md and generated docs only", err)
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
	if testing.Short() {
		t.Skip("-short: long property run (a whole render after every delta of 14 documents in 4 styles)")
	}
	docs := testDocs(t)
	for sname, style := range testStyles() {
		for dname, doc := range docs {
			if sname == "dark" && dname != "edge.md" || (sname == "notty" || sname == "nocolor") && dname == "generated-2KB" {
				continue // keep the run short: the stock style's framing is checked on the edge doc
			}
			t.Run(sname+"/"+dname, func(t *testing.T) {
				t.Parallel() // a renderer of its own: the longest property run uses both cores
				r := newTestRenderer(t, style, 72)
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

// wholeOracle returns the source a whole render must match: the message.
func wholeOracle(s *Stream) string { return s.Source() }

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// TestByteAtATimeMatchesChunked feeds documents one byte per View and in
// chunks: the final views are styled alike.
func TestByteAtATimeMatchesChunked(t *testing.T) {
	t.Parallel() // a property run with a renderer (or none) of its own; it counts and times nothing
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 64)
	for name, doc := range testDocs(t) {
		bytewise, chunked := NewStream(r), NewStream(r)
		for i := 0; i < len(doc); i++ {
			bytewise.Append(doc[i : i+1])
			_ = bytewise.View()
		}
		for _, d := range chunks(doc) {
			chunked.Append(d)
		}
		_ = chunked.View()
		if diff := diffVisible(bytewise.View(), chunked.View()); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
}

// TestLastViewIsTheWholeRender checks the end of a message drawn in few
// frames, in every palette: the last View equals a whole render.
func TestLastViewIsTheWholeRender(t *testing.T) {
	for _, p := range []theme.Palette{theme.Dark(), theme.Light(), theme.NoColor()} {
		r := newTestRenderer(t, theme.New(p).Glamour(), 80)
		for name, doc := range testDocs(t) {
			s := NewStream(r)
			for _, d := range chunks(doc) {
				s.Append(d)
				if len(s.Source())%97 < 7 {
					_ = s.View()
				}
			}
			whole, err := r.Render(doc)
			if err != nil || s.Err() != nil {
				t.Fatalf("%s/%s: %v, %v", p.Name, name, err, s.Err())
			}
			if diff := diffVisible(s.View(), whole); diff != "" {
				t.Errorf("%s/%s: %s", p.Name, name, diff)
			}
		}
	}
}

// TestSetRendererRerenders switches width mid-stream and at the end.
func TestSetRendererRerenders(t *testing.T) {
	style := theme.New(theme.Dark()).Glamour()
	wide, narrow := newTestRenderer(t, style, 100), newTestRenderer(t, style, 40)
	doc := testDocs(t)["edge.md"]
	s := NewStream(wide)
	half := len(doc) / 2
	s.Append(doc[:half])
	before := s.View()
	s.SetRenderer(narrow)
	if s.Renderer() != narrow {
		t.Fatal("Renderer() does not return the new renderer")
	}
	mid := s.View()
	if mid == before {
		t.Fatal("View unchanged after a width change")
	}
	if want, _ := narrow.Render(wholeOracle(s)); diffVisible(mid, want) != "" {
		t.Errorf("after the switch: %s", diffVisible(mid, want))
	}
	for _, d := range chunks(doc[half:]) {
		s.Append(d)
		_ = s.View()
	}
	s.SetRenderer(wide)
	if want, _ := wide.Render(doc); diffVisible(s.View(), want) != "" {
		t.Errorf("after switching back: %s", diffVisible(s.View(), want))
	}
}

// TestLateDefinitionRerendersBlocks checks that a block settled before the
// definition it uses arrived shows the link resolved afterwards.
func TestLateDefinitionRerendersBlocks(t *testing.T) {
	r := newTestRenderer(t, styles.NoTTYStyleConfig, 80)
	s := NewStream(r)
	s.Append("Read [the guide][g] first.\n\nThen the rest.\n\nMore.\n")
	v := strings.Join(visible(s.View()), "\n")
	if len(s.blocks) == 0 {
		t.Fatal("nothing settled")
	}
	if !strings.Contains(v, "[the guide][g]") {
		t.Errorf("undefined reference resolved: %q", v)
	}
	s.Append("\n[g]: https://example.com/guide\n")
	v = strings.Join(visible(s.View()), "\n")
	if strings.Contains(v, "[the guide][g]") || !strings.Contains(v, "https://example.com/guide") {
		t.Errorf("definition not applied to the settled block: %q", v)
	}
}

// TestViewWithoutAppendIsCached checks View does no work when nothing was
// appended.
func TestViewWithoutAppendIsCached(t *testing.T) {
	r := newTestRenderer(t, styles.NoTTYStyleConfig, 80)
	s := NewStream(r)
	s.Append("Hello *world*")
	a := s.View()
	s.Append("")
	if b := s.View(); a != b || !s.viewOK {
		t.Errorf("View changed without input: %q vs %q", a, b)
	}
}

// TestRealAnswersStreamLikeWhole is the main property on every recorded
// answer in the shared fixtures, at widths 24, 60 and 99: streamed in
// deltas of 1 to 7 bytes, the view is styled as a whole render of the
// message so far, at about 25 points along each answer and at its end.
func TestRealAnswersStreamLikeWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: long property run (every recorded answer at three widths)")
	}
	answers := allAnswers(t)
	if len(answers) == 0 {
		t.Fatal("no answers found in the fixtures")
	}
	t.Logf("%d answers", len(answers))
	style := theme.New(theme.Dark()).Glamour()
	for _, width := range []int{24, 60, 99} {
		t.Run(fmt.Sprintf("width %d", width), func(t *testing.T) {
			t.Parallel() // a renderer of its own
			r := newTestRenderer(t, style, width)
			for name, doc := range answers {
				ds := chunks(doc)
				every := max(1, len(ds)/25)
				s := NewStream(r)
				for i, d := range ds {
					s.Append(d)
					if i%every != 0 && i != len(ds)-1 {
						continue
					}
					want, err := r.Render(s.Source())
					if err != nil {
						t.Fatalf("Render: %v", err)
					}
					if diff := diffVisible(s.View(), want); diff != "" {
						t.Fatalf("%s at width %d, after %d bytes (last %q): %s", name, width, len(s.Source()), tailOf(s.Source(), 40), diff)
					}
				}
			}
		})
	}
}

// TestClosedFenceSettlesAtOnce: a code block is settled (highlighted once,
// kept) as soon as its closing fence line is complete and the next block
// has begun, without waiting for that block's first line to complete;
// the view still equals a whole render at every step.
func TestClosedFenceSettlesAtOnce(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 80)
	src := "```go\nx := 1\n```\n\nA paragraph whose first line is still coming"
	appendEachByte(t, NewStream(r), src, 0, func(s *Stream, i int) {
		if strings.HasSuffix(src[:i+1], "\n\nA") && len(s.blocks) != 1 {
			t.Fatalf("the closed fence is not settled once the next block began (%d blocks)", len(s.blocks))
		}
	})
}

// appendEachByte appends src[from:] to s a byte at a time and checks that
// each view equals a whole render; then calls check, if not nil.
func appendEachByte(t *testing.T, s *Stream, src string, from int, check func(s *Stream, i int)) {
	t.Helper()
	for i := from; i < len(src); i++ {
		s.Append(src[i : i+1])
		want, err := s.r.Render(src[:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if got := s.View(); got != want {
			t.Fatalf("after %q the view differs from a whole render", src[:i+1])
		}
		if check != nil {
			check(s, i)
		}
	}
}

// TestOnlyTheLastTwoBlocksWaitForALine: while the last block's first line is
// incomplete it may still change the block before it, but no earlier one:
// those settle, so a long paragraph after a list does not keep the whole
// tail in every frame's parse. The view equals a whole render at every byte.
func TestOnlyTheLastTwoBlocksWaitForALine(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 80)
	src := "- one\n- two\n\n# Title\n\nA paragraph whose only line is long and still coming, word after word"
	first := strings.Index(src, "A paragraph") + 1 // the first frame brings all three blocks
	s := NewStream(r)
	s.Append(src[:first-1])
	appendEachByte(t, s, src, first-1, nil)
	if len(s.blocks) != 1 || s.blocks[0].end != strings.Index(src, "# Title") {
		t.Fatalf("settled %d blocks, want the list alone while the paragraph's line is incomplete", len(s.blocks))
	}
}

// TestClosedBlockIsHighlightedOnce: a closed fence at the end of the text
// is rendered again when the next block settles it, from the kept rows;
// single lines are kept apart from it.
func TestClosedBlockIsHighlightedOnce(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 80)
	calls := 0
	highlight := func(lang, code string) lit { calls++; return r.highlightWhole(lang, code) }
	block := "x := 1\ny := 2\n"
	r.lines.get("go", block, highlight)
	r.lines.get("go", "x := 1\n", highlight)
	r.lines.get("go", block, highlight)
	r.lines.get("go", "x := 1\n", highlight)
	if calls != 2 {
		t.Fatalf("highlighted %d times, want 2 (the block once, the line once)", calls)
	}
	r.lines.get("python", "x = 1\ny = 2\n", highlight)
	r.lines.get("go", block, highlight)
	if calls != 4 {
		t.Fatalf("%d highlights: only the last block is kept", calls)
	}
}
