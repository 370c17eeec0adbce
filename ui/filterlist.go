package ui

// This file is what the filtered pickers (/model, /provider) share: the
// filter field, the cursor, the "?" view and the keys, and how a key or a
// paste moves them.

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// filterList is what the filtered pickers share: the filter field, the
// cursor over the picker's rows, the "?" view and the keys.
type filterList struct {
	filter textinput.Model
	cur    listCursor
	keys   FilterPickerKeys
	help   bool
}

// update handles a key or a paste: "?" and its view, esc, enter (pick
// returns what enter sends, nil when no row is selected), the list moves,
// and edits of the filter, after which refilter runs.
func (f *filterList) update(msg tea.Msg, pick func() tea.Msg, refilter func()) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if f.help {
			f.help = helpToggle(msg, f.keys.Help)
			return nil
		}
		switch {
		case key.Matches(msg, f.keys.Close):
			return msgCmd(DialogClosedMsg{})
		case key.Matches(msg, f.keys.Pick):
			if m := pick(); m != nil {
				return msgCmd(m)
			}
			return nil
		case key.Matches(msg, f.keys.Help) && (f.filter.Value() == "" || msg.String() == "f1"):
			f.help = true
			return nil
		case f.keys.List.Move(msg, &f.cur):
			return nil
		}
		return editFilter(&f.filter, msg, refilter)
	case tea.PasteMsg:
		if f.help {
			return nil
		}
		return editFilter(&f.filter, cleanPaste(msg), refilter)
	}
	return nil
}
