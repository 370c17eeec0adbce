package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/store"
)

// TestWelcomeScreen: the first screen says what runnel is and how to start;
// in demo mode, that the answers are scripted, what the demo can show and
// how to reach a model; a resumed session shows its turns instead.
func TestWelcomeScreen(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{Provider: "https://api.openai.com/v1", Settings: session.Settings{Model: "gpt-5"}})
	v := plain(m)
	for _, want := range []string{"runnel — a terminal chat with gpt-5 at api.openai.com", "press enter", "ctrl+g", "ctrl+s"} {
		if !strings.Contains(v, want) {
			t.Errorf("first screen lacks %q:\n%s", want, v)
		}
	}
	m = newTestModel(t, Options{Provider: "demo", Settings: session.Settings{Model: "runnel-demo"}}) // as config.WithDemo gives it
	v = plain(m)
	for _, want := range []string{"runnel demo", "built-in script (runnel-demo)", "markdown", "weather", "deploy", "OPENAI_API_KEY"} {
		if !strings.Contains(v, want) {
			t.Errorf("demo first screen lacks %q:\n%s", want, v)
		}
	}
	m = newTestModel(t, Options{Resume: &store.Session{}})
	if v := plain(m); strings.Contains(v, "Type a message") {
		t.Errorf("a resumed session shows the welcome:\n%s", v)
	}
}

// TestWelcomeAndHintSayEachKeyOnce: the welcome, the composer's placeholder
// and the key hint under the status line do not say the same thing in
// different words. The hint shows the keys of the moment; the welcome
// names only keys the hint does not, in the words "?" uses for them (the
// key map's help), and the placeholder names none. At 100 and at 60
// columns, no row of the welcome starts with a separator.
func TestWelcomeAndHintSayEachKeyOnce(t *testing.T) {
	t.Parallel()
	k := DefaultKeyMap()
	hinted := map[string]bool{}
	for _, it := range []key.Binding{k.Send, k.Newline, k.Prev, k.Help} {
		hinted[it.Help().Key] = true
	}
	hinted["/"] = true
	for _, demo := range []bool{false, true} {
		e := &welcomeEntry{demo: demo, model: "gpt-5"}
		var keys int
		for _, r := range e.rows() {
			for i := 0; i+1 < len(r.pairs); i += 2 {
				keys++
				if hinted[r.pairs[i]] {
					t.Errorf("demo %v: the welcome names %q, which the key hint shows", demo, r.pairs[i])
				}
				for _, b := range []key.Binding{k.HistorySearch, k.Sessions, k.Quit} {
					if b.Help().Key == r.pairs[i] && b.Help().Desc != r.pairs[i+1] {
						t.Errorf("the welcome says %q for %s, \"?\" says %q", r.pairs[i+1], r.pairs[i], b.Help().Desc)
					}
				}
			}
		}
		if keys == 0 {
			t.Errorf("demo %v: the welcome names no key at all", demo)
		}
	}
	for _, width := range []int{100, 80, 60} {
		m := newTestModel(t, Options{Provider: "https://api.openai.com/v1", Settings: session.Settings{Model: "gpt-5"}})
		m.Update(tea.WindowSizeMsg{Width: width, Height: 24})
		v := plain(m)
		lines := strings.Split(v, "\n")
		hint := lines[len(lines)-1]
		for _, want := range []string{"enter send", "ctrl+j newline"} {
			if !strings.Contains(hint, want) {
				t.Errorf("at %d the key hint lacks %q: %q", width, want, hint)
			}
		}
		for _, l := range lines[:len(lines)-1] {
			if strings.Contains(l, "send") || strings.Contains(l, "new line") || strings.Contains(l, "for commands") {
				t.Errorf("at %d a line above the key hint says it again: %q", width, l)
			}
			if strings.HasPrefix(strings.TrimSpace(l), "·") {
				t.Errorf("at %d a welcome row starts with a separator: %q", width, l)
			}
		}
		if !strings.Contains(v, "ctrl+g search prompt history") || !strings.Contains(v, "ctrl+c ×2 quit") {
			t.Errorf("at %d the welcome lacks the keys the hint does not show:\n%s", width, v)
		}
	}
}
