package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// What only the tests use: queries on the chat's parts.

// Commands returns the registry in menu order.
func Commands() []Command {
	return append([]Command(nil), slashCommands...)
}

// Bindings lists the menu's keys, for help.
func (k CompletionKeys) Bindings() []key.Binding {
	return append(k.List.Bindings(), k.Complete, k.Run)
}

// Focus gives the composer the keyboard.
func (c *Composer) Focus() tea.Cmd { return c.ta.Focus() }

// Blur takes the keyboard away (while a dialog has it).
func (c *Composer) Blur() { c.ta.Blur() }

// History returns the sent prompts, oldest first.
func (c Composer) History() []string { return append([]string(nil), c.hist.history...) }

// HasPastes reports whether the composer shows a paste chip.
func (c Composer) HasPastes() bool { return len(c.pastes) > 0 }

// Selected is the selected panel's index.
func (l PanelList) Selected() int { return l.cur.Sel() }

// Filter is the filter's text.
func (p Picker) Filter() string { return p.filter.Value() }

// Len is the number of sessions listed (not deleted), matching or not.
func (p Picker) Len() int { return len(p.all) }

// Selected is the index of the selected hit.
func (r SearchResults) Selected() int { return r.cur.Sel() }

// Following reports whether the view is pinned to the end.
func (t Transcript) Following() bool { return t.follow }

// Unseen is the number of lines added below the view since the user
// scrolled up; 0 while following.
func (t Transcript) Unseen() int { return t.unseen }
