package block

import "testing"

// TestMessageReleaseRendersTheSame: a finished message that dropped its
// renders (Releaser, far off screen) renders the same again, from its
// source; a live one keeps them.
func TestMessageReleaseRendersTheSame(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/lmstudio-basic-markdown.sse")).run()
	msgs := r.byType("message")
	if len(msgs) == 0 {
		t.Fatal("no message")
	}
	m := msgs[len(msgs)-1].(*message)
	m.End(r.now)
	before := m.Render(r.ctx(80))
	m.Release()
	if m.doc.st != nil || m.settled.ok {
		t.Fatal("the renders were kept")
	}
	if after := m.Render(r.ctx(80)); after != before {
		t.Errorf("after Release:\n%s\nbefore:\n%s", after, before)
	}
}
