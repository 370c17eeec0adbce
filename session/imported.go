package session

// This file is what an imported session (sessions import FILE) may bring:
// its transcript, always; its settings only where the user's config
// agrees. Until the session is first continued (store.Session.Imported),
// the settings that steer the next turn (model, instructions, reasoning
// effort, provider, service tier, verbosity, the tools switched on, the
// prompt cache key) are compared with the config's (flags included: a
// flag is the user asking for a value): each that differs is replaced by
// the config's and named in one line (Foreign). A provider named by a file
// therefore never picks which key is sent.

import (
	"fmt"
	"slices"
	"strings"

	"runnel/stream"
)

// steer is one setting an imported file may ask for.
type steer struct {
	name string                  // as the line says it
	get  func(*Settings) *string // the field
	flag string                  // how the user takes it
}

var steering = []steer{
	{"model", func(s *Settings) *string { return &s.Model }, "--model"},
	{"instructions", func(s *Settings) *string { return &s.Instructions }, "--instructions"},
	{"reasoning_effort", func(s *Settings) *string { return &s.ReasoningEffort }, "--reasoning-effort"},
	{"provider", func(s *Settings) *string { return &s.Provider }, "--provider"},
	{"service_tier", func(s *Settings) *string { return &s.ServiceTier }, "-c service_tier=…"},
	{"verbosity", func(s *Settings) *string { return &s.Verbosity }, "-c verbosity=…"},
	{"prompt_cache_key", func(s *Settings) *string { return &s.PromptCacheKey }, "-c prompt_cache_key=…"},
}

// Foreign holds an imported session's settings (stored) to the user's
// (mine: the config's, with the flags): every steering setting that
// differs is replaced by mine. line names what the file asked for, that
// the config's are used, and how to take them; "" when all agreed.
func Foreign(stored, mine Settings) (Settings, string) {
	var asked, how []string
	for _, st := range steering {
		theirs, ours := st.get(&stored), st.get(&mine)
		if *theirs == "" || *theirs == *ours {
			continue
		}
		switch st.name {
		case "instructions":
			asked = append(asked, fmt.Sprintf("instructions (%d characters)", len([]rune(*theirs))))
		case "prompt_cache_key":
			asked = append(asked, "a prompt cache key")
		default:
			asked = append(asked, fmt.Sprintf("%s %q", st.name, stream.SanitizeLine(truncate(*theirs, 40))))
		}
		how = append(how, st.flag)
		*theirs = *ours
	}
	if stored.EnabledTools != nil && !slices.Equal(stored.EnabledTools, mine.EnabledTools) {
		asked = append(asked, "its own set of tools switched on")
		how = append(how, "/tools, --tool")
		stored.EnabledTools = mine.EnabledTools
	}
	if len(asked) == 0 {
		return stored, ""
	}
	return stored, "this session was imported: its file asked for " + strings.Join(asked, ", ") +
		", which your config does not — your config's are used; to take one, ask for it (" + strings.Join(how, ", ") + ")"
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
