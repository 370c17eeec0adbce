package block

import (
	"strings"
	"testing"
	"time"
)

// TestThinkingOneLine: the six-search fixture has seven reasoning items
// without a summary. None draws a row of its own; the turn's Thinking line
// is one row: "Thinking" with a spinner while one of them runs, then
// "Thought for" their summed time (each from its added event to its done event, 1 s: 7 s).
func TestThinkingOneLine(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-web-search-6-calls.sse"))
	r.step = time.Second
	th := NewThinking()
	sawLive := false
	for r.next() {
		for _, b := range r.byType("reasoning") {
			th.Join(b)
		}
		out := visible(th.Render(r.ctx(80)))
		if strings.Contains(out, "\n") {
			t.Fatalf("the Thinking line is more than one row: %q", out)
		}
		if th.Live() {
			sawLive = true
			if !strings.Contains(out, "Thinking") || !spinnerRE.MatchString(out) {
				t.Fatalf("live Thinking line: %q", out)
			}
		}
	}
	if !sawLive {
		t.Error("the Thinking line was never live")
	}
	bs := r.byType("reasoning")
	if len(bs) != 7 {
		t.Fatalf("%d reasoning blocks, want 7", len(bs))
	}
	for _, b := range bs {
		for _, open := range []bool{false, true} {
			b.(Expander).SetExpanded(open)
			if out := b.Render(r.ctx(80)); out != "" {
				t.Errorf("reasoning with nothing to show drew %q", out)
			}
		}
	}
	if got := visible(th.Render(r.ctx(80))); got != "Thought for 7.0s" {
		t.Errorf("Thinking line = %q, want %q", got, "Thought for 7.0s")
	}
	// under a second in all: no line
	short := newReplayer(t, fixture(t, "vercel__ai/openai-web-search-6-calls.sse")).run()
	th = NewThinking()
	for _, b := range short.byType("reasoning") {
		th.Join(b)
	}
	if got := th.Render(short.ctx(80)); got != "" {
		t.Errorf("0.7 s of reasoning drew %q", visible(got))
	}
}

// TestPrinterThoughtOnce: --format ansi prints no row for reasoning with
// nothing to show, and the turn's "Thought for" line at most once; reasoning
// with a summary keeps its header.
func TestPrinterThoughtOnce(t *testing.T) {
	six := fixture(t, "vercel__ai/openai-web-search-6-calls.sse")
	for _, c := range []struct {
		step time.Duration
		want int
	}{{tick, 0}, {time.Second, 1}} {
		vis := visible(printFixtureEvery(t, six, 80, c.step))
		if n := strings.Count(vis, "Thought"); n != c.want {
			t.Errorf("step %v: %d Thought rows, want %d:\n%s", c.step, n, c.want, vis)
		}
		if c.want == 1 && !strings.Contains(vis, "Thought for ") {
			t.Errorf("no Thought for line:\n%s", vis)
		}
	}
	sum := visible(printFixture(t, fixture(t, "vercel__ai/openai-reasoning-12-summary-parts.sse"), 80))
	if n := strings.Count(sum, "Thought"); n != 1 || !strings.Contains(sum, "(12 parts)") {
		t.Errorf("reasoning with a summary: %d Thought rows:\n%s", n, sum)
	}
}
