package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/store"
)

// TestWelcomeScreen: the first screen says what runnel is and how to start;
// in demo mode, that the answers are scripted, what the demo can show and
// how to reach a model; a resumed session shows its turns instead.
func TestWelcomeScreen(t *testing.T) {
	m := newTestModel(t, Options{Provider: "https://api.openai.com/v1", Settings: session.Settings{Model: "gpt-5"}})
	v := plain(m)
	for _, want := range []string{"runnel — a terminal chat with gpt-5 at api.openai.com", "press enter", "ctrl+g", "ctrl+s"} {
		if !strings.Contains(v, want) {
			t.Errorf("first screen lacks %q:\n%s", want, v)
		}
	}
	m = newTestModel(t, Options{Provider: "demo", Settings: session.Settings{Model: "gpt-5-mini"}})
	v = plain(m)
	for _, want := range []string{"runnel demo", "built-in script, not a model", "markdown", "weather", "deploy", "OPENAI_API_KEY"} {
		if !strings.Contains(v, want) {
			t.Errorf("demo first screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "gpt-5-mini") {
		t.Errorf("the demo names a model:\n%s", v)
	}
	m = newTestModel(t, Options{Resume: &store.Session{}})
	if v := plain(m); strings.Contains(v, "Type a message") {
		t.Errorf("a resumed session shows the welcome:\n%s", v)
	}
}
