package block

import (
	"strings"
	"testing"
)

// TestReasoningLiveHeader replays the 12-summary-parts stream: the collapsed
// header is one line that follows the newest **Title** and part count while
// the item streams, and settles to "Thought" with all 12 parts.
func TestReasoningLiveHeader(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-reasoning-12-summary-parts.sse"))
	var rb *reasoning
	titles := map[string]bool{}
	var headers []string
	for r.next() {
		if rb == nil {
			if bs := r.byType("reasoning"); len(bs) > 0 {
				rb = bs[0].(*reasoning)
			}
		}
		if rb == nil || !rb.Live() {
			continue
		}
		out := rb.Render(r.ctx(100))
		if rb.Hidden() { // no summary yet: the turn's Thinking line speaks for it
			if out != "" {
				t.Fatalf("reasoning with nothing to show drew %q", out)
			}
			continue
		}
		if strings.Contains(out, "\n") {
			t.Fatalf("collapsed reasoning is more than one line:\n%s", out)
		}
		vis := visible(out)
		if !strings.Contains(vis, "Thinking") || !spinnerRE.MatchString(vis) {
			t.Fatalf("live header lacks Thinking or the spinner: %q", vis)
		}
		if title := rb.Title(); title != "" {
			titles[title] = true
			if !strings.Contains(vis, title) {
				t.Fatalf("header %q lacks the title %q", vis, title)
			}
		}
		if len(headers) == 0 || headers[len(headers)-1] != vis {
			headers = append(headers, vis)
		}
	}
	if rb == nil {
		t.Fatal("no reasoning block")
	}
	if len(titles) < 6 {
		t.Errorf("the title changed through only %d values: %v", len(titles), titles)
	}
	want := ""
	for _, p := range rb.it.Summary {
		if title := boldTitle(p.Text); title != "" {
			want = title
		}
	}
	if rb.Title() != want || want == "" {
		t.Errorf("Title() = %q, want the newest part's title %q", rb.Title(), want)
	}
	vis := visible(rb.Render(r.ctx(100)))
	if rb.Live() || !strings.Contains(vis, "Thought") || !strings.Contains(vis, "(12 parts)") || strings.Contains(vis, "\n") {
		t.Errorf("settled header: %q (live %v)", vis, rb.Live())
	}
	rb.SetExpanded(true)
	full := visible(rb.Render(r.ctx(100)))
	if n := strings.Count(full, "\n"); n < 20 {
		t.Errorf("expanded reasoning has only %d rows", n)
	}
	for _, p := range rb.it.Summary {
		first := strings.Fields(strings.ReplaceAll(p.Text, "**", ""))
		if len(first) > 0 && !strings.Contains(full, first[0]) {
			t.Errorf("expanded reasoning lacks %q", first[0])
		}
	}
	rb.SetExpanded(false)
	if got := visible(rb.Render(r.ctx(100))); got != vis {
		t.Errorf("collapsing again gave %q, want %q", got, vis)
	}
}

// TestReasoningRawAndEncrypted covers reasoning without a summary: raw
// reasoning_text is shown instead, and encrypted-only reasoning draws
// nothing.
func TestReasoningRawAndEncrypted(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/lmstudio-tool-call-reasoning-text.sse")).run()
	bs := r.byType("reasoning")
	if len(bs) == 0 {
		t.Fatal("no reasoning block")
	}
	rb := bs[0].(*reasoning)
	rb.SetExpanded(true)
	full := visible(rb.Render(r.ctx(80)))
	text := strings.Fields(rb.it.Content[0].Text)
	if len(text) < 3 || !strings.Contains(full, text[0]+" "+text[1]) || !strings.Contains(full, "(raw)") {
		t.Errorf("raw reasoning not shown:\n%s", full)
	}

	// encrypted only: nothing to show, expanded or not
	enc := item(t, `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAAB..."}`)
	b := ForItem(enc, epoch)
	b.Update(epoch)
	b.End(epoch)
	for _, open := range []bool{false, true} {
		b.(Expander).SetExpanded(open)
		if out := b.Render(testCtx(60, epoch)); out != "" || !b.(Hider).Hidden() {
			t.Errorf("encrypted reasoning (expanded %v) drew %q", open, out)
		}
	}
}

func TestBoldTitle(t *testing.T) {
	for in, want := range map[string]string{
		"**Planning the answer**\n\nI will…": "Planning the answer",
		"no title here":                      "",
		"**unfinished":                       "",
		"lead **Mid title** rest":            "Mid title",
		"**\x1b[2JEvil\x07**":                "Evil",
	} {
		if got := boldTitle(in); got != want {
			t.Errorf("boldTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
