package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// This file holds the dialogs' key maps. Every dialog matches its keys with
// key.Matches against a KeyMap-style struct, and "?" shows that struct's
// FullHelp in place of the dialog (dialogHelpView), so the keys listed are
// the keys matched.

// ListKeys move a dialog's cursor (listCursor).
type ListKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// defaultListKeys are the list moves; letters adds j and k, for dialogs
// without a text field (the picker's filter takes every letter).
func defaultListKeys(letters bool) ListKeys {
	up, down := []string{"up", "ctrl+p"}, []string{"down", "ctrl+n"}
	if letters {
		up, down = append(up, "k"), append(down, "j")
	}
	return ListKeys{
		Up:       key.NewBinding(key.WithKeys(up...), key.WithHelp("↑/"+strings.Join(up[1:], "/"), "up")),
		Down:     key.NewBinding(key.WithKeys(down...), key.WithHelp("↓/"+strings.Join(down[1:], "/"), "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first")),
		End:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last")),
	}
}

// Move applies k to c when k is a list move, and reports whether it was.
func (l ListKeys) Move(k tea.KeyPressMsg, c *listCursor) bool {
	switch {
	case key.Matches(k, l.Up):
		c.Up()
	case key.Matches(k, l.Down):
		c.Down()
	case key.Matches(k, l.PageUp):
		c.PageUp()
	case key.Matches(k, l.PageDown):
		c.PageDown()
	case key.Matches(k, l.Home):
		c.Home()
	case key.Matches(k, l.End):
		c.End()
	default:
		return false
	}
	return true
}

// Bindings lists the moves, for help.
func (l ListKeys) Bindings() []key.Binding {
	return []key.Binding{l.Up, l.Down, l.PageUp, l.PageDown, l.Home, l.End}
}

// helpKey is "?" in every dialog: it shows the dialog's keys.
func helpKey() key.Binding {
	return key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "these keys"))
}

// closeKey is esc closing a dialog (the root closes it on ctrl+c too).
func closeKey(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", desc))
}

// PickerKeys are the session picker's keys. Plain letters are filter text;
// "?" shows the keys while the filter is empty.
type PickerKeys struct {
	List   ListKeys
	Open   key.Binding // enter
	Delete key.Binding // delete, ctrl+d: asks first
	Yes    key.Binding // y: delete, while asking
	No     key.Binding // n, esc: keep, while asking
	Close  key.Binding // esc
	Help   key.Binding // ?
}

// DefaultPickerKeys returns the picker's bindings.
func DefaultPickerKeys() PickerKeys {
	return PickerKeys{
		List:   defaultListKeys(false),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Delete: key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("del/ctrl+d", "delete (asks y/n)")),
		Yes:    key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes, delete")),
		No:     key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "keep it")),
		Close:  closeKey("close"),
		Help:   key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "these keys (empty filter)")),
	}
}

// FullHelp is the picker's keys for its "?" view.
func (k PickerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Open, k.Delete, k.Yes, k.No, k.Close, k.Help,
		key.NewBinding(key.WithKeys("a"), key.WithHelp("letters", "filter"))}}
}

// SearchKeys are the search results' keys.
type SearchKeys struct {
	List  ListKeys
	Open  key.Binding
	Close key.Binding
	Help  key.Binding
}

// DefaultSearchKeys returns the search results' bindings.
func DefaultSearchKeys() SearchKeys {
	return SearchKeys{
		List:  defaultListKeys(true),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open at that turn")),
		Close: closeKey("close"),
		Help:  helpKey(),
	}
}

// FullHelp is the search results' keys for their "?" view.
func (k SearchKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Open, k.Close, k.Help}}
}

// ToolsKeys are the /tools menu's keys.
type ToolsKeys struct {
	List   ListKeys
	Toggle key.Binding
	Apply  key.Binding
	Cancel key.Binding
	Help   key.Binding
}

// DefaultToolsKeys returns the tools menu's bindings.
func DefaultToolsKeys() ToolsKeys {
	return ToolsKeys{
		List:   defaultListKeys(true),
		Toggle: key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space/x", "toggle")),
		Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel: closeKey("cancel"),
		Help:   helpKey(),
	}
}

// FullHelp is the tools menu's keys for its "?" view.
func (k ToolsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Toggle, k.Apply, k.Cancel, k.Help}}
}

// PanelKeys are the panel list's keys.
type PanelKeys struct {
	List   ListKeys
	Toggle key.Binding
	Close  key.Binding
	Help   key.Binding
}

// DefaultPanelKeys returns the panel list's bindings.
func DefaultPanelKeys() PanelKeys {
	return PanelKeys{
		List:   defaultListKeys(true),
		Toggle: key.NewBinding(key.WithKeys("enter", "space", "ctrl+o"), key.WithHelp("enter/space", "open or close, and show it")),
		Close:  closeKey("close"),
		Help:   helpKey(),
	}
}

// FullHelp is the panel list's keys for its "?" view.
func (k PanelKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Toggle, k.Close, k.Help}}
}

// CompletionKeys are the slash-command menu's keys, matched by the
// composer while the menu is open (with two rows or more for the moves).
// It pages with no key: pgup/pgdn and home/end stay the transcript's.
type CompletionKeys struct {
	List     ListKeys    // up/down, ctrl+p/ctrl+n
	Complete key.Binding // tab (KeyMap.Complete)
	Run      key.Binding // enter (KeyMap.Send)
}

// DefaultCompletionKeys returns the slash menu's bindings.
func DefaultCompletionKeys() CompletionKeys {
	list := defaultListKeys(false)
	for _, b := range []*key.Binding{&list.PageUp, &list.PageDown, &list.Home, &list.End} {
		b.SetEnabled(false)
	}
	list.Up.SetHelp(list.Up.Help().Key, "previous command")
	list.Down.SetHelp(list.Down.Help().Key, "next command")
	root := DefaultKeyMap()
	return CompletionKeys{
		List:     list,
		Complete: key.NewBinding(key.WithKeys(root.Complete.Keys()...), key.WithHelp("tab", "complete the command")),
		Run:      key.NewBinding(key.WithKeys(root.Send.Keys()...), key.WithHelp("enter", "run it, or complete it to add arguments")),
	}
}

// ApprovalKeys are the approval dialog's keys: the approval vocabulary.
// The root's key map and the status line's hint take the choices from
// here (approvalChoices), so the dialog, the hint and "?" name each key
// with the same word. ctrl+c is not among them: the root takes it (deny and
// stop) before the dialog sees it.
type ApprovalKeys struct {
	Approve  key.Binding // a, y: once
	Session  key.Binding // s: for the session
	Deny     key.Binding // d, n: deny, then an optional reason
	Dismiss  key.Binding // esc: deny at once
	Send     key.Binding // enter, while typing the reason
	NoReason key.Binding // esc, while typing the reason
	Help     key.Binding
}

// DefaultApprovalKeys returns the approval dialog's bindings.
func DefaultApprovalKeys() ApprovalKeys {
	return ApprovalKeys{
		Approve:  key.NewBinding(key.WithKeys("a", "A", "y", "Y"), key.WithHelp("a/y", "approve once")),
		Session:  key.NewBinding(key.WithKeys("s", "S"), key.WithHelp("s", "approve for the session")),
		Deny:     key.NewBinding(key.WithKeys("d", "D", "n", "N"), key.WithHelp("d/n", "deny")),
		Dismiss:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "deny without asking why")),
		Send:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "deny with the reason typed")),
		NoReason: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "deny without a reason")),
		Help:     helpKey(),
	}
}

// approvalChoices are the three answers, as every place that offers them
// shows them: the dialog's foot, the status line's hint and "?".
func (k ApprovalKeys) approvalChoices() []key.Binding {
	return []key.Binding{k.Approve, k.Session, k.Deny}
}

// FullHelp is the approval dialog's keys for its "?" view, with the root's
// keys that work while it is open.
func (k ApprovalKeys) FullHelp() [][]key.Binding {
	root := DefaultKeyMap()
	return [][]key.Binding{
		{k.Approve, k.Session, k.Deny, k.Dismiss, k.Send, k.NoReason, k.Help},
		{root.PageUp, root.PageDown, root.Top, root.Bottom,
			key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "deny and stop")),
			key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open/close the asked call's panel")),
			root.ToggleReasoning, root.AllReasoning, root.CopyLast},
	}
}

// dialogHelpView is a dialog's "?" view: its title and every binding of
// groups, one per line, and how to go back.
func dialogHelpView(st *theme.Styles, title string, groups [][]key.Binding, width, height int) string {
	d := theme.DialogOf(st)
	lines := []string{d.Title.Render(title+" keys") + d.Meta.Render(" · ? or esc to go back")}
	keyW := 0
	for _, g := range groups {
		for _, b := range g {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			h := b.Help()
			lines = append(lines, "  "+d.Key.Render(h.Key)+strings.Repeat(" ", keyW-ansi.StringWidth(h.Key))+"  "+d.Desc.Render(h.Desc))
		}
	}
	return fitLines(lines, width, height)
}

// helpToggle handles a key while a dialog's help shows: "?" and esc go
// back; every other key is ignored. It reports whether help stays open.
func helpToggle(k tea.KeyPressMsg, help key.Binding) bool {
	return !(key.Matches(k, help) || k.String() == "esc")
}

// FilterPickerKeys are the keys of a picker with a filter field (/model,
// /provider). Plain letters are filter text; "?" shows the keys while the
// filter is empty.
type FilterPickerKeys struct {
	List   ListKeys
	Pick   key.Binding // enter
	Close  key.Binding // esc
	Help   key.Binding // ?
	letter string      // what typing letters does, for the "?" view
}

// filterPickerKeys returns a filtered picker's bindings: pick says what
// enter does, letters what typing does.
func filterPickerKeys(pick, letters string) FilterPickerKeys {
	return FilterPickerKeys{
		List:   defaultListKeys(false),
		Pick:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", pick)),
		Close:  closeKey("close"),
		Help:   key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "these keys (empty filter)")),
		letter: letters,
	}
}

// FullHelp is the picker's keys for its "?" view.
func (k FilterPickerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Pick, k.Close, k.Help,
		key.NewBinding(key.WithKeys("a"), key.WithHelp("letters", k.letter))}}
}
