package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/prompts"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/vi"
)

// SubmitMsg is a prompt the user sent with enter, with the files attached
// to it (checked, not read yet).
type SubmitMsg struct {
	Text  string
	Files []*attach.File
	// Prompt is the override of a prompt file's /NAME (promptcmds.go):
	// the turn's instructions, model, effort and tools; nil for a message.
	Prompt *session.Override
}

// SlashMsg is a valid slash command the user sent: Name without the slash,
// Args trimmed.
type SlashMsg struct{ Name, Args string }

// Composer limits.
const (
	composerMaxLines = 8   // the composer grows to this many rows, then scrolls
	menuMaxItems     = 6   // slash menu rows shown at once
	historyMax       = 500 // prompts kept for up/down recall
	placeholder      = "Ask anything"
	composerPrompt   = "› " // before the first row; later rows are indented to match
)

// Composer is the multi-line input at the bottom of the chat: enter sends,
// ctrl+j (or shift+enter, alt+enter) breaks the line, up/down recall earlier
// prompts, and text starting with "/" opens a menu of slash commands.
//
// Invariants:
//   - 0 ≤ recall ≤ len(history); recall == len(history) means not recalling.
//   - menu holds the commands matching the text's first word while the text
//     is a single line starting with "/"; sel is a listCursor over it (the
//     dialogs' cursor: it stops at the ends), so 0 ≤ sel.Sel() < len(menu)
//     when it is non-empty.
//   - the textarea never sees enter, tab, ctrl+e, or up/down while the menu
//     is open or a recall step applies: the composer handles those itself.
//   - vi is nil unless the key map is the vi preset; in its normal mode the
//     textarea sees no key (composervi.go).
type Composer struct {
	ta       textarea.Model
	keys     KeyMap
	styles   *theme.Styles
	history  []string       // what up/down recall, oldest first: past then own, each text once (prompthistory.go)
	own      []string       // prompts and commands sent from this composer, oldest first
	past     []string       // prompts sent before this process, newest first (SetPast)
	recall   int            // history index being shown
	menu     []Command      // slash completions for the current text
	sel      listCursor     // the selected menu row
	menuKeys CompletionKeys // the menu's keys (dialogkeys.go)
	empty    *emptyView     // View of the empty composer, shared by copies
	pastes   pastes         // large pastes shown as chips in the text (paste.go)
	att      chips          // files attached to the next message (attachments.go)
	// argChoices are the values a command's argument completes to (SetArgChoices)
	argChoices map[string][]string
	// prompts are the prompt files offered as /NAME after the built-in
	// commands, none of them named as one (SetPrompts, promptcmds.go);
	// waiting are the project's not allowed yet
	prompts []prompts.Prompt
	waiting []prompts.Prompt
	// vi is the vi preset's modes (composervi.go); nil: off
	vi *vi.Editor
	// mcp are the MCP servers' prompts and resources (mcpextras.go)
	mcp mcpSources
	// expanded is the last prompt file's /NAME sent: what was typed, and
	// the text it expanded to (putBack gives the typed form back)
	expanded expansion
}

// emptyView caches what the empty composer draws (the prompt and the
// placeholder): the textarea draws it afresh each time, and the composer is
// empty on almost every frame of a streaming answer. With no text the view
// depends only on the key's fields (the cursor does not blink).
type emptyView struct {
	key emptyKey
	out string
}

type emptyKey struct {
	width, height int
	focused       bool
	styles        *theme.Styles
}

// NewComposer returns a focused, empty composer.
func NewComposer(st *theme.Styles) Composer {
	ta := textarea.New()
	ta.Placeholder = placeholder
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = composerMaxLines
	ta.MaxContentHeight = 100_000 // visual rows; the default would stop input at MaxHeight lines
	ta.SetPromptFunc(ansi.StringWidth(composerPrompt), func(p textarea.PromptInfo) string {
		if p.LineNumber == 0 {
			return composerPrompt
		}
		return strings.Repeat(" ", ansi.StringWidth(composerPrompt))
	})
	c := Composer{ta: ta, keys: DefaultKeyMap(), menuKeys: DefaultCompletionKeys(), empty: &emptyView{},
		argChoices: map[string][]string{ // the fixed ones; /model's come with the model list
			"effort": efforts,
			"theme":  {"dark", "light", "auto"},
			"export": {"markdown", "json", "html"},
		}}
	c.applyKeys()
	c.SetStyles(st)
	c.ta.Focus()
	return c
}

// applyKeys gives the textarea our newline keys and takes away the keys the
// composer handles itself (enter sends; ctrl+e opens the editor).
func (c *Composer) applyKeys() {
	km := textarea.DefaultKeyMap()
	km.InsertNewline = c.keys.Newline
	km.LineEnd = key.NewBinding(key.WithKeys("end"))
	c.ta.KeyMap = km
}

// SetStyles applies the theme; nil is plain.
func (c *Composer) SetStyles(st *theme.Styles) {
	c.styles = st
	sh := theme.ShellOf(st)
	s := textarea.Styles{Cursor: textarea.CursorStyle{Color: sh.Cursor.GetForeground(), Shape: tea.CursorBlock}}
	s.Focused.Prompt = sh.Prompt
	s.Focused.Placeholder = sh.Muted
	s.Blurred.Prompt = sh.Muted
	s.Blurred.Placeholder = sh.Muted
	s.Blurred.Text = sh.Muted
	c.ta.SetStyles(s)
}

// SetWidth sets the composer's width in cells.
func (c *Composer) SetWidth(w int) { c.ta.SetWidth(max(w, 4)) }

// Value is the text being composed, as shown (a large paste is its chip).
func (c Composer) Value() string { return c.ta.Value() }

// Text is the text being composed with every paste chip replaced by what
// was pasted: what enter sends.
func (c Composer) Text() string { return c.pastes.expand(c.ta.Value()) }

// SetValue replaces the text and puts the cursor at its end.
func (c *Composer) SetValue(s string) {
	c.pastes = nil
	c.ta.SetValue(s)
	c.updateMenu()
}

// Reset clears the text and leaves history recall.
func (c *Composer) Reset() {
	c.pastes = nil
	c.ta.Reset()
	c.recall = len(c.history)
	c.updateMenu()
}

// Clear empties the composer into its history (esc): up, and the history
// search, bring the text back whole, a paste chip's text included, so a
// draft is never lost. It reports whether there was text to keep.
func (c *Composer) Clear() bool {
	text := c.Text()
	kept := strings.TrimSpace(text) != ""
	if kept {
		c.remember(text)
	}
	c.Reset()
	return kept
}

// Height is the number of rows View takes: the text rows plus the menu.
func (c Composer) Height() int {
	return c.ta.Height() + c.menuRows() + c.pasteRows() + c.chipsRows()
}

// Update handles keys, pastes and editor results.
func (c Composer) Update(msg tea.Msg) (Composer, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if done, cmd := c.key(msg); done {
			return c, cmd
		}
	case setValueMsg:
		c.SetValue(msg.text)
		return c, nil
	case setPastMsg:
		c.SetPast(msg.past)
		return c, nil
	case argChoicesMsg:
		c.SetArgChoices(msg.name, msg.values)
		return c, nil
	case promptsAllowedMsg:
		return c, c.promptsAllowed(msg)
	case EditorDoneMsg:
		if msg.Err != nil {
			return c, notify(true, msg.Err.Error())
		}
		c.SetValue(cleanInput(msg.Text))
		return c, nil
	case tea.PasteMsg:
		took, note := c.pastedFile(msg.Content)
		if took {
			return c, note
		}
		cmd := c.paste(msg)
		c.updateMenu()
		return c, tea.Batch(note, cmd)
	}
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(msg)
	if len(c.pastes) > 0 {
		c.pastes.prune(c.ta.Value())
	}
	c.updateMenu()
	return c, cmd
}

// cleanInput makes pasted or edited text plain: CRLF and CR line ends (tmux
// and many terminals send CR between a paste's lines) become "\n", and escape
// sequences are removed whole (the textarea alone would keep their printable
// tails, like "[31m").
func cleanInput(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return stream.Sanitize(s)
}

// key handles the keys the composer owns; done is false for keys the
// textarea should get.
func (c *Composer) key(k tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	if done, cmd := c.viKey(k); done {
		return true, cmd
	}
	if done, cmd := c.attachKey(k); done {
		return true, cmd
	}
	switch {
	case len(c.menu) > 1 && c.menuKeys.List.Move(k, &c.sel):
		return true, nil
	case len(c.menu) > 0 && key.Matches(k, c.menuKeys.Complete):
		c.complete()
		return true, nil
	case len(c.menu) > 0 && key.Matches(k, c.menuKeys.Run), key.Matches(k, c.keys.Send):
		return true, c.send()
	case key.Matches(k, c.keys.Complete):
		return true, c.completeMention() // a tab is never text
	case key.Matches(k, c.keys.Editor):
		c.expandPastes() // the editor gets the whole text
		return true, OpenEditor(c.Value())
	case key.Matches(k, c.keys.ExpandPaste):
		c.expandPastes()
		c.updateMenu()
		return true, nil
	case k.Code == tea.KeyBackspace && k.Mod == 0:
		if c.removeChip() {
			c.updateMenu()
			return true, nil
		}
	case key.Matches(k, c.keys.Prev):
		switch {
		case c.recall > 0 && (c.Value() == "" || c.recalling() && c.ta.Line() == 0):
			c.show(c.recall - 1)
			return true, nil
		}
	case key.Matches(k, c.keys.Next):
		switch {
		case c.recalling() && c.ta.Line() == c.ta.LineCount()-1:
			c.show(c.recall + 1)
			return true, nil
		}
	}
	return c.viNormal(), nil // in vi's normal mode no key types text
}

// send handles enter. With the slash menu open, the selected command runs
// if it needs no arguments and is completed (with a space) if it does;
// otherwise text shaped like a command is validated and sent as a SlashMsg,
// and anything else is a prompt.
func (c *Composer) send() tea.Cmd {
	text := c.Value()
	if strings.TrimSpace(text) == "" && len(c.att.files) == 0 {
		return nil
	}
	if len(c.pastes) > 0 {
		text = c.Text() // a chip is never a command: send it whole
		c.remember(text)
		c.Reset()
		return func() tea.Msg { return SubmitMsg{Text: text} }
	}
	if len(c.menu) > 0 {
		cmd := c.menu[c.sel.Sel()]
		if cmd.arg != "" {
			return c.run(cmd.Name, cmd.arg)
		}
		if cmd.Validate("") != nil {
			c.complete()
			return nil
		}
		return c.run(cmd.Name, "")
	}
	if name, args, ok := Parse(text); ok {
		if _, isPrompt := c.prompt(name); !isPrompt {
			if err := c.validate(name, args); err != nil {
				if line, waits := c.notAllowed(name); waits {
					return notify(true, line)
				}
				return notify(true, err.Error())
			}
		}
		return c.run(name, args)
	}
	files, err := c.takeFiles(text)
	if err != nil {
		return notify(true, err.Error())
	}
	if strings.TrimSpace(text) != "" {
		c.remember(text)
	}
	c.Reset()
	return func() tea.Msg { return SubmitMsg{Text: text, Files: files} }
}

// run sends a validated command and clears the composer.
func (c *Composer) run(name, args string) tea.Cmd {
	if p, ok := c.prompt(name); ok {
		return c.usePrompt(p, args)
	}
	c.remember(strings.TrimSpace("/" + name + " " + args))
	c.Reset()
	return func() tea.Msg { return SlashMsg{Name: name, Args: args} }
}

// complete replaces the typed command name with the selected one, adding a
// space when it takes arguments.
func (c *Composer) complete() {
	cmd := c.menu[c.sel.Sel()]
	text := "/" + cmd.Name
	if cmd.arg != "" {
		text += " " + cmd.arg
	} else if cmd.check != nil {
		text += " "
	}
	c.ta.SetValue(text)
	c.updateMenu()
}

// remember adds a sent text to the history as its newest entry.
func (c *Composer) remember(text string) {
	if n := len(c.own); n == 0 || c.own[n-1] != text {
		c.own = append(c.own, text)
		if len(c.own) > historyMax {
			c.own = append(c.own[:0:0], c.own[len(c.own)-historyMax:]...)
		}
	}
	c.rebuildHistory()
	c.recall = len(c.history)
}

func (c Composer) recalling() bool { return c.recall < len(c.history) }

// show puts history entry i in the composer; i == len(history) clears it.
func (c *Composer) show(i int) {
	c.recall = i
	if i >= len(c.history) {
		c.ta.Reset()
	} else {
		c.ta.SetValue(c.history[i])
	}
	c.updateMenu()
}

// updateMenu recomputes the slash completions for the current text: the menu
// shows while the text is a single word starting with "/" that some command
// name starts with.
func (c *Composer) updateMenu() {
	prev := ""
	if len(c.menu) > 0 {
		prev = c.menu[c.sel.Sel()].Name
	}
	c.menu = nil
	c.sel = newListCursor(0)
	c.sel.SetPage(menuMaxItems)
	text := c.Value()
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return
	}
	if strings.ContainsAny(text, " \t") {
		c.menu = c.argMenu(text) // arguments are being typed: complete them, if the command has choices
		return
	}
	word := text
	if _, _, ok := Parse(text); !ok && word != "/" {
		return
	}
	c.menu = append(append(Complete(word), c.promptMenu(word)...), c.mcpMenu(word)...)
	c.sel.Reset(len(c.menu))
	for i, m := range c.menu {
		if m.Name == prev {
			c.sel.Move(i)
		}
	}
}

// menuRows is how many rows the slash menu takes.
func (c Composer) menuRows() int { return min(len(c.menu), menuMaxItems) }

// View is the slash menu (if open) above the text rows.
func (c Composer) View() string {
	if len(c.att.files) > 0 {
		return c.chipsView() + "\n" + c.composerView()
	}
	return c.composerView()
}

// composerView is the slash menu (if open) above the text rows.
func (c Composer) composerView() string {
	if len(c.menu) == 0 {
		if c.pasteRows() > 0 {
			return c.pasteHint() + "\n" + c.ta.View()
		}
		if c.ta.Value() != "" || c.empty == nil {
			return c.ta.View()
		}
		k := emptyKey{c.ta.Width(), c.ta.Height(), c.ta.Focused(), c.styles}
		if c.empty.key != k || c.empty.out == "" {
			c.empty.key, c.empty.out = k, c.ta.View()
		}
		return c.empty.out
	}
	return c.menuView() + "\n" + c.ta.View()
}

// pasteRows is how many rows the paste hint takes: one while a chip shows
// (and no menu does).
func (c Composer) pasteRows() int {
	if len(c.pastes) > 0 && len(c.menu) == 0 {
		return 1
	}
	return 0
}

// pasteHint is the line above the text while a chip shows: what the chip is
// and which keys act on it.
func (c Composer) pasteHint() string {
	n := 0
	for _, text := range c.pastes {
		n += pasteLines(text)
	}
	line := fmt.Sprintf("  %s pasted (%d lines, sent whole) · ctrl+x expands · backspace after a chip removes it",
		plural(len(c.pastes), "chip"), n)
	width := c.ta.Width() + ansi.StringWidth(composerPrompt)
	return theme.ShellOf(c.styles).Muted.Render(ansi.Truncate(line, width, "…"))
}

// menuView draws the visible window of the slash menu, keeping the selected
// row in view; each row is cut to the composer's width.
func (c Composer) menuView() string {
	width := c.ta.Width() + ansi.StringWidth(composerPrompt)
	rows := c.menuRows()
	first := c.sel.Window(rows)
	usageW := 0
	for _, m := range c.menu {
		usageW = max(usageW, ansi.StringWidth(m.Usage()))
	}
	sh := theme.ShellOf(c.styles)
	var b strings.Builder
	for i := first; i < first+rows; i++ {
		m := c.menu[i]
		u := m.Usage()
		line := "  " + u + strings.Repeat(" ", usageW-ansi.StringWidth(u)) + "  " + m.Desc
		line = ansi.Truncate(line, width, "…")
		if i > first {
			b.WriteByte('\n')
		}
		if i == c.sel.Sel() {
			b.WriteString(sh.Selection.Render(line))
		} else {
			b.WriteString(sh.Muted.Render(line))
		}
	}
	return b.String()
}

// putBack returns a message that was not sent to the composer, unless the
// user has started another.
func (c *Composer) putBack(text string, files []*attach.File) {
	if p := c.expanded; p.text != "" && p.text == text {
		// a prompt file's /NAME comes back as typed: sent again, it is
		// expanded again, with the prompt's settings and its files
		c.expanded = expansion{}
		if c.Value() == "" {
			c.SetValue(p.typed)
		}
		return
	}
	if c.Value() == "" {
		c.SetValue(text)
	}
	if len(c.Attachments()) == 0 {
		c.SetAttachments(files)
	}
}
