package block

import (
	"testing"

	"runnel/stream/costtest"
)

// TestRenderPartsAreRender: while the markdown fixtures stream (citations,
// sources, code, reasoning beside), a message's RenderParts has Render's
// rows at every step, drafted or not, at two widths; and its settled part
// is most of the message once it is long.
func TestRenderPartsAreRender(t *testing.T) {
	join := func(a, b string) string {
		switch {
		case a == "":
			return b
		case b == "":
			return a
		}
		return a + "\n" + b
	}
	for _, name := range []string{
		"vercel__ai/lmstudio-basic-markdown.sse",
		"vercel__ai/xai-text-reasoning-markdown.sse",
		"vercel__ai/openai-code-interpreter-3-calls.sse",
		"vercel__ai/openai-web-search-6-calls.sse",
	} {
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, fixture(t, name))
			split := false
			for r.next() {
				if r.events%7 != 0 {
					continue
				}
				for _, b := range r.byType("message") {
					m := b.(*message)
					for _, width := range []int{100, 60} {
						ctx := r.ctx(width)
						ctx.Draft = r.events%14 == 0
						settled, live := m.RenderParts(ctx)
						if got, want := join(settled, live), m.Render(ctx); got != want {
							t.Fatalf("event %d, width %d: RenderParts is not Render\n--- parts\n%s\n--- render\n%s", r.events, width, visible(got), visible(want))
						}
						split = split || settled != "" && len(settled) > len(live)
					}
				}
			}
			if !split && name == "vercel__ai/lmstudio-basic-markdown.sse" {
				t.Error("the long answer never rendered in two parts")
			}
		})
	}
}

// TestRenderPartsAgainIsFree: a RenderParts with no new text since the last
// one returns the same parts and allocates nothing: the markdown stream
// returns its last parts (neither parsed nor rendered again) and the
// fitters theirs. About a third of a paced answer's frames come with no new
// text for a message.
func TestRenderPartsAgainIsFree(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	r := newReplayer(t, fixture(t, "vercel__ai/lmstudio-basic-markdown.sse"))
	checked := 0
	for r.next() {
		for _, b := range r.byType("message") {
			m := b.(*message)
			ctx := r.ctx(100)
			settled, live := m.RenderParts(ctx)
			if !m.Live() || r.events%5 != 0 {
				continue
			}
			allocs := testing.AllocsPerRun(3, func() {
				if s, l := m.RenderParts(ctx); s != settled || l != live {
					t.Fatalf("event %d: RenderParts changed with no new text", r.events)
				}
			})
			if allocs > 0 {
				t.Fatalf("event %d: RenderParts with no new text allocated %.0f times", r.events, allocs)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no streaming message was checked")
	}
}
