package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// KeyMap is every binding of the chat. The root matches the global ones
// (quit, interrupt, copy, toggles, approvals); the composer and transcript
// match their own. Help text is written for the "?" overlay.
type KeyMap struct {
	// Composer.
	Send     key.Binding // enter
	Newline  key.Binding // shift+enter, alt+enter, ctrl+j
	Complete key.Binding // tab: complete a slash command
	Prev     key.Binding // up: earlier prompt (empty composer or first line)
	Next     key.Binding // down: later prompt
	Editor   key.Binding // ctrl+e: edit in $EDITOR
	// ExpandPaste is ctrl+x: a large paste's chip becomes its text.
	ExpandPaste key.Binding
	// HistorySearch is ctrl+g: search the prompts of every session.
	HistorySearch key.Binding
	Unattach      key.Binding // backspace in an empty composer: remove the last attachment chip
	// Continue and Retry act after a dropped stream, while its notices are
	// the last thing shown and the composer is empty: enter sends
	// "continue" (the partial answer carried), ctrl+t asks again (/retry).
	Continue key.Binding
	Retry    key.Binding

	// Transcript.
	PageUp   key.Binding
	PageDown key.Binding
	LineUp   key.Binding // up, when the root routes it to the transcript
	LineDown key.Binding
	Top      key.Binding // home
	Bottom   key.Binding // end: back to the bottom, following

	// Turn and session.
	Interrupt       key.Binding // esc: stop the turn, or clear the composer
	Quit            key.Binding // ctrl+c, twice when idle
	CopyLast        key.Binding // ctrl+y
	ToggleReasoning key.Binding // ctrl+r
	AllReasoning    key.Binding // alt+r: every reasoning block at once
	ExpandTool      key.Binding // ctrl+o: the last panel (the asked one during an approval)
	Panels          key.Binding // alt+o: the list of panels, to open any of them
	Sessions        key.Binding // ctrl+s: the session picker
	Branch          key.Binding // ctrl+left / ctrl+right on an empty composer: the previous / next branch (branch.go)
	// Approve, ApproveSession and Deny answer a pending approval (a or y,
	// s, d or n): the approval dialog's choices (ApprovalKeys), with the
	// same words. With no dialog open, one of them opens the dialog on the
	// first pending request and answers it.
	Approve        key.Binding
	ApproveSession key.Binding
	Deny           key.Binding
	Help           key.Binding // ?
	Mouse          key.Binding // f2: hand the mouse to the terminal (native selection) and take it back
}

// DefaultKeyMap returns runnel's bindings.
func DefaultKeyMap() KeyMap {
	ask := DefaultApprovalKeys()
	return KeyMap{
		Send:          key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:       key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("ctrl+j", "newline (or shift/alt+enter)")),
		Complete:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete /command or @path")),
		Prev:          key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "earlier prompt")),
		Next:          key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "later prompt")),
		Editor:        key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "edit in $EDITOR")),
		HistorySearch: key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "search prompt history")),
		ExpandPaste:   key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "expand a pasted-lines chip")),
		Unattach:      key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫ (empty)", "remove last attachment")),
		Continue:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "continue a dropped answer")),
		Retry:         key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "retry a dropped answer")),

		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up / wheel")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		LineUp:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll a line up")),
		LineDown: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll a line down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom, follow")),

		Interrupt:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop / clear")),
		Quit:            key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c ×2", "quit")),
		CopyLast:        key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy last answer")),
		ToggleReasoning: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "reasoning on/off")),
		AllReasoning:    key.NewBinding(key.WithKeys("alt+r"), key.WithHelp("alt+r", "all reasoning")),
		ExpandTool:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open last panel")),
		Panels:          key.NewBinding(key.WithKeys("alt+o"), key.WithHelp("alt+o", "open any panel")),
		Sessions:        key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "sessions")),
		Branch:          key.NewBinding(key.WithKeys("ctrl+left", "ctrl+right"), key.WithHelp("ctrl+←/→", "other branch")),
		Approve:         ask.Approve,
		ApproveSession:  ask.Session,
		Deny:            ask.Deny,
		Help:            key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")),
		Mouse:           key.NewBinding(key.WithKeys("f2"), key.WithHelp("f2", "mouse off/on (terminal selects)")),
	}
}

// ShortHelp is the bindings for bubbles help's one-line view.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Newline, k.Interrupt, k.Help}
}

// FullHelp is the bindings for bubbles help's full view, one group per
// column: composing, reading, turn control.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.Complete, k.Prev, k.Next, k.Editor, k.ExpandPaste, k.HistorySearch, k.Unattach, k.Continue, k.Retry},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.ToggleReasoning, k.AllReasoning, k.ExpandTool, k.Panels},
		{k.Interrupt, k.CopyLast, k.Sessions, k.Branch, k.Help, k.Quit},
		dialogBindings(),
		{k.Approve, k.ApproveSession, k.Deny},
	}
}

// helpGroupTitles name FullHelp's groups in the overlay.
var helpGroupTitles = []string{"Compose", "Read", "Control", "In dialogs", "Approvals"}

// helpStacked is the index of the first FullHelp group the overlay stacks
// under the one before it (the approvals under the dialogs' keys, then
// mouseHelp), in the room the slash commands' taller block leaves.
const helpStacked = 4

// mouseHelp says in "?" how to select text: runnel takes the mouse for the
// wheel, which keeps a plain drag from selecting in most terminals; a
// modifier key hands the drag back to the terminal. Wrapped to stay as
// narrow as the dialogs' keys above it.
var mouseHelp = []string{
	"The wheel scrolls; a drag",
	"copies the source. For the",
	"terminal's own selection,",
	"press f2, or drag with shift",
	"held (option or alt in some",
	"terminals).",
}

// dialogBindings sums up the dialogs' keys for the main "?" overlay; each
// dialog's own "?" lists its keys in full.
func dialogBindings() []key.Binding {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	return []key.Binding{
		b("↑↓ jk", "move"),
		b("pgup pgdn", "page"),
		b("home end", "first, last"),
		b("enter", "open / apply"),
		b("space", "toggle"),
		b("del", "delete session"),
		b("?", "the dialog's keys"),
		b("esc", "close / deny"),
	}
}

// cutLines truncates every line of s to width cells.
func cutLines(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, max(width, 0), "…")
		}
	}
	return strings.Join(lines, "\n")
}
