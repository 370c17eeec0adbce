package config

// This file is the keymap: every action a key can be bound to, the mode it
// works in, and its keys in the two presets; and the [keys] table that
// picks a preset and rebinds actions. The chat (ui) builds its key
// bindings from Keymap alone, so what "?" lists is what the file says.
//
// A key is written as Bubble Tea names a key press: "ctrl+k", "alt+enter",
// "shift+tab", "pgup", "f1", "space", or one character ("j", "?", "G").
// Two actions in one mode may not share a key, and a key that types a
// character is bound only in the navigation mode; the file's line is given.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"runnel/session/keymap"
)

// The keymap's actions, modes and presets live in session/keymap, which
// the chat reads without this package's config file machinery.
type (
	KeyAction = keymap.KeyAction
	Keymap    = keymap.Keymap
)

// Key modes, the actions and the presets, as session/keymap has them.
const (
	ModeChat     = keymap.ModeChat
	ModeOverlay  = keymap.ModeOverlay
	ModeDropped  = keymap.ModeDropped
	ModeNavigate = keymap.ModeNavigate
)

var (
	KeyActions = keymap.Actions
	Presets    = keymap.Presets
)

// DefaultKeymap is the keymap of preset ("default" or "vi").
func DefaultKeymap(preset string) Keymap { return keymap.Default(preset) }

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
			if err := keymap.CheckTyping(preset, action, k); err != nil {
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
