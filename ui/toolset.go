package ui

// This file is the tools child's set: which tools are switched on for the
// session, and their definitions as the next request carries them, secrets
// resolved. It decides nothing about rounds (toolround.go) and posts
// nothing; the toolKit reports a change (toolKit.set).

import (
	"encoding/json"
	"os"
	"slices"
	"sort"

	"runnel/session/tools"
)

// toolSet is the tools the request carries.
//
// Invariants: enabled holds the configured tools' switches, and changes only
// through choose and remember; resolved and resolveErr are the outcome of
// the last resolve, for enabled as it stood then (the toolKit resolves after
// each change, at start and once the MCP servers are up), so a secret read
// by a command runs then, never on every turn. resolved holds secrets: it
// goes into a request sent, never into what is stored or shown (redacted is
// the copy for that).
type toolSet struct {
	enabled    map[string]bool     // tool name → on
	env        func(string) string // where secrets are read at resolve time
	resolved   []json.RawMessage   // the request's tools, secrets resolved
	resolveErr error               // why resolving them failed, shown on each turn
}

func newToolSet(enabled map[string]bool, env func(string) string) toolSet {
	s := toolSet{enabled: map[string]bool{}, env: env}
	for n, on := range enabled {
		s.enabled[n] = on
	}
	if s.env == nil {
		s.env = os.Getenv
	}
	return s
}

// on lists the tools switched on, sorted.
func (s *toolSet) on() []string {
	var out []string
	for n, on := range s.enabled {
		if on {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// choose switches the tools named on or off (the /tools menu's choice).
func (s *toolSet) choose(enabled map[string]bool) {
	for n, on := range enabled {
		s.enabled[n] = on
	}
}

// remember switches on exactly the tools of on that the set knows (a
// resumed session's tool set); the others go off.
func (s *toolSet) remember(on []string) {
	for n := range s.enabled {
		s.enabled[n] = slices.Contains(on, n)
	}
}

// resolve resolves the enabled tools' definitions through r (secrets
// included), keeps them for the requests, and returns the redacted copy
// to store.
func (s *toolSet) resolve(r *tools.Runner) (resolved, redacted []json.RawMessage, err error) {
	resolved, err = r.RequestTools(func(n string) bool { return s.enabled[n] }, s.env)
	s.resolved, s.resolveErr = resolved, err
	if err != nil {
		return nil, nil, err
	}
	return resolved, tools.Redact(resolved), nil
}

// request is what the next request's tools are: resolved at the last
// resolve, and why that failed (nil: it did not).
func (s *toolSet) request() ([]json.RawMessage, error) { return s.resolved, s.resolveErr }
