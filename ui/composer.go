package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/attach"
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
// The composer keeps the editing; what it completes, the chips it carries
// and what it recalls are parts of its own, each with its state and
// invariants: menu (composermenu.go), mentions (composermention.go), att
// (attachments.go), pastes (paste.go) and hist (prompthistory.go).
//
// Invariants:
//   - menu's rows are those of the current text (updateMenu runs after every
//     change of the text).
//   - the textarea never sees enter, tab, ctrl+e, or up/down while the menu
//     is open or a recall step applies: the composer handles those itself.
//   - vi is nil unless the key map is the vi preset; in its normal mode the
//     textarea sees no key (composervi.go).
type Composer struct {
	ta       textarea.Model
	keys     KeyMap
	styles   *theme.Styles
	empty    *emptyView  // View of the empty composer, shared by copies
	hist     recall      // what up/down recall (prompthistory.go)
	menu     slashMenu   // slash completions (composermenu.go)
	mentions mentionMenu // @ completions (composermention.go)
	pastes   pastes      // large pastes shown as chips in the text (paste.go)
	att      chips       // files attached to the next message (attachments.go)
	flash    flash       // short-lived feedback, drawn in place of the key hint (composerhint.go)
	shell    shellRun    // the !command running (composershell.go)
	hidden   []string    // variables $EDITOR does not see (Options.secretEnv)
	// vi is the vi preset's modes (composervi.go); nil: off
	vi *vi.Editor
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
	c := Composer{ta: ta, keys: DefaultKeyMap(), menu: newSlashMenu(), empty: &emptyView{}}
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
	km.Paste.SetEnabled(false) // the composer's Paste reads images too (composerclip.go)
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
	c.hist.reset()
	c.updateMenu()
}

// Clear empties the composer into its history (esc): up, and the history
// search, bring the text back whole, a paste chip's text included, so a
// draft is never lost. It reports whether there was text to keep.
func (c *Composer) Clear() bool {
	text := c.Text()
	kept := strings.TrimSpace(text) != ""
	if kept {
		c.hist.remember(text)
	}
	c.Reset()
	return kept
}

// Height is the number of rows View takes: the text rows plus the menu,
// the @ popup, the paste hint and the chips.
func (c Composer) Height() int {
	return c.ta.Height() + c.menu.height() + c.mentions.height() + c.pastes.height(c.menu.open() || c.mentions.open) + c.att.height() + c.shell.height()
}

// Update handles keys, pastes, editor results and what the composer's
// parts asked for off the Update loop; it asks for the @ popup's file
// listing when the popup needs it.
func (c Composer) Update(msg tea.Msg) (Composer, tea.Cmd) {
	cmd := c.update(msg)
	return c, tea.Batch(cmd, c.mentions.listCmd())
}

func (c *Composer) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		c.flash.expire(c.flash.seq) // a key ends the hint
		if done, cmd := c.key(msg); done {
			return cmd
		}
	case hintMsg:
		return c.flash.set(msg.text, msg.err)
	case hintExpiredMsg:
		c.flash.expire(msg.seq)
		return nil
	case shellDoneMsg:
		return c.shellEnded(msg)
	case clipPastedMsg:
		return c.clipPasted(msg)
	case mentionFilesMsg:
		c.mentions.listed(msg)
		c.updateMenu()
		return nil
	case setValueMsg:
		c.SetValue(msg.text)
		return nil
	case setPastMsg:
		c.hist.setPast(msg.past)
		return nil
	case argChoicesMsg:
		c.menu.setArgChoices(msg.name, msg.values)
		c.updateMenu()
		return nil
	case promptsAllowedMsg:
		return c.promptsAnswered(msg)
	case promptsLaterMsg:
		c.SetValue(msg.typed)
		return nil
	case EditorDoneMsg:
		if msg.Err != nil {
			return notify(true, msg.Err.Error())
		}
		c.SetValue(cleanInput(msg.Text))
		return nil
	case tea.PasteMsg:
		took, line, isErr := c.att.pastedPath(msg.Content)
		var cmd tea.Cmd
		if !took {
			cmd = c.pastes.insert(&c.ta, msg)
			c.updateMenu()
		}
		if line != "" {
			cmd = tea.Batch(cmd, hint(isErr, line))
		}
		return cmd
	}
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(msg)
	if len(c.pastes) > 0 {
		c.pastes.prune(c.ta.Value())
	}
	c.updateMenu()
	return cmd
}

// Hint is the composer's short-lived feedback, cut to width: the root
// draws it in place of the key hint while it shows; "" when none does.
func (c *Composer) Hint(width int) string { return c.flash.view(width, c.styles) }

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
	if key.Matches(k, c.keys.Interrupt, c.keys.Quit) && c.shell.stop() {
		return true, hint(false, "stopping !"+c.shell.line)
	}
	if done, cmd := c.viKey(k); done {
		return true, cmd
	}
	if done, cmd := c.attachKey(k); done {
		return true, cmd
	}
	switch {
	case c.menu.move(k), c.mentions.move(k, c.menu.keys.List):
		return true, nil
	case c.mentions.open && key.Matches(k, c.keys.Complete),
		c.mentions.open && len(c.mentions.rows) > 0 && key.Matches(k, c.keys.Send): // with no row, enter sends
		return true, c.takeMention()
	case c.menu.open() && key.Matches(k, c.menu.keys.Complete):
		c.complete()
		return true, nil
	case c.menu.open() && key.Matches(k, c.menu.keys.Run), key.Matches(k, c.keys.Send):
		return true, c.send()
	case key.Matches(k, c.keys.Complete):
		return true, nil // a tab is never text
	case key.Matches(k, c.keys.Paste): // the clipboard's image, or its text, off the Update loop
		c.att.images++
		return true, c.att.clip.read(c.att.limits.FileLimit(), c.att.images)
	case key.Matches(k, c.keys.Editor):
		c.pastes.expandIn(&c.ta) // the editor gets the whole text
		return true, OpenEditor(c.Value(), c.hidden)
	case key.Matches(k, c.keys.ExpandPaste):
		c.pastes.expandIn(&c.ta)
		c.updateMenu()
		return true, nil
	case k.Code == tea.KeyBackspace && k.Mod == 0:
		if c.pastes.removeAt(&c.ta) {
			c.updateMenu()
			return true, nil
		}
	}
	if c.hist.key(k, c.keys.Prev, c.keys.Next, &c.ta) { // recall (prompthistory.go)
		c.updateMenu()
		return true, nil
	}
	return c.vi != nil && c.vi.Mode() == vi.Normal, nil // in vi's normal mode no key types text
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
	if _, ok := shellLine(c.Text()); ok {
		return c.runShell(c.Text()) // never sent: its output joins the next message
	}
	if len(c.pastes) > 0 {
		text = c.Text() // a chip is never a command: send it whole
		c.hist.remember(text)
		c.Reset()
		return func() tea.Msg { return SubmitMsg{Text: text} }
	}
	if c.menu.open() {
		cmd := c.menu.selected()
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
		if _, isPrompt := c.menu.prompt(name); !isPrompt {
			if err := c.menu.validate(name, args); err != nil {
				if c.menu.waits(name) { // a project prompt's first use asks (promptcmds.go)
					c.Reset()
					return msgCmd(askPromptsMsg{typed: text})
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
		c.hist.remember(text)
	}
	c.Reset()
	return func() tea.Msg { return SubmitMsg{Text: text, Files: files} }
}

// run sends a validated command and clears the composer.
func (c *Composer) run(name, args string) tea.Cmd {
	if p, ok := c.menu.prompt(name); ok {
		return c.usePrompt(p, args)
	}
	c.hist.remember(strings.TrimSpace("/" + name + " " + args))
	c.Reset()
	return func() tea.Msg { return SlashMsg{Name: name, Args: args} }
}

// complete replaces the typed command name with the selected one, adding a
// space when it takes arguments.
func (c *Composer) complete() {
	cmd := c.menu.selected()
	text := "/" + cmd.Name
	if cmd.arg != "" {
		text += " " + cmd.arg
	} else if cmd.check != nil {
		text += " "
	}
	c.ta.SetValue(text)
	c.updateMenu()
}

// updateMenu recomputes the completions for the current text.
func (c *Composer) updateMenu() {
	c.menu.update(c.Value())
	c.mentions.update(c.Value())
}

// View is the chips (if any), then the slash menu, the @ popup or the
// paste hint (if one shows), above the text rows.
func (c Composer) View() string { return c.view() }

// view is View without copying the composer (20 KB, its textarea's keys
// and styles): the root draws it on every message.
func (c *Composer) view() string {
	var above []string
	if c.shell.line != "" {
		above = append(above, c.shell.view(c.width(), c.styles))
	}
	if len(c.att.files) > 0 {
		above = append(above, c.att.view(c.width(), c.styles))
	}
	switch {
	case c.menu.open():
		above = append(above, c.menu.view(c.width(), c.styles))
	case c.mentions.open:
		above = append(above, c.mentions.view(c.width(), c.styles))
	case c.pastes.height(false) > 0:
		above = append(above, c.pastes.hint(c.width(), c.styles))
	}
	var text string
	if c.empty != nil && c.ta.Length() == 0 { // Length counts; Value would build the text on every View
		k := emptyKey{c.ta.Width(), c.ta.Height(), c.ta.Focused(), c.styles}
		if c.empty.key != k || c.empty.out == "" {
			c.empty.key, c.empty.out = k, c.ta.View()
		}
		text = c.empty.out
	} else {
		text = c.ta.View()
	}
	if len(above) == 0 {
		return text
	}
	return strings.Join(append(above, text), "\n")
}

// width is the composer's width in cells, its prompt included.
func (c Composer) width() int { return c.ta.Width() + ansi.StringWidth(composerPrompt) }

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
