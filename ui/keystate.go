package ui

import (
	"runnel/theme"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// This file is the keys child: the key map, the "?" overlay of every key
// and its scrolling, and the presses that arm a second one (ctrl+c, esc).

// keyState is the keys' state: the map, the "?" overlay and the presses
// that arm a second one.
type keyState struct {
	keys      KeyMap
	showHelp  bool
	helpTop   int       // first line of the "?" overlay shown, when it is taller than the area
	quitArmed time.Time // ctrl+c pressed once while idle
	escArmed  time.Time // esc pressed once with an empty, idle composer
}

// helpView is the "?" overlay in the transcript area: when it is taller,
// a window of it from helpTop and a last line saying how to scroll.
func (ks *keyState) helpView(f *frameState, h int) string {
	st := f.styles
	lines := strings.Split(HelpView(f.width, st, ks.keys), "\n")
	if len(lines) <= h || h < 2 {
		return fitHeight(strings.Join(lines, "\n"), h)
	}
	top := min(max(ks.helpTop, 0), len(lines)-(h-1))
	more := theme.DialogOf(st).More.Render(cutLines("↑/↓ pgup/pgdn scroll · lines "+strconv.Itoa(top+1)+"–"+strconv.Itoa(top+h-1)+" of "+strconv.Itoa(len(lines))+" · esc close", f.width))
	return strings.Join(append(lines[top:top+h-1:top+h-1], more), "\n")
}

// helpScroll scrolls the "?" overlay when it is taller than the area, and
// reports whether k was a scrolling key.
func (ks *keyState) helpScroll(k tea.KeyPressMsg, f *frameState, h int) bool {
	page := max(h-2, 1)
	switch {
	case key.Matches(k, ks.keys.LineUp):
		ks.helpTop--
	case key.Matches(k, ks.keys.LineDown):
		ks.helpTop++
	case key.Matches(k, ks.keys.PageUp):
		ks.helpTop -= page
	case key.Matches(k, ks.keys.PageDown):
		ks.helpTop += page
	case key.Matches(k, ks.keys.Top):
		ks.helpTop = 0
	case key.Matches(k, ks.keys.Bottom):
		ks.helpTop = 1 << 20
	default:
		return false
	}
	n := strings.Count(HelpView(f.width, f.styles, ks.keys), "\n") + 1
	ks.helpTop = min(max(ks.helpTop, 0), max(n-(h-1), 0))
	return true
}
