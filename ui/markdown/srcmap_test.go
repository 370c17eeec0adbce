package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/costtest"
	"runnel/theme"
)

// dragSource renders src at width, finds the cells of from and to on the
// screen (the first row holding from, the first row at or after it holding
// to) and returns the source a drag from the first cell of from to the
// last cell of to selects.
func dragSource(t *testing.T, src string, width int, from, to string) string {
	t.Helper()
	r, err := NewRenderer(theme.New(theme.Dark()).Glamour(), width)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(src)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(out, "\n")
	m := SourceMap(src, rows)
	r0, c0 := locate(t, rows, 0, from)
	r1, c1 := locate(t, rows, r0, to)
	c1 += ansi.StringWidth(to) - 1
	a, b, ok := Span(src, m, r0, c0, r1, c1)
	if !ok {
		t.Fatalf("no source between %q and %q in\n%s", from, to, ansi.Strip(out))
	}
	return src[a:b]
}

// locate is the row (at or after row0) and cell of the first s on screen.
func locate(t *testing.T, rows []string, row0 int, s string) (int, int) {
	t.Helper()
	for i := row0; i < len(rows); i++ {
		plain := ansi.Strip(rows[i])
		if j := strings.Index(plain, s); j >= 0 {
			return i, ansi.StringWidth(plain[:j])
		}
	}
	t.Fatalf("%q is not on screen: %q", s, rows)
	return 0, 0
}

func TestSourceMapWrappedParagraph(t *testing.T) {
	src := "Intro.\n\nThe quick **brown** fox jumps over the lazy dog and keeps running\nacross the `wide` field until evening comes at last.\n\nEnd."
	got := dragSource(t, src, 24, "quick", "evening")
	want := "quick **brown** fox jumps over the lazy dog and keeps running\nacross the `wide` field until evening"
	if got != want {
		t.Errorf("drag across wrapped rows copied %q, want %q", got, want)
	}
}

func TestSourceMapList(t *testing.T) {
	src := "Steps:\n\n- first item that is long enough to wrap at this width\n- second *item*\n  1. nested one\n\nDone."
	got := dragSource(t, src, 30, "first", "nested")
	want := "first item that is long enough to wrap at this width\n- second *item*\n  1. nested"
	if got != want {
		t.Errorf("drag across a list copied %q, want %q", got, want)
	}
}

func TestSourceMapTable(t *testing.T) {
	src := "| name | size |\n|------|-----:|\n| alpha | 12 |\n| beta | 7 |\n"
	got := dragSource(t, src, 60, "name", "beta")
	want := "name | size |\n|------|-----:|\n| alpha | 12 |\n| beta"
	if got != want {
		t.Errorf("drag across a table copied %q, want %q", got, want)
	}
}

func TestSourceMapCodeBlock(t *testing.T) {
	src := "Run:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nThen stop."
	got := dragSource(t, src, 40, "func", "}")
	want := "func main() {\n\tfmt.Println(\"hi\")\n}"
	if got != want {
		t.Errorf("drag across a code block copied %q, want %q", got, want)
	}
	if got := dragSource(t, src, 40, "Run", "Then"); got != "Run:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nThen" {
		t.Errorf("drag over a whole code block copied %q, want its fences too", got)
	}
}

func TestSourceMapDecorationMapsNowhere(t *testing.T) {
	src := "- a\n- b"
	r, _ := NewRenderer(theme.New(theme.Dark()).Glamour(), 20)
	out, _ := r.Render(src)
	rows := strings.Split(out, "\n")
	m := SourceMap(src, rows)
	row, col := locate(t, rows, 0, "•")
	if m[row][col] != NoSource {
		t.Errorf("the bullet maps to source byte %d, want none", m[row][col])
	}
	if _, _, ok := Span(src, m, row, col, row, col); ok {
		t.Error("a span of the bullet alone holds source")
	}
}

// TestSourceMapOfALongQuotedLineIsLinear: a bar the renderer draws on every
// row of one long quoted line is looked for a bounded way ahead, not through
// the rest of the line: ten times the text costs about ten times the map.
func TestSourceMapOfALongQuotedLineIsLinear(t *testing.T) {
	costtest.SkipIfRace(t)
	mapOf := func(n int) func() {
		src := "> " + strings.Repeat("lorem ipsum dolor ", n/18+1)
		r, err := NewRenderer(theme.New(theme.Dark()).Glamour(), 100)
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(src)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(out, "\n")
		return func() { SourceMap(src, rows) }
	}
	small, big := mapOf(20<<10), mapOf(200<<10)
	costtest.AtMost(t, "the map of a 200 KB quoted line, against ten of 20 KB",
		costtest.Func(func() {
			for range 10 {
				small()
			}
		}), costtest.Func(big), 3)
}
