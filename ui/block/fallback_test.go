package block

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/glamour/v2/ansi"

	"runnel/ui/markdown"
)

// fallbackFixture is a real answer in markdown (headings, bold, lists).
const fallbackFixture = "vercel__ai/lmstudio-basic-markdown.sse"

// withRenderer makes every renderer made during the test with mk.
func withRenderer(t *testing.T, mk func(ansi.StyleConfig, int) (*markdown.Renderer, error)) {
	t.Helper()
	old := newRenderer
	newRenderer = mk
	t.Cleanup(func() { newRenderer = old })
}

// fallbackMessage replays the fixture and renders its last message with
// rs at width 80; it returns the visible rows and the message's source.
func fallbackMessage(t *testing.T, rs *Renderers) (vis, src string) {
	t.Helper()
	r := newReplayer(t, fixture(t, fallbackFixture)).run()
	msgs := r.byType("message")
	if len(msgs) == 0 {
		t.Fatal("no message in the fixture")
	}
	m := msgs[len(msgs)-1]
	ctx := r.ctx(80)
	ctx.Markdown = rs
	out := m.Render(ctx)
	checkFits(t, fallbackFixture, out, 80)
	checkSafe(t, fallbackFixture, out)
	return visible(out), m.Item().Text()
}

// checkSaidOnce fails unless rs.NewNote says one line holding want, and
// then nothing however often it is asked.
func checkSaidOnce(t *testing.T, rs *Renderers, want string) {
	t.Helper()
	n := rs.NewNote()
	if n == "" || strings.ContainsAny(n, "\n\r\x1b") || !strings.Contains(n, want) || !strings.Contains(n, "plain text") {
		t.Fatalf("NewNote = %q: want one clean line with %q that says plain text", n, want)
	}
	for range 3 {
		if again := rs.NewNote(); again != "" {
			t.Fatalf("NewNote said %q again", again)
		}
	}
	if rs.Note() != n {
		t.Fatalf("Note = %q after NewNote said %q", rs.Note(), n)
	}
}

// TestNoRendererIsSaidOnce: when no markdown renderer can be made, a real
// answer is drawn as plain text, whole, and NewNote says why in one line
// (the error's lines folded), once.
func TestNoRendererIsSaidOnce(t *testing.T) {
	withRenderer(t, func(ansi.StyleConfig, int) (*markdown.Renderer, error) {
		return nil, errors.New("no chroma style\nfor this theme")
	})
	rs := NewRenderers()
	if rs.NewNote() != "" {
		t.Fatal("a note before anything was drawn")
	}
	vis, src := fallbackMessage(t, rs)
	if !strings.Contains(src, "**") || !strings.Contains(flat(vis), flat(src)) {
		t.Fatalf("the answer is not shown as its plain source:\n%s", vis)
	}
	checkSaidOnce(t, rs, "markdown cannot be drawn (markdown at width 80: no chroma style for this theme)")
}

// TestRenderPanicIsSaidOnce: a renderer whose render panics (one not made
// by markdown.NewRenderer) draws a real answer as plain text, and NewNote
// says so in one line, once.
func TestRenderPanicIsSaidOnce(t *testing.T) {
	withRenderer(t, func(ansi.StyleConfig, int) (*markdown.Renderer, error) { return &markdown.Renderer{}, nil })
	rs := NewRenderers()
	vis, src := fallbackMessage(t, rs)
	if !strings.Contains(flat(vis), flat(src)) {
		t.Fatalf("the answer is not shown as its plain source:\n%s", vis)
	}
	checkSaidOnce(t, rs, "markdown could not be drawn")
}

// TestDeepNestingNoteOutlivesItsRenderer: the note of a renderer that read
// markdown nested too deep as plain text is said even after a run of
// resizes emptied the renderers (maxRenderers) before the next frame asked.
func TestDeepNestingNoteOutlivesItsRenderer(t *testing.T) {
	rs := NewRenderers()
	deep := strings.Repeat("[", 200) + "x" + strings.Repeat("]", 200)
	r := rs.get(testStyles, 60, false)
	if _, err := r.Render(deep); err != nil || r.Note() == "" {
		t.Fatalf("the deep text was not noted: %v", err)
	}
	for w := range maxRenderers + 1 {
		rs.get(testStyles, 100+w, false) // a resize sweep
	}
	checkSaidOnce(t, rs, "32 deep")
}

// TestPrinterSaysNoRenderer: --format ansi (Printer) reports a renderer it
// could not make through Note as well, in one line.
func TestPrinterSaysNoRenderer(t *testing.T) {
	withRenderer(t, func(ansi.StyleConfig, int) (*markdown.Renderer, error) {
		return nil, errors.New("broken style")
	})
	var out bytes.Buffer
	p := NewPrinter(&out, 80, testStyles)
	p.now = func() time.Time { return epoch }
	feed(p, fixture(t, fallbackFixture))
	if !strings.Contains(out.String(), "**") {
		t.Fatalf("the answer is not printed as its plain source:\n%s", out.String())
	}
	if n := p.Note(); !strings.Contains(n, "broken style") || strings.Contains(n, "\n") {
		t.Fatalf("Printer.Note = %q", n)
	}
}

// flat is s with all white space removed: wrapped rows compare with their
// source.
func flat(s string) string { return strings.Join(strings.Fields(s), "") }
