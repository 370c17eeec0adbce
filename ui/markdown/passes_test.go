package markdown

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"

	"runnel/theme"
)

// docPassDoc holds what glamour's document pass acts on: rows wider than
// the width (long code lines, a wide table, an unbreakable URL), styles
// open across rows (horizontal rules), links, wide characters and nesting.
const docPassDoc = "# Title with `code` and a [link](https://example.com/a)\n\n" +
	"Plain prose that runs long enough to wrap at narrow widths, with **bold**, *italic*, ~~struck~~ and `inline code` words.\n\n" +
	"---\n\n" +
	"```go\n" +
	"func veryLongFunctionName(ctx context.Context, argumentOne string, argumentTwo int, argumentThree []byte) (result string, err error) {\n" +
	"\treturn fmt.Sprintf(\"%s-%d-%x\", argumentOne, argumentTwo, argumentThree), nil // a trailing comment that makes the line longer still\n" +
	"}\n```\n\n" +
	"| Name | Description | Value | Notes on the value that are rather long |\n| --- | --- | ---: | --- |\n" +
	"| alpha | the first entry in a fairly wide table | 1 | more words to push the width over the limit |\n\n" +
	"https://example.com/a/very/long/url/that/cannot/be/broken/anywhere/because/it/has/no/spaces/at/all/in/it/whatsoever\n\n" +
	"漢字とかなの文章が続きます。幅の広い文字がたくさん並ぶと、折り返しの位置が変わります。絵文字🎉🚀も混ざります。\n\n" +
	"> A quote with a [link](https://example.com/q) and enough words to wrap over more than one row at narrow widths.\n>\n> - a list in the quote\n\n" +
	"1. first\n   - nested *item* with words that go on for a while to force a wrap in the nested list\n2. second\n\n" +
	"***\n\n" +
	"Term\n: a definition\n\n" +
	"Last paragraph.\n"

// TestDocPassMatchesGlamour: with the document pass skipped, renders equal
// glamour's TermRenderer's once the padding is trimmed, for the theme's
// palettes at several widths, on the test documents and docPassDoc.
func TestDocPassMatchesGlamour(t *testing.T) {
	docs := testDocs(t)
	docs["docpass"] = docPassDoc
	for pname, pal := range map[string]theme.Palette{"dark": theme.Dark(), "light": theme.Light()} {
		style := theme.New(pal).Glamour()
		for _, width := range []int{24, 60, 99} {
			own, err := newRenderer(style, width, true)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := newRenderer(style, width, false)
			if err != nil {
				t.Fatal(err)
			}
			if !own.own {
				t.Fatalf("%s/%d: the own pipeline is off", pname, width)
			}
			tr, _ := own.newTermRenderer(width)
			if tr.md == nil {
				t.Fatalf("%s/%d: no own pipeline", pname, width)
			}
			for dname, doc := range docs {
				a, errA := own.Render(doc)
				b, errB := theirs.Render(doc)
				if errA != nil || errB != nil || a != b {
					t.Fatalf("%s/%d/%s: renders differ (errors %v, %v):\n%s", pname, width, dname, errA, errB, diffRows(a, b))
				}
			}
		}
	}
}

// TestDocPassIsOn: the theme's styles give the document no margin or
// indent, and glamour's block stack is found, so the pass is skipped.
func TestDocPassIsOn(t *testing.T) {
	style := theme.New(theme.Dark()).Glamour()
	opts := ansi.Options{WordWrap: 80, Styles: style}
	if d := newDocPass(ansi.NewRenderer(opts), opts); d.stack == nil {
		t.Fatal("the document pass is not skipped: glamour's block stack was not found or the style has a document margin")
	}
	opts.WordWrap = 0
	if d := newDocPass(ansi.NewRenderer(opts), opts); d.stack != nil {
		t.Error("skip on for an unwrapped renderer")
	}
}

// TestWriteRows: rows go out as they are unless a style or link is open at
// a row's end; such a run is closed and reopened per row, as glamour's pass
// does.
func TestWriteRows(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\n\x1b[1mbold\x1b[m\n", "plain\n\x1b[1mbold\x1b[m\n"},
		{"a\n\x1b[38;5;240m\n--------\n\x1b[m\nb\n", "a\n\n\x1b[38;5;240m--------\x1b[m\n\nb\n"},
		{"\x1b]8;;https://x\x1b\\li\nnk\x1b]8;;\x1b\\\nafter\n", ""},
		{"short\n" + strings.Repeat("word ", 12) + "\nshort\n", ""},
	} {
		var b strings.Builder
		w := bufio.NewWriter(&b)
		writeRows(w, []byte(c.in), 40)
		w.Flush()
		got := trimPadding(b.String())
		want := c.want
		if want == "" { // compare with lipgloss's own wrap of the whole
			want = trimPadding(wrapDoc(c.in, 40))
		}
		if got != want {
			t.Errorf("writeRows(%q) = %q, want %q", c.in, got, want)
		}
	}
}

// TestRowFits: an upper bound clears rows cheaply; wide characters and
// escape sequences are measured right.
func TestRowFits(t *testing.T) {
	for _, c := range []struct {
		in   string
		fits bool
	}{
		{"", true},
		{strings.Repeat("x", 11), false},
		{"\x1b[38;5;240m" + strings.Repeat("x", 10) + "\x1b[m", true},
		{strings.Repeat("漢", 5), true},
		{strings.Repeat("漢", 6), false},
		{"—— em dashes ——", false},
		{"—— dashes", true},
		{"\x1b]8;;https://example.com/long\x1b\\link\x1b]8;;\x1b\\", true},
	} {
		if got := rowFits([]byte(c.in), 10); got != c.fits {
			t.Errorf("rowFits(%q, 10) = %v, want %v", c.in, got, c.fits)
		}
	}
}

// diffRows shows the first rows where a and b differ.
func diffRows(a, b string) string {
	ar, br := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(ar), len(br)) {
		var x, y string
		if i < len(ar) {
			x = ar[i]
		}
		if i < len(br) {
			y = br[i]
		}
		if x != y {
			return strings.Join([]string{"row " + strconv.Itoa(i), "own:     " + strconv.Quote(x), "glamour: " + strconv.Quote(y)}, "\n")
		}
	}
	return "(same rows)"
}
