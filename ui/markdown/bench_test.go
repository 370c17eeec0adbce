package markdown

import (
	"runnel/stream/costtest"

	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"

	"runnel/theme"
)

// benchStyle is the style the benchmarks use: glamour's dark style with the
// document colour and margin removed, as theme.Styles.Glamour builds it.
func benchStyle() ansi.StyleConfig {
	s := styles.DarkStyleConfig
	var zero uint
	s.Document.Margin = &zero
	s.Document.Color = nil
	return s
}

const (
	deltaBytes      = 4   // bytes per delta
	deltasPerFrame  = 83  // 5,000 deltas/s coalesced to 60 frames/s
	chatPerFrame    = 166 // 5,000 deltas/s at the chat's 30 frames/s
	benchWidth      = 100
	naiveSampleStep = 16 // frames between sampled naive re-renders
)

// BenchmarkStreamRender streams a 64 KB generated answer in 4-byte deltas,
// one View per 83 deltas, then runs the final full render, and reports the
// total against one render of the final document by glamour's TermRenderer
// (x-glamour, the baseline) and by the Renderer (x-one-render). It
// also estimates naive per-frame whole re-rendering from every 16th frame
// (x-naive-est).
func BenchmarkStreamRender(b *testing.B) {
	streamBench(b, genAnswer(64<<10), deltasPerFrame)
}

// BenchmarkStreamRenderReal is BenchmarkStreamRender on the real recorded
// answers (list-heavy prose), concatenated to 64 KB, at the chat's pace:
// one View per 166 deltas.
func BenchmarkStreamRenderReal(b *testing.B) {
	streamBench(b, realAnswers(b, 64<<10), chatPerFrame)
}

// glamourRender returns a render of doc by glamour's own TermRenderer with
// the style and width the benchmarks use: the baseline the issue names.
func glamourRender(b *testing.B) func(doc string) {
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(benchStyle()), glamour.WithWordWrap(benchWidth))
	if err != nil {
		b.Fatal(err)
	}
	return func(doc string) {
		if _, err := tr.Render(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWholeRender renders the real answers (64 KB) whole with the
// Renderer, against glamour's TermRenderer on the same text (x-glamour).
func BenchmarkWholeRender(b *testing.B) {
	r := newTestRenderer(b, benchStyle(), benchWidth)
	doc := realAnswers(b, 64<<10)
	gl := glamourRender(b)
	var own, theirs time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := r.Render(doc); err != nil {
			b.Fatal(err)
		}
		own += time.Since(t0)
		t1 := time.Now()
		gl(doc)
		theirs += time.Since(t1)
	}
	b.ReportMetric(float64(own)/float64(theirs), "x-glamour")
	b.ReportMetric(float64(own)/float64(b.N)/1e6, "ms-render")
	b.ReportMetric(float64(theirs)/float64(b.N)/1e6, "ms-glamour")
}

// streamBench streams doc in 4-byte deltas with a View every perFrame
// deltas, then the final render, against one render of doc by glamour and
// one by the Renderer, in the same run.
func streamBench(b *testing.B, doc string, perFrame int) {
	r := newTestRenderer(b, benchStyle(), benchWidth)
	gl := glamourRender(b)
	var streamed, whole, naive, glam time.Duration
	var frames int
	var s *Stream
	for b.Loop() {
		t0 := time.Now()
		s = NewStream(r)
		frames = 0
		for i := 0; i < len(doc); i += deltaBytes {
			s.Append(doc[i:min(i+deltaBytes, len(doc))])
			if (i/deltaBytes+1)%perFrame == 0 {
				_ = s.View()
				frames++
			}
		}
		_ = s.View()
		frames++
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
		streamed += time.Since(t0)

		t1 := time.Now()
		if _, err := r.Render(doc); err != nil {
			b.Fatal(err)
		}
		whole += time.Since(t1)

		t3 := time.Now()
		gl(doc)
		glam += time.Since(t3)

		t2 := time.Now()
		for f := naiveSampleStep / 2; f < frames; f += naiveSampleStep {
			end := min(f*perFrame*deltaBytes, len(doc))
			if _, err := r.Render(doc[:end]); err != nil {
				b.Fatal(err)
			}
		}
		naive += time.Since(t2) * naiveSampleStep
	}
	b.ReportMetric(float64(streamed)/float64(glam), "x-glamour")
	b.ReportMetric(float64(streamed)/float64(whole), "x-one-render")
	b.ReportMetric(float64(naive)/float64(whole), "x-naive-est")
	b.ReportMetric(float64(streamed)/float64(b.N)/1e6, "ms-streamed")
	b.ReportMetric(float64(whole)/float64(b.N)/1e6, "ms-one-render")
	b.ReportMetric(float64(frames), "frames")
}

// BenchmarkTailCode measures one frame (an ~80-byte Append and a View)
// while a 20 KB fenced code block streams, against the same while a 1 KB one
// streams (x-1KB). Each run has a renderer of its own, so its new lines are
// highlighted as a stream's are: for the first time (a shared one would
// find them in its line cache from an earlier run).
func BenchmarkTailCode(b *testing.B) {
	code := genCode(40 << 10)
	const prefix = "Here is the implementation:\n\n```go\n"
	var big, small time.Duration
	for b.Loop() {
		big += tailFrames(newTestRenderer(b, benchStyle(), benchWidth), prefix, code, 20<<10)
		small += tailFrames(newTestRenderer(b, benchStyle(), benchWidth), prefix, code, 1<<10)
	}
	b.ReportMetric(float64(big)/float64(small), "x-1KB")
	b.ReportMetric(float64(big)/float64(b.N*framesPerRun)/1e3, "us/frame-20KB")
	b.ReportMetric(float64(small)/float64(b.N*framesPerRun)/1e3, "us/frame-1KB")
}

// framesPerRun is how many frames tailFrames times.
const framesPerRun = 24

// tailFrames streams prefix and text[:size] into a new Stream on r, then
// times framesPerRun frames of an 80-byte Append of what follows in text
// and a View.
func tailFrames(r *Renderer, prefix, text string, size int) time.Duration {
	runtime.LockOSThread() // costtest.Now times this thread's CPU
	defer runtime.UnlockOSThread()
	s := NewStream(r)
	s.Append(prefix)
	s.Append(text[:size])
	_ = s.View()
	var d time.Duration
	for f := range framesPerRun {
		at := size + f*80
		t := costtest.Now() // the thread's CPU: the cost guards that call it are not decided by a preempted slice
		s.Append(text[at : at+80])
		_ = s.View()
		d += costtest.Since(t)
	}
	return d
}

// genCode returns at least size bytes of Go-like code lines.
func genCode(size int) string {
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for b.Len() < size {
		switch rng.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "func %s%d(ctx context.Context, %s string) error {\n", word(rng), rng.IntN(100), word(rng))
		case 1:
			fmt.Fprintf(&b, "\t// %s\n", sentence(rng, 4, 10, false))
		case 2:
			fmt.Fprintf(&b, "\tif err := %s.%s(ctx, %q); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}\n", word(rng), word(rng), word(rng), word(rng))
		case 3:
			fmt.Fprintf(&b, "\t%s := %s[%d] + %d\n", word(rng), word(rng), rng.IntN(10), rng.IntN(1000))
		default:
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

// BenchmarkNewRenderer measures making a renderer for a new width (every
// resize), against the 1 ms goal (x-1ms).
func BenchmarkNewRenderer(b *testing.B) {
	style := theme.New(theme.Dark()).Glamour()
	w := 40
	var total time.Duration
	for b.Loop() {
		w = 40 + (w+1)%100
		t := time.Now()
		if _, err := NewRenderer(style, w); err != nil {
			b.Fatal(err)
		}
		total += time.Since(t)
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(time.Millisecond), "x-1ms")
}

// BenchmarkTailParagraph measures one frame (an 80-byte Append and a View)
// while a one-line paragraph of 200 KB streams, against the same at 2 KB
// (x-2KB): the long-block path (rough.go) keeps the cost flat but for
// copying the view.
func BenchmarkTailParagraph(b *testing.B) {
	r := newTestRenderer(b, benchStyle(), benchWidth)
	para := strings.Repeat("Words keep coming with **some bold**, `code` and plain text too. ", 4000)
	var big, small time.Duration
	for b.Loop() {
		big += tailFrames(r, "", para, 200<<10)
		small += tailFrames(r, "", para, 2<<10)
	}
	b.ReportMetric(float64(big)/float64(small), "x-2KB")
	b.ReportMetric(float64(big)/float64(b.N*framesPerRun)/1e3, "us/frame-200KB")
	b.ReportMetric(float64(small)/float64(b.N*framesPerRun)/1e3, "us/frame-2KB")
}

// BenchmarkDraftFrames streams a 40 KB generated answer in 2 KB frames, as
// the chat draws a stream that outruns its frames, in the same run: once
// with a Draft per frame and then the View that colours it, and once with
// a View per frame. x-views is the drafted frames' cost against the viewed
// ones' (what the end of a fast answer waits for); ms-colour is the View
// after the drafts. Each pass has renderers of its own (cold line caches).
func BenchmarkDraftFrames(b *testing.B) {
	doc := genAnswer(40 << 10)
	plain := benchStyle()
	plain.CodeBlock.Chroma, plain.CodeBlock.Theme = nil, ""
	var drafts, views, colour time.Duration
	for b.Loop() {
		for _, draft := range []bool{true, false} {
			s, quick := NewStream(newTestRenderer(b, benchStyle(), benchWidth)), newTestRenderer(b, plain, benchWidth)
			t0 := time.Now()
			for i := 0; i < len(doc); i += 2 << 10 {
				s.Append(doc[i:min(i+2<<10, len(doc))])
				if draft {
					s.Draft(quick)
				} else {
					s.View()
				}
			}
			frames := time.Since(t0)
			if !draft {
				views += frames
				continue
			}
			drafts += frames
			t1 := time.Now()
			s.View()
			colour += time.Since(t1)
		}
	}
	b.ReportMetric(float64(drafts)/float64(views), "x-views")
	b.ReportMetric(float64(drafts)/float64(b.N)/1e6, "ms-drafted")
	b.ReportMetric(float64(views)/float64(b.N)/1e6, "ms-viewed")
	b.ReportMetric(float64(colour)/float64(b.N)/1e6, "ms-colour")
}

// frameCost times frames (an 80-byte Append and a View) of gen's block
// open at size bytes; the least of three runs.
func frameCost(r *Renderer, gen func(int) string, size int) time.Duration {
	text := gen(size + framesPerRun*80 + 80)
	best := time.Duration(1 << 62)
	for range 3 {
		best = min(best, tailFrames(r, "", text, size))
	}
	return best
}

// BenchmarkOpenBlockFrames measures, for each kind of open block
// (openBlocks: paragraphs of words, of lines, of base64, of CJK, a URL, a
// list, a quote, a heading, a table, an HTML block...), a frame (an 80-byte
// Append and a View) with 256 KB of it open against one with 16 KB open,
// in the same run: x-16KB-KIND, at most 1.5 (issue 19).
func BenchmarkOpenBlockFrames(b *testing.B) {
	r := newTestRenderer(b, benchStyle(), benchWidth)
	big, small := map[string]time.Duration{}, map[string]time.Duration{}
	for b.Loop() {
		for name, gen := range openBlocks {
			small[name] += frameCost(r, gen, 16<<10)
			big[name] += frameCost(r, gen, 256<<10)
		}
	}
	for name := range openBlocks {
		b.ReportMetric(float64(big[name])/float64(small[name]), "x-16KB-"+name)
	}
}

// BenchmarkStreamFresh streams a 40 KB generated answer (prose with Go,
// Python, bash and JSON blocks) at the chat's pace with a renderer of its
// own, as a new answer is (no line cache warm from an earlier run), and
// reports the total against one whole render with a fresh renderer
// (x-one-render): what streaming costs beyond drawing the answer once. A
// code line highlighted as it streams and again when its block closes
// shows here.
func BenchmarkStreamFresh(b *testing.B) { streamFresh(b, chatPerFrame) }

// BenchmarkStreamFreshPaced is BenchmarkStreamFresh at a model's pace: 200
// deltas/s drawn at 60 frames/s, a View every 3 deltas.
func BenchmarkStreamFreshPaced(b *testing.B) { streamFresh(b, 3) }

// streamFresh streams a 40 KB generated answer with a View every perFrame
// deltas (see BenchmarkStreamFresh).
func streamFresh(b *testing.B, perFrame int) {
	doc := genAnswer(40 << 10)
	stream := costtest.Func(func() {
		s := NewStream(newTestRenderer(b, benchStyle(), benchWidth))
		for i := 0; i < len(doc); i += deltaBytes {
			s.Append(doc[i:min(i+deltaBytes, len(doc))])
			if (i/deltaBytes+1)%perFrame == 0 {
				_ = s.View()
			}
		}
		_ = s.View()
	})
	whole := costtest.Func(func() {
		if _, err := newTestRenderer(b, benchStyle(), benchWidth).Render(doc); err != nil {
			b.Fatal(err)
		}
	})
	var c costtest.Cost
	for b.Loop() {
		c = costtest.Measure(whole, stream)
	}
	b.ReportMetric(c.Ratio(), "x-one-render")
	b.ReportMetric(float64(c.Work)/1e6, "ms-streamed")
	b.ReportMetric(float64(c.Base)/1e6, "ms-one-render")
}

// BenchmarkStreamCode is BenchmarkStreamFresh on code: two 16 KB Go blocks
// between paragraphs, at the chat's pace (x-one-render) and at a model's
// (paced-x-one-render). Each code line is highlighted once as it streams;
// a block highlighted again whole when it closes showed here as a second
// whole render's worth of chroma.
func BenchmarkStreamCode(b *testing.B) {
	block := "Some code:\n\n```go\n" + genCode(16<<10) + "```\n\nAfter it, a paragraph.\n\n"
	doc := block + block
	var full, paced costtest.Cost
	for b.Loop() {
		full = costtest.Measure(wholeFresh(b, doc), streamFreshWork(b, doc, chatPerFrame))
		paced = costtest.Measure(wholeFresh(b, doc), streamFreshWork(b, doc, 3))
	}
	b.ReportMetric(full.Ratio(), "x-one-render")
	b.ReportMetric(paced.Ratio(), "paced-x-one-render")
	b.ReportMetric(float64(full.Base)/1e6, "ms-one-render")
}

// streamFreshWork streams doc with a new renderer, a View every perFrame
// deltas.
func streamFreshWork(b testing.TB, doc string, perFrame int) costtest.Work {
	return costtest.Func(func() {
		s := NewStream(newTestRenderer(b, benchStyle(), benchWidth))
		for i := 0; i < len(doc); i += deltaBytes {
			s.Append(doc[i:min(i+deltaBytes, len(doc))])
			if (i/deltaBytes+1)%perFrame == 0 {
				_, _ = s.Parts()
			}
		}
		_, _ = s.Parts()
	})
}

// wholeFresh renders doc whole with a new renderer.
func wholeFresh(b testing.TB, doc string) costtest.Work {
	return costtest.Func(func() {
		if _, err := newTestRenderer(b, benchStyle(), benchWidth).Render(doc); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkStreamTable streams tables at a model's pace (a View every 3
// deltas): twelve tables of 4 to 9 rows, each followed by a paragraph, with
// a renderer of its own, against one whole render of the same text
// (x-one-render). Every frame of a table's rows draws it whole again, and
// so does every frame of the paragraph's first line after it (the table
// waits for that line).
func BenchmarkStreamTable(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var doc strings.Builder
	for range 12 {
		doc.WriteString(table(rng))
		doc.WriteString("\n" + paragraph(rng) + "\n")
	}
	var c costtest.Cost
	for b.Loop() {
		c = costtest.Measure(wholeFresh(b, doc.String()), streamFreshWork(b, doc.String(), 3))
	}
	b.ReportMetric(c.Ratio(), "x-one-render")
	b.ReportMetric(float64(c.Work)/1e6, "ms-streamed")
	b.ReportMetric(float64(c.Base)/1e6, "ms-one-render")
}
