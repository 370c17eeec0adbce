package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// testStyles are the style sets views are checked with: none (plain) and a
// real theme, whose escape sequences must not change any width.
func testStyles(t *testing.T) []*theme.Styles {
	t.Helper()
	st := testTheme()
	return []*theme.Styles{nil, &st}
}

var _ help.KeyMap = KeyMap{}

func TestKeyMapBindings(t *testing.T) {
	t.Parallel()
	k := DefaultKeyMap()
	cases := []struct {
		name string
		keys []string
		got  []string
	}{
		{"send", []string{"enter"}, k.Send.Keys()},
		{"newline", []string{"shift+enter", "alt+enter", "ctrl+j"}, k.Newline.Keys()},
		{"interrupt", []string{"esc"}, k.Interrupt.Keys()},
		{"quit", []string{"ctrl+c"}, k.Quit.Keys()},
		{"copy", []string{"ctrl+y"}, k.CopyLast.Keys()},
		{"editor", []string{"ctrl+e"}, k.Editor.Keys()},
		{"reasoning", []string{"ctrl+r"}, k.ToggleReasoning.Keys()},
		{"tool", []string{"ctrl+o"}, k.ExpandTool.Keys()},
		{"approve", []string{"a", "A", "y", "Y"}, k.Approve.Keys()},
		{"approve for the session", []string{"s", "S"}, k.ApproveSession.Keys()},
		{"deny", []string{"d", "D", "n", "N"}, k.Deny.Keys()},
		{"help", []string{"?"}, k.Help.Keys()},
	}
	for _, c := range cases {
		if strings.Join(c.got, ",") != strings.Join(c.keys, ",") {
			t.Errorf("%s keys = %v; want %v", c.name, c.got, c.keys)
		}
	}
	if !k.Sessions.Enabled() {
		t.Error("ctrl+s (sessions) is disabled")
	}
}

func TestHelpView(t *testing.T) {
	t.Parallel()
	for _, st := range testStyles(t) {
		for _, w := range []int{30, 60, 100, 160} {
			v := HelpView(w, st, DefaultKeyMap())
			plain := ansi.Strip(v)
			for _, want := range []string{"enter", "send", "ctrl+j", "pgup", "esc", "ctrl+y", "/model [NAME]", "/effort"} {
				if !strings.Contains(plain, want) {
					t.Errorf("width %d: help lacks %q", w, want)
				}
			}
			if !strings.Contains(plain, "ctrl+s") {
				t.Errorf("width %d: help lacks the sessions key", w)
			}
			for i, l := range strings.Split(v, "\n") {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("width %d: line %d is %d cells: %q", w, i, lw, ansi.Strip(l))
				}
			}
		}
	}
	// Wide terminals put groups side by side, so the overlay is shorter.
	narrow := strings.Count(HelpView(40, nil, DefaultKeyMap()), "\n")
	wide := strings.Count(HelpView(160, nil, DefaultKeyMap()), "\n")
	if wide >= narrow {
		t.Errorf("help at 160 has %d lines, at 40 %d; want fewer when wide", wide, narrow)
	}
}

// testTheme is the dark theme, as most terminals get it.
func testTheme() theme.Styles { return theme.New(theme.Dark()) }
