package config

// This file is the keymap: every action a key can be bound to, the mode it
// works in, and its keys in the two presets; and the [keys] table that
// picks a preset and rebinds actions. The chat (ui) builds its key
// bindings from Keymap alone, so what "?" lists is what the file says.
//
// A key is written as Bubble Tea names a key press: "ctrl+k", "alt+enter",
// "shift+tab", "pgup", "f1", "space", or one character ("j", "?", "G").
// Two actions in one mode may not share a key; the file's line is given.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// KeyAction is one action a key can be bound to.
type KeyAction struct {
	Name    string   // as written in [keys]
	Modes   []string // where it works; two actions of one mode may not share a key
	Default []string // its keys in the default preset; none: unbound
	Vi      []string // its keys in the vi preset; nil: the default's
}

// Key modes: where an action is matched.
const (
	ModeChat     = "chat"     // the composer and the transcript, no dialog open
	ModeOverlay  = "overlay"  // the "?" overlay, while it is taller than the screen
	ModeDropped  = "dropped"  // a dropped answer's offers, with an empty composer
	ModeNavigate = "navigate" // the transcript's navigation mode
)

// KeyActions is every bindable action, in the order "?" groups them. The
// dialogs' keys, the approval answers among them (a/y, s, d/n: the
// approval dialog's vocabulary, which the root shares), are not in it:
// each dialog's "?" lists them.
var KeyActions = []KeyAction{
	{Name: "send", Modes: []string{ModeChat}, Default: []string{"enter"}},
	{Name: "newline", Modes: []string{ModeChat}, Default: []string{"shift+enter", "alt+enter", "ctrl+j"}},
	{Name: "complete", Modes: []string{ModeChat}, Default: []string{"tab"}},
	{Name: "prev", Modes: []string{ModeChat}, Default: []string{"up"}},
	{Name: "next", Modes: []string{ModeChat}, Default: []string{"down"}},
	{Name: "editor", Modes: []string{ModeChat}, Default: []string{"ctrl+e"}},
	{Name: "expand_paste", Modes: []string{ModeChat}, Default: []string{"ctrl+x"}},
	{Name: "history_search", Modes: []string{ModeChat}, Default: []string{"ctrl+g"}},
	{Name: "unattach", Modes: []string{ModeChat}, Default: []string{"backspace"}},
	{Name: "continue", Modes: []string{ModeDropped}, Default: []string{"enter"}},
	{Name: "retry", Modes: []string{ModeDropped}, Default: []string{"ctrl+t"}},

	{Name: "page_up", Modes: []string{ModeChat, ModeOverlay}, Default: []string{"pgup"}},
	{Name: "page_down", Modes: []string{ModeChat, ModeOverlay}, Default: []string{"pgdown"}},
	{Name: "line_up", Modes: []string{ModeOverlay}, Default: []string{"up"}},
	{Name: "line_down", Modes: []string{ModeOverlay}, Default: []string{"down"}},
	{Name: "top", Modes: []string{ModeChat, ModeOverlay}, Default: []string{"home"}},
	{Name: "bottom", Modes: []string{ModeChat, ModeOverlay}, Default: []string{"end"}},

	{Name: "interrupt", Modes: []string{ModeChat}, Default: []string{"esc"}},
	{Name: "quit", Modes: []string{ModeChat, ModeNavigate}, Default: []string{"ctrl+c"}},
	{Name: "copy_last", Modes: []string{ModeChat}, Default: []string{"ctrl+y"}},
	{Name: "toggle_reasoning", Modes: []string{ModeChat}, Default: []string{"ctrl+r"}},
	{Name: "all_reasoning", Modes: []string{ModeChat}, Default: []string{"alt+r"}},
	{Name: "expand_tool", Modes: []string{ModeChat}, Default: []string{"ctrl+o"}},
	{Name: "panels", Modes: []string{ModeChat}, Default: []string{"alt+o"}},
	{Name: "sessions", Modes: []string{ModeChat}, Default: []string{"ctrl+s"}},
	{Name: "help", Modes: []string{ModeChat}, Default: []string{"?"}},
	{Name: "branch", Modes: []string{ModeChat}, Default: []string{"ctrl+left", "ctrl+right"}},
	{Name: "mouse", Modes: []string{ModeChat}, Default: []string{"f2"}},
	// navigate enters the transcript's navigation mode: unbound by default
	// (the default chat stays as it was), ctrl+k in the vi preset.
	{Name: "navigate", Modes: []string{ModeChat}, Vi: []string{"ctrl+k"}},

	// The transcript's navigation mode. gg, ]] and [[ are fixed sequences.
	{Name: "nav_down", Modes: []string{ModeNavigate}, Default: []string{"j", "down"}},
	{Name: "nav_up", Modes: []string{ModeNavigate}, Default: []string{"k", "up"}},
	{Name: "nav_half_down", Modes: []string{ModeNavigate}, Default: []string{"ctrl+d"}},
	{Name: "nav_half_up", Modes: []string{ModeNavigate}, Default: []string{"ctrl+u"}},
	{Name: "nav_bottom", Modes: []string{ModeNavigate}, Default: []string{"G", "end"}},
	{Name: "nav_search", Modes: []string{ModeNavigate}, Default: []string{"/"}},
	{Name: "nav_next_match", Modes: []string{ModeNavigate}, Default: []string{"n"}},
	{Name: "nav_prev_match", Modes: []string{ModeNavigate}, Default: []string{"N"}},
	{Name: "nav_copy", Modes: []string{ModeNavigate}, Default: []string{"y"}},
	{Name: "nav_toggle", Modes: []string{ModeNavigate}, Default: []string{"o"}},
	{Name: "nav_edit", Modes: []string{ModeNavigate}, Default: []string{"e"}},
	{Name: "nav_exit", Modes: []string{ModeNavigate}, Default: []string{"i", "esc"}},
}

// Presets are the allowed values of keys.preset.
var Presets = []string{"default", "vi"}

// Keymap is the keys of every action after the preset and the file's
// [keys] table: action name → keys ("" preset: default). An action with
// no keys is unbound.
type Keymap struct {
	Preset string
	Keys   map[string][]string
}

// Vi reports whether the vi preset is on (the composer's modes).
func (k Keymap) Vi() bool { return k.Preset == "vi" }

// DefaultKeymap is the keymap of preset ("default" or "vi").
func DefaultKeymap(preset string) Keymap {
	km := Keymap{Preset: preset, Keys: make(map[string][]string, len(KeyActions))}
	for _, a := range KeyActions {
		keys := a.Default
		if preset == "vi" && a.Vi != nil {
			keys = a.Vi
		}
		km.Keys[a.Name] = slices.Clone(keys)
	}
	return km
}

// Keymap is the file's keymap: its preset with its [keys] rebinding. The
// table was checked when the file was read.
func (c Config) Keymap() Keymap {
	km, _ := c.keymap("", nil)
	return km
}

// keymap builds the keymap from the [keys] table, checking it: the preset,
// action names, key names and conflicts, each error one line at the key's
// line.
func (c Config) keymap(name string, pos *positions) (Keymap, error) {
	at := func(key string) string { return pos.at(name, "", 0, "keys."+keyString([]string{key})) }
	preset := "default"
	if p, ok := c.Keys["preset"]; ok {
		s, isString := p.(string)
		if !isString {
			return Keymap{}, fmt.Errorf("%s: key \"keys.preset\": want a string (\"default\" or \"vi\")", at("preset"))
		}
		if err := checkEnum(s, Presets); err != nil {
			return Keymap{}, fmt.Errorf("%s: key \"keys.preset\": %w", at("preset"), err)
		}
		preset = s
	}
	km := DefaultKeymap(preset)
	names := slices.Sorted(maps.Keys(c.Keys))
	for _, action := range names {
		if action == "preset" {
			continue
		}
		if !slices.ContainsFunc(KeyActions, func(a KeyAction) bool { return a.Name == action }) {
			return Keymap{}, fmt.Errorf("%s: key %q: no such action%s (see \"Configuration: keys\" in the README)", at(action), "keys."+action, suggestAction(action))
		}
		keys, err := keyList(c.Keys[action])
		if err != nil {
			return Keymap{}, fmt.Errorf("%s: key %q: %w", at(action), "keys."+action, err)
		}
		for _, k := range keys {
			if err := checkKeyName(k); err != nil {
				return Keymap{}, fmt.Errorf("%s: key %q: %w", at(action), "keys."+action, err)
			}
		}
		km.Keys[action] = keys
	}
	// conflicts: in each mode, one action per key; the action the file
	// rebound is named (its line is the one to change)
	for _, a := range KeyActions {
		for _, b := range KeyActions {
			if a.Name >= b.Name || !shareMode(a, b) {
				continue
			}
			for _, k := range km.Keys[a.Name] {
				if !slices.Contains(km.Keys[b.Name], k) {
					continue
				}
				where := b.Name
				if _, set := c.Keys[a.Name]; set {
					where = a.Name
				}
				return Keymap{}, fmt.Errorf("%s: key %q: %q is bound to both %s and %s; give one of them another key", at(where), "keys."+where, k, a.Name, b.Name)
			}
		}
	}
	return km, nil
}

// shareMode reports whether a and b work in one mode.
func shareMode(a, b KeyAction) bool {
	for _, m := range a.Modes {
		if slices.Contains(b.Modes, m) {
			return true
		}
	}
	return false
}

// keyList reads an action's value: a key, or an array of them ([] unbinds).
func keyList(v any) ([]string, error) {
	switch v := v.(type) {
	case string:
		return []string{v}, nil
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("want a key or an array of keys, got an array holding %T", x)
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a key like \"ctrl+k\" or an array of keys, got %T", v)
}

// keyNames are the named keys; any single printable character is a key too.
var keyNames = []string{
	"enter", "tab", "esc", "backspace", "delete", "insert", "space",
	"up", "down", "left", "right", "home", "end", "pgup", "pgdown",
	"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
}

// keyModifiers may come before a key, joined with "+", in this order.
var keyModifiers = []string{"ctrl", "alt", "shift"}

// checkKeyName reports whether k names a key press as Bubble Tea writes it.
func checkKeyName(k string) error {
	if k == "+" {
		return nil
	}
	parts := strings.Split(k, "+")
	if strings.HasSuffix(k, "++") { // ctrl++
		parts = append(parts[:len(parts)-2], "+")
	}
	base, mods := parts[len(parts)-1], parts[:len(parts)-1]
	last := -1
	for _, m := range mods {
		i := slices.Index(keyModifiers, m)
		if i < 0 || i <= last {
			return fmt.Errorf("%q is not a key: modifiers are ctrl, alt and shift, in that order, as in \"ctrl+alt+k\"", k)
		}
		last = i
	}
	if slices.Contains(keyNames, base) {
		return nil
	}
	if r, n := utf8.DecodeRuneInString(base); n == len(base) && r != utf8.RuneError && r > ' ' && r != 0x7f {
		return nil
	}
	return fmt.Errorf("%q is not a key: write one character or a key name (enter, esc, tab, space, up, pgup, f1, …), as in \"ctrl+k\"", k)
}

// suggestAction names the closest action to a misspelt one, or "".
func suggestAction(name string) string {
	best, dist := "", 3
	for _, a := range KeyActions {
		if d := editDistance(name, a.Name); d < dist {
			best, dist = a.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
