package block

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/sharedtest"
)

// TestCompactionFixturePanel: the recorded compaction stream (real2)
// replays into the long answer and a "context compacted" panel that shows
// the context's size before, from the response's usage, and never the
// encrypted content.
func TestCompactionFixturePanel(t *testing.T) {
	data, err := os.ReadFile(sharedtest.Path(t, "fixtures", "real2", "vercel__ai", "openai-compaction.sse"))
	if err != nil {
		t.Fatal(err)
	}
	out := ansi.Strip(printFixture(t, data, 80))
	if !strings.Contains(out, "Testing strategies") {
		t.Error("the answer is missing")
	}
	i := strings.Index(out, "≡ context compacted")
	if i < 0 {
		t.Fatalf("no compaction panel in:\n%s", out[max(0, len(out)-1500):])
	}
	if !strings.Contains(out[i:], "51,097 tokens before") {
		t.Errorf("panel lacks the size before:\n%s", out[i:])
	}
	if strings.Contains(out, "gAAAAA") {
		t.Error("the encrypted content is shown")
	}

	r := newReplayer(t, data).run()
	panels := r.byType("compaction")
	if len(panels) != 1 {
		t.Fatalf("%d compaction blocks", len(panels))
	}
	panels[0].(Compaction).SetTokens(51097, 2505)
	got := ansi.Strip(panels[0].Render(r.ctx(60)))
	if !strings.Contains(got, "context compacted") || !strings.Contains(got, "51,097 → 2,505 tokens") {
		t.Errorf("panel:\n%s", got)
	}
}

// TestDivider: a rule across the width with its label, clipped when narrow.
func TestDivider(t *testing.T) {
	d := NewDivider("context starts here\x1b[2J")
	got := ansi.Strip(d.Render(Context{Width: 40, Styles: testStyles}))
	if ansi.StringWidth(got) != 40 || !strings.HasPrefix(got, "── context starts here ─") || strings.Contains(got, "\x1b") {
		t.Errorf("divider %q", got)
	}
	if w := ansi.StringWidth(ansi.Strip(d.Render(Context{Width: 8, Styles: testStyles}))); w > 8 {
		t.Errorf("narrow divider is %d wide", w)
	}
}
