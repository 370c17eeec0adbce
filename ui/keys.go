package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/keymap"
)

// KeyMap is every binding of the chat. The root matches the global ones
// (quit, interrupt, copy, toggles, approvals); the composer and transcript
// match their own. Help text is written for the "?" overlay.
type KeyMap struct {
	// Composer.
	Send     key.Binding // enter (while a turn runs: queue the message, queue.go)
	SendNow  key.Binding // ctrl+enter: stop the reply and send at once
	Newline  key.Binding // shift+enter, alt+enter, ctrl+j
	Complete key.Binding // tab: complete a slash command
	Prev     key.Binding // up: earlier prompt (empty composer or first line)
	Next     key.Binding // down: later prompt
	Editor   key.Binding // ctrl+e: edit in $EDITOR
	// ExpandPaste is ctrl+x: a large paste's chip becomes its text.
	ExpandPaste key.Binding
	// Paste is ctrl+v: the clipboard's image as a chip, else its text
	// (composerclip.go).
	Paste key.Binding
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

	// Navigate enters the transcript's navigation mode (ctrl+k in the vi
	// preset; unbound by default), whose keys are Nav.
	Navigate key.Binding
	Nav      NavKeys
	// Vi is the vi preset: the composer has normal and insert modes.
	Vi bool
}

// NavKeys are the transcript navigation mode's keys (navmode.go). gg, ]]
// and [[ are sequences, not bindings: "?" lists them with these.
type NavKeys struct {
	Down, Up, HalfDown, HalfUp, Bottom key.Binding
	Search, Next, Prev                 key.Binding
	Copy, Toggle, Edit, Exit           key.Binding
}

// DefaultKeyMap returns runnel's bindings: the default preset.
func DefaultKeyMap() KeyMap { return NewKeyMap(keymap.Keymap{}) }

// keyHelp is each action's line in "?": the keys as the default preset
// shows them, and what the action does. A rebound action shows its keys.
var keyHelp = map[string][2]string{
	"send":             {"enter", "send"},
	"send_now":         {"ctrl+enter", "stop, send now"},
	"newline":          {"ctrl+j", "newline (or shift/alt+enter)"},
	"complete":         {"tab", "complete /command or @path"},
	"prev":             {"↑", "earlier prompt"},
	"next":             {"↓", "later prompt"},
	"editor":           {"ctrl+e", "edit in $EDITOR"},
	"history_search":   {"ctrl+g", "search prompt history"},
	"expand_paste":     {"ctrl+x", "expand a pasted-lines chip"},
	"paste":            {"ctrl+v", "paste (or image)"},
	"unattach":         {"⌫ (empty)", "remove last attachment"},
	"continue":         {"enter", "continue a dropped answer"},
	"retry":            {"ctrl+t", "retry a dropped answer"},
	"page_up":          {"pgup", "page up / wheel"},
	"page_down":        {"pgdn", "page down"},
	"line_up":          {"↑", "scroll a line up"},
	"line_down":        {"↓", "scroll a line down"},
	"top":              {"home", "top"},
	"bottom":           {"end", "bottom, follow"},
	"interrupt":        {"esc", "stop / clear"},
	"quit":             {"ctrl+c ×2", "quit"},
	"copy_last":        {"ctrl+y", "copy last answer"},
	"toggle_reasoning": {"ctrl+r", "reasoning on/off"},
	"all_reasoning":    {"alt+r", "all reasoning"},
	"expand_tool":      {"ctrl+o", "open last panel"},
	"panels":           {"alt+o", "open any panel"},
	"sessions":         {"ctrl+s", "sessions"},
	"help":             {"?", "keys"},
	"branch":           {"ctrl+←/→", "other branch"},
	"mouse":            {"f2", "mouse off/on (terminal selects)"},
	"navigate":         {"", "navigate the transcript"},
	"nav_down":         {"j/↓", "next block"},
	"nav_up":           {"k/↑", "previous block"},
	"nav_half_down":    {"ctrl+d", "half a page down"},
	"nav_half_up":      {"ctrl+u", "half a page up"},
	"nav_bottom":       {"G/end", "last block"},
	"nav_search":       {"/", "search the transcript"},
	"nav_next_match":   {"n", "next match"},
	"nav_prev_match":   {"N", "previous match"},
	"nav_copy":         {"y", "copy the block"},
	"nav_toggle":       {"o", "open/close the panel"},
	"nav_edit":         {"e", "edit this turn's prompt (a branch)"},
	"nav_exit":         {"i/esc", "back to the composer"},
}

// NewKeyMap builds the bindings of keymap km (session/config's keymap: the
// preset and the config file's [keys]); the zero Keymap is the default
// preset. The approval choices are the approval dialog's vocabulary
// (ApprovalKeys), as the dialogs' keys are not in the keymap.
func NewKeyMap(km keymap.Keymap) KeyMap {
	if km.Keys == nil {
		km = keymap.Default("default")
	}
	def := keymap.Default("default")
	bind := func(name string) key.Binding {
		keys, h := km.Keys[name], keyHelp[name]
		label := h[0]
		if !slices.Equal(keys, def.Keys[name]) || label == "" {
			label = strings.Join(keys, "/")
		}
		b := key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, h[1]))
		b.SetEnabled(len(keys) > 0)
		return b
	}
	ask := DefaultApprovalKeys()
	k := KeyMap{
		Send:          bind("send"),
		SendNow:       bind("send_now"),
		Newline:       bind("newline"),
		Complete:      bind("complete"),
		Prev:          bind("prev"),
		Next:          bind("next"),
		Editor:        bind("editor"),
		HistorySearch: bind("history_search"),
		ExpandPaste:   bind("expand_paste"),
		Paste:         bind("paste"),
		Unattach:      bind("unattach"),
		Continue:      bind("continue"),
		Retry:         bind("retry"),

		PageUp:   bind("page_up"),
		PageDown: bind("page_down"),
		LineUp:   bind("line_up"),
		LineDown: bind("line_down"),
		Top:      bind("top"),
		Bottom:   bind("bottom"),

		Interrupt:       bind("interrupt"),
		Quit:            bind("quit"),
		CopyLast:        bind("copy_last"),
		ToggleReasoning: bind("toggle_reasoning"),
		AllReasoning:    bind("all_reasoning"),
		ExpandTool:      bind("expand_tool"),
		Panels:          bind("panels"),
		Sessions:        bind("sessions"),
		Approve:         ask.Approve,
		ApproveSession:  ask.Session,
		Deny:            ask.Deny,
		Help:            bind("help"),
		Branch:          bind("branch"),
		Mouse:           bind("mouse"),

		Navigate: bind("navigate"),
		Vi:       km.Vi(),
	}
	k.Nav = NavKeys{
		Down: bind("nav_down"), Up: bind("nav_up"), HalfDown: bind("nav_half_down"), HalfUp: bind("nav_half_up"),
		Bottom: bind("nav_bottom"), Search: bind("nav_search"), Next: bind("nav_next_match"), Prev: bind("nav_prev_match"),
		Copy: bind("nav_copy"), Toggle: bind("nav_toggle"), Edit: bind("nav_edit"), Exit: bind("nav_exit"),
	}
	return k
}

// ShortHelp is the bindings for bubbles help's one-line view.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Newline, k.Interrupt, k.Help}
}

// FullHelp is the bindings for bubbles help's full view, one group per
// column: composing, reading, turn control.
func (k KeyMap) FullHelp() [][]key.Binding {
	groups := [][]key.Binding{
		{k.Send, k.Newline, k.Complete, k.Prev, k.Next, k.Editor, k.ExpandPaste, k.HistorySearch, k.Unattach, k.Continue, k.Retry},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.ToggleReasoning, k.AllReasoning, k.ExpandTool, k.Panels},
		{k.Interrupt, k.SendNow, k.CopyLast, k.Paste, k.Sessions, k.Branch, k.Navigate, k.Help, k.Quit},
		dialogBindings(),
		{k.Approve, k.ApproveSession, k.Deny},
	}
	if k.Vi {
		groups = append(groups, viBindings())
	}
	if k.Navigate.Enabled() {
		n := k.Nav
		groups = append(groups, []key.Binding{n.Down, n.Up, helpLine("gg", "first block"), n.Bottom, n.HalfDown, n.HalfUp,
			helpLine("]] [[", "next / previous turn"), n.Search, n.Next, n.Prev, n.Copy, n.Toggle, n.Edit, n.Exit})
	}
	return groups
}

// helpGroupTitles name FullHelp's groups in the overlay.
var helpGroupTitles = []string{"Compose", "Read", "Control", "In dialogs", "Approvals", "Vi composer", "Navigate (transcript)"}

// helpLine is a line of "?" for keys matched outside a binding (vi's
// fixed keys, key sequences).
func helpLine(keys, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
}

// viBindings are the vi preset's composer keys (ui/vi), for "?".
func viBindings() []key.Binding {
	return []key.Binding{
		helpLine("esc", "normal mode"),
		helpLine("i a I A o O", "insert mode"),
		helpLine("h j k l", "move"),
		helpLine("w b e", "next, previous word; word end"),
		helpLine("0 $", "line start, end"),
		helpLine("x dd dw cw", "delete; change word"),
		helpLine("yy p P", "yank line; paste"),
		helpLine("u", "undo"),
		helpLine("enter", "send (normal mode)"),
	}
}

// helpStacked is the index of the FullHelp group the overlay stacks under
// the one before it (the approvals under the dialogs' keys, then
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
