package ui

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
)

// TestHelpListsEveryKey: the main "?" overlay names every root binding
// (alt+r and alt+o included), the dialogs' keys and every command, and it
// fits the transcript area of a 100x42 terminal without a cut (40 before
// /edit, /undo, /tree and /fast; a smaller one scrolls it:
// TestHelpScrollsWhenTaller).
func TestHelpListsEveryKey(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 42})
	v := ansi.Strip(HelpView(100, m.frame.styles, DefaultKeyMap()))
	if n := strings.Count(v, "\n") + 1; n > m.transcriptHeight() {
		t.Errorf("help takes %d lines, the area has %d:\n%s", n, m.transcriptHeight(), v)
	}
	k := DefaultKeyMap()
	for _, b := range []key.Binding{k.Send, k.Newline, k.Complete, k.Editor, k.PageUp, k.Top, k.Bottom,
		k.ToggleReasoning, k.AllReasoning, k.ExpandTool, k.Panels, k.Interrupt, k.CopyLast, k.Sessions, k.Branch, k.Quit, k.Approve, k.ApproveSession, k.Deny} {
		if !strings.Contains(v, b.Help().Key) {
			t.Errorf("help lacks %q", b.Help().Key)
		}
	}
	for _, want := range []string{"In dialogs", "alt+r", "alt+o", "del", "space"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, c := range Commands() {
		if !strings.Contains(v, "/"+c.Name) {
			t.Errorf("help lacks /%s:\n%s", c.Name, v)
		}
	}
}

// TestDialogHelpListsTheKeysMatched: "?" in each dialog lists its key map,
// and the keys listed are the keys the dialog matches; "?" again goes back.
func TestDialogHelpListsTheKeysMatched(t *testing.T) {
	t.Parallel()
	st := newTestModel(t, Options{}).frame.styles
	q := keyPress("?")
	type dialogCase struct {
		name   string
		open   func() (dialog, string)
		groups [][]key.Binding
	}
	for _, c := range []dialogCase{
		{"picker", func() (dialog, string) { return dlg[Picker]{NewPicker(nil, fixedNow, st)}, "Sessions keys" }, DefaultPickerKeys().FullHelp()},
		{"search", func() (dialog, string) { return dlg[SearchResults]{NewSearchResults("x", nil, st)}, "Search keys" }, DefaultSearchKeys().FullHelp()},
		{"tools", func() (dialog, string) { return dlg[ToolsMenu]{NewToolsMenu(nil, nil, st)}, "Tools keys" }, DefaultToolsKeys().FullHelp()},
		{"panels", func() (dialog, string) { return dlg[PanelList]{NewPanelList(nil, 80, st)}, "Panels keys" }, DefaultPanelKeys().FullHelp()},
		{"approval", func() (dialog, string) { return dlg[Approval]{NewApproval(testApprovalRequest(), st)}, "Approval keys" }, DefaultApprovalKeys().FullHelp()},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, title := c.open()
			d, _ = d.update(q)
			v := ansi.Strip(d.view(100, 40))
			if !strings.Contains(v, title) {
				t.Fatalf("? did not show the keys:\n%s", v)
			}
			for _, g := range c.groups {
				for _, b := range g {
					if !strings.Contains(v, b.Help().Key) || !strings.Contains(v, b.Help().Desc) {
						t.Errorf("help lacks %q %q:\n%s", b.Help().Key, b.Help().Desc, v)
					}
				}
			}
			d, _ = d.update(q)
			if v := ansi.Strip(d.view(100, 40)); strings.Contains(v, title) {
				t.Errorf("? again did not go back:\n%s", v)
			}
		})
	}
}

// keyPress is the key message for one printable key.
func keyPress(s string) tea.KeyPressMsg {
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// testApprovalRequest is a local function's approval request.
func testApprovalRequest() tools.ApprovalRequest {
	return tools.ApprovalRequest{
		Call:    tools.Call{CallID: "call_1", Name: "run_tests", Arguments: `{"package":"./ui/...","verbose":true}`},
		Tool:    "run_tests",
		Kind:    tools.KindFunction,
		Policy:  tools.ApproveAlways,
		Command: []string{"go", "test", "./ui/..."},
	}
}

// TestHelpScrollsWhenTaller: on a small terminal the "?" overlay scrolls,
// so every command can be reached, and says how.
func TestHelpScrollsWhenTaller(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(keyPress("?"))
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "scroll") {
		t.Fatalf("no scroll hint at 80x24:\n%s", v)
	}
	if n := strings.Count(v, "\n") + 1; n != 24 {
		t.Errorf("view has %d lines", n)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	v = ansi.Strip(m.View().Content)
	last := Commands()[len(Commands())-1]
	if !strings.Contains(v, "/"+last.Name) {
		t.Errorf("end does not reach /%s:\n%s", last.Name, v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.keyState.showHelp {
		t.Error("esc did not close the help")
	}
}

// TestHelpListsTheSlashMenuKeys: the "?" overlay lists the slash menu's
// key map, and those keys are the ones the menu matches.
func TestHelpListsTheSlashMenuKeys(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	v := ansi.Strip(HelpView(100, m.frame.styles, DefaultKeyMap()))
	keys := DefaultCompletionKeys()
	if !strings.Contains(v, "↑↓ ctrl+p/n") || keys.List.Up.Help().Key != "↑/ctrl+p" || keys.List.Down.Help().Key != "↓/ctrl+n" {
		t.Errorf("help lacks the menu's moves:\n%s", v)
	}
	for _, b := range []key.Binding{keys.Complete, keys.Run} {
		if !regexp.MustCompile(regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc)).MatchString(v) {
			t.Errorf("help lacks %q (%s):\n%s", b.Help().Key, b.Help().Desc, v)
		}
	}
	if !strings.Contains(v, "Slash menu") {
		t.Errorf("help lacks the slash menu:\n%s", v)
	}
	c := typeText(newTestComposer(), "/")
	for _, b := range keys.List.Bindings() {
		for _, k := range b.Keys() {
			c2, _ := c.Update(dlgKey(k))
			if moved := c2.menu.sel.Sel() != c.menu.sel.Sel(); moved != (b.Enabled() && b.Help().Desc == "next command") {
				t.Errorf("%s moved the menu: %v", k, moved)
			}
		}
	}
}
