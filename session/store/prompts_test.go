package store

import (
	"slices"
	"testing"
	"time"
)

// TestPrompts: the prompts of every session, newest first, each once.
func TestPrompts(t *testing.T) {
	db, c := openTest(t)
	a := newSession(t, db, `{}`)
	b := newSession(t, db, `{}`)
	for _, p := range []struct {
		s      SessionID
		prompt string
	}{{a, "first"}, {a, "second"}, {b, "third"}, {b, "first"}, {b, ""}} {
		_, err := db.BeginTurn(p.s, p.prompt, nil, "")
		check(t, err)
		c.advance(time.Second)
	}
	got := must[[]string](t)(db.Prompts(0))
	if want := []string{"first", "third", "second"}; !slices.Equal(got, want) {
		t.Errorf("Prompts = %q, want %q", got, want)
	}
	if got := must[[]string](t)(db.Prompts(2)); len(got) != 2 {
		t.Errorf("Prompts(2) gave %d", len(got))
	}
}
