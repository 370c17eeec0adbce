// Package keymap is runnel's key actions: every action a key can be bound
// to, the mode it works in, and its keys in the default and vi presets;
// Keymap is the keys of every action after a preset and the config's
// [keys] table (session/config reads and checks that table). The chat (ui)
// builds its bindings from a Keymap alone. It does not read files or
// match keys.
package keymap

import (
	"fmt"
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

// Actions is every bindable action, in the order "?" groups them. The
// dialogs' keys, the approval answers among them (a/y, s, d/n: the
// approval dialog's vocabulary, which the root shares), are not in it:
// each dialog's "?" lists them.
var Actions = []KeyAction{
	{Name: "send", Modes: []string{ModeChat}, Default: []string{"enter"}},
	// send_now stops a reply that streams and sends at once (enter queues).
	{Name: "send_now", Modes: []string{ModeChat}, Default: []string{"ctrl+enter"}},
	{Name: "newline", Modes: []string{ModeChat}, Default: []string{"shift+enter", "alt+enter", "ctrl+j"}},
	{Name: "complete", Modes: []string{ModeChat}, Default: []string{"tab"}},
	{Name: "prev", Modes: []string{ModeChat}, Default: []string{"up"}},
	{Name: "next", Modes: []string{ModeChat}, Default: []string{"down"}},
	{Name: "editor", Modes: []string{ModeChat}, Default: []string{"ctrl+e"}},
	{Name: "expand_paste", Modes: []string{ModeChat}, Default: []string{"ctrl+x"}},
	{Name: "paste", Modes: []string{ModeChat}, Default: []string{"ctrl+v"}},
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

// Default is the keymap of preset ("default" or "vi").
func Default(preset string) Keymap {
	km := Keymap{Preset: preset, Keys: make(map[string][]string, len(Actions))}
	for _, a := range Actions {
		keys := a.Default
		if preset == "vi" && a.Vi != nil {
			keys = a.Vi
		}
		km.Keys[a.Name] = slices.Clone(keys)
	}
	return km
}

// Types reports whether key k, pressed in the composer, types a
// character: one printable character (or space), alone or with shift.
func Types(k string) bool {
	base := strings.TrimPrefix(k, "shift+")
	if base == "space" {
		return true
	}
	r, n := utf8.DecodeRuneInString(base)
	return n == len(base) && r != utf8.RuneError && r > ' ' && r != 0x7f
}

// CheckTyping refuses a key that would type into the composer bound to
// an action that works outside the navigation mode: the composer could
// not type it, or the action would eat it. The preset's own key of the
// action is allowed ("?" for help, which acts on an empty composer only).
func CheckTyping(preset, action, k string) error {
	if !Types(k) || slices.Contains(Default(preset).Keys[action], k) {
		return nil
	}
	for _, a := range Actions {
		if a.Name == action && !slices.Equal(a.Modes, []string{ModeNavigate}) {
			return fmt.Errorf("%q would type into the composer: bind %s to a key with ctrl or alt, as in \"ctrl+%s\" (only the navigation mode's keys may be one character)", k, action, strings.ToLower(strings.TrimPrefix(k, "shift+")))
		}
	}
	return nil
}
