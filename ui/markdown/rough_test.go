package markdown

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"runnel/stream/costtest"
	"runnel/theme"
)

// unrough drops a rough tail's plain rows: the next view parses the tail
// and draws it properly, as a whole render does.
func unrough(s *Stream) { s.long.cur, s.viewOK = nil, false }

// repeat returns unit repeated to n bytes, cut at a rune.
func repeat(unit string, n int) string {
	return strings.ToValidUTF8(strings.Repeat(unit, n/len(unit)+1)[:n], "")
}

// openBlocks make an open block of each kind, about n bytes long.
var openBlocks = map[string]func(n int) string{
	"words": func(n int) string { return repeat("Words keep coming with **bold**, `code` and plain text too. ", n) },
	"lines": func(n int) string { return repeat("A line of a paragraph that wraps on\n", n) },
	"base64": func(n int) string {
		return repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2", n)
	},
	"cjk":       func(n int) string { return repeat("漢字かな交じり文の長い段落です", n) },
	"url":       func(n int) string { return "https://example.com/" + repeat("abcdefghij/", n) },
	"list":      func(n int) string { return repeat("- an item with *some* words in it\n", n) },
	"quote":     func(n int) string { return repeat("> a quoted line with some words\n", n) },
	"heading":   func(n int) string { return "## " + repeat("heading words ", n) },
	"table":     func(n int) string { return "| a | b |\n|---|---|\n" + repeat("| cell one | cell two |\n", n) },
	"html":      func(n int) string { return "<div>\n" + repeat("some html text <b>bold</b> here\n", n) },
	"loose":     func(n int) string { return repeat("1. an item\n\n", n) },
	"quotelist": func(n int) string { return repeat("> - quoted item\n>   more of it\n", n) },
}

// TestRoughBlocksEndAsWholeRenders streams each kind of long open block
// with the long-block path from 1 KB, then a paragraph after it: the path
// is used, its rows fit the width, and once the paragraph's first line is
// complete the view is a whole render again; but for a table, which stays
// rough (its render would cost a frame), with the paragraph after it.
func TestRoughBlocksEndAsWholeRenders(t *testing.T) {
	t.Parallel() // a property run with a renderer (or none) of its own; it counts and times nothing
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 50)
	for name, gen := range openBlocks {
		t.Run(name, func(t *testing.T) {
			doc := gen(6<<10) + "\n\nAfter the block, a paragraph.\n"
			s := NewStream(r)
			s.long.min = 1 << 10
			used := false
			for i, d := range chunks(doc) {
				s.Append(d)
				view := s.View()
				used = used || s.Rough()
				if i%50 != 0 {
					continue
				}
				for _, row := range strings.Split(view, "\n") {
					if w := xansi.StringWidth(row); w > 50 && !s.Rough() {
						t.Fatalf("a row %d wide: %q", w, row)
					}
				}
			}
			if !used {
				t.Fatal("the long-block path was not used")
			}
			if name == "table" { // never parsed again in a frame (roughParseMax)
				if !s.Rough() || !strings.Contains(xansi.Strip(s.View()), "After the block, a paragraph.") {
					t.Fatalf("a long table was parsed again in a frame, or the text after it is lost:\n%s", xansi.Strip(s.View()))
				}
				return
			}
			if s.Rough() {
				t.Fatal("the block ended and is still drawn roughly")
			}
			want, _ := r.Render(doc)
			if diff := diffVisible(s.View(), want); diff != "" {
				t.Fatal(diff)
			}
		})
	}
}

// openFrames is Work: 6 frames (an 80-byte Append and a View) of gen's
// block open at size bytes and more, on one Stream, which is made again
// (untimed) once it has grown by a quarter: costtest runs cheap work many
// times, and streaming the block anew for each run cost most of the test
// (with a fixed 8 KB, making the 256 KB streams again took most of its
// CPU).
func openFrames(r *Renderer, gen func(int) string, size int) costtest.Work {
	const frames = 6
	grow := max(size/4, frames*80)
	text := gen(size + grow + frames*80)
	var s *Stream
	at := 0
	return func() time.Duration {
		if s == nil || at+frames*80 > size+grow {
			s, at = NewStream(r), size
			s.Append(text[:size])
			_ = s.View()
		}
		var d time.Duration
		for range frames {
			t0 := costtest.Now()
			s.Append(text[at : at+80])
			_ = s.View()
			d += costtest.Since(t0)
			at += 80
		}
		return d
	}
}

// TestFrameCostDoesNotGrowWithTheBlock: for each kind of open block, a
// frame with 256 KB open costs at most 3 times one with 16 KB open,
// timed in the same run (BenchmarkOpenBlockFrames asks 1.5 of a quiet
// machine): a frame that parsed or copied the block per byte would cost
// it 16 times over.
func TestFrameCostDoesNotGrowWithTheBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a cost guard of 20 s (12 kinds of block; a 16 KB table costs 70 ms a frame)")
	}
	costtest.SkipIfRace(t)
	t.Parallel() // timed on the thread's CPU (costtest), which the property runs beside it do not stretch
	r := newTestRenderer(t, benchStyle(), benchWidth)
	for name, gen := range openBlocks {
		costtest.AtMost(t, name+": frames with 256 KB open, against 16 KB", openFrames(r, gen, 16<<10), openFrames(r, gen, 256<<10), 3)
	}
}

// TestCodeFrameCostDoesNotGrowWithTheBlock guards what BenchmarkTailCode
// measures: a frame while a 20 KB code block streams costs at most 5 times
// one while a 1 KB block streams (the benchmark's goal is 2, and a loaded
// machine measures 1.8 to 2.5 here; a frame that highlighted the whole
// block would cost 20 times), timed in the same run. Each run has
// a renderer of its own, so new lines are highlighted for the first time,
// as in a stream.
func TestCodeFrameCostDoesNotGrowWithTheBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a cost guard of 3 s (a fresh renderer highlights each run)")
	}
	costtest.SkipIfRace(t)
	t.Parallel() // timed on the thread's CPU, as above
	code := genCode(40 << 10)
	const prefix = "Here is the implementation:\n\n```go\n"
	frames := func(size int) costtest.Work {
		return func() time.Duration {
			return tailFrames(newTestRenderer(t, benchStyle(), benchWidth), prefix, code, size)
		}
	}
	costtest.AtMost(t, "frames of a 20 KB code block, against 1 KB", frames(1<<10), frames(20<<10), 5)
}

// TestWholeRenderIsLinear: a whole render of 8 times the text costs at
// most 20 times as much (linear is 8, quadratic 64), for the inputs that
// were quadratic (long words and URLs broken per row, deep nesting), timed
// in the same run. Under -short the two are half as long (128 KB against
// 16 KB: the larger still renders for tens of milliseconds, and costtest
// repeats the smaller), and for every other shape by name; the full run
// times every shape at 256 KB against 32 KB.
func TestWholeRenderIsLinear(t *testing.T) {
	costtest.SkipIfRace(t)
	small, big := 32<<10, 256<<10
	if testing.Short() {
		small, big = small/2, big/2
	}
	r := newTestRenderer(t, benchStyle(), benchWidth)
	gens := map[string]func(int) string{
		"base64": openBlocks["base64"], "cjk": openBlocks["cjk"], "url": openBlocks["url"],
		"links":    func(n int) string { return repeat("[a](", n) },
		"brackets": func(n int) string { return strings.Repeat("[", n/2) + strings.Repeat("]", n/2) },
		"quotes":   func(n int) string { return strings.Repeat(">", n) + " x" },
		"list": func(n int) string {
			var b strings.Builder
			for d := 0; b.Len() < n; d++ {
				b.WriteString(strings.Repeat("  ", d) + "- x\n")
			}
			return b.String()
		},
	}
	render := func(src string) costtest.Work {
		return costtest.Func(func() {
			if _, err := r.Render(src); err != nil {
				t.Fatal(err)
			}
		})
	}
	for i, name := range slices.Sorted(maps.Keys(gens)) {
		if testing.Short() && i%2 != 0 {
			continue // -short: every other shape, by name
		}
		gen := gens[name]
		costtest.AtMost(t, fmt.Sprintf("%s: a whole render of %d KB, against %d KB", name, big>>10, small>>10), render(gen(small)), render(gen(big)), 20)
	}
}

// TestDeepNestingIsPlainWithANote: markdown nested past the limit is
// drawn as the text it is, and the renderer notes it once; the recorded
// answers nest nothing that deep.
func TestDeepNestingIsPlainWithANote(t *testing.T) {
	for _, doc := range allAnswers(t) {
		r := newTestRenderer(t, benchStyle(), benchWidth)
		if _, _ = r.Render(doc); r.Note() != "" {
			t.Fatalf("a recorded answer was guarded: %s", r.Note())
		}
	}
	for _, doc := range []string{strings.Repeat("[a](", 100), strings.Repeat(">", 100) + " x", "x " + strings.Repeat("[", 40) + "y"} {
		r := newTestRenderer(t, benchStyle(), benchWidth)
		out, err := r.Render(doc)
		if err != nil || r.Note() == "" {
			t.Fatalf("%.20q: no note (err %v)", doc, err)
		}
		got := strings.Join(visible(out), "")
		if want := strings.TrimLeft(doc, ">"); !strings.Contains(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(tailOf(want, 20), " ", "")) {
			t.Errorf("%.20q: the text is not shown as it came: %q", doc, got)
		}
	}
}

// TestLongTailStaysRough: a rough tail longer than long.parseMax is not parsed
// again when its block ends: it stays rough, text after it included, and
// nothing is lost; a whole render (Render) draws it properly.
func TestLongTailStaysRough(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 50)
	doc := openBlocks["words"](6<<10) + "\n\n# After\n\nThe end of it.\n"
	s := NewStream(r)
	s.long.min, s.long.parseMax = 1<<10, 4<<10
	for _, d := range chunks(doc) {
		s.Append(d)
		s.View()
	}
	view := xansi.Strip(s.View())
	if !s.Rough() || !strings.Contains(view, "# After") || !strings.Contains(view, "The end of it.") {
		t.Fatalf("rough %v:\n%s", s.Rough(), view)
	}
	alnum := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	if !strings.Contains(alnum(view), alnum(doc)) {
		t.Errorf("text was lost:\n%s", view)
	}
}

// TestLongCodeLineIsNotHighlightedEachFrame: a code fence whose one line
// goes on (a megabyte of minified JSON) highlights each piece of it once:
// a frame with 200 KB of the line open costs a fifth at most of
// highlighting those 200 KB once, timed in the same run (it used to cost
// all of it, every frame).
func TestLongCodeLineIsNotHighlightedEachFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a cost guard of 4 s (highlighting 200 KB of JSON)")
	}
	costtest.SkipIfRace(t)
	t.Parallel() // timed on the thread's CPU, as above
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 80)
	const size = 200 << 10
	text := "```json\n" + repeat(`{"key":"value","n":12345,"list":[1,2,3]},`, size+framesPerRun*80+80)
	highlight := costtest.Func(func() { r.highlight("json", text[8:size]) })
	frames := func() time.Duration { return tailFrames(r, "", text, size) }
	costtest.AtMost(t, fmt.Sprintf("%d frames of a 200 KB code line, against highlighting it once", framesPerRun), highlight, frames, framesPerRun/5.0)
}
