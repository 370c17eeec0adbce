package ui

// This file is the composer's slash menu part: the commands, prompt files,
// MCP prompts and argument choices that complete what is typed after "/",
// shown above the text. Its sources are set by the composer (SetPrompts,
// SetMCP, SetArgChoices); the composer asks it for the rows of the text and
// the selected row, and hands it the keys that move the cursor.

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/prompts"
	"runnel/theme"
)

// slashMenu completes slash commands.
//
// Invariants:
//   - rows hold the commands matching the text's first word while the text
//     is a single line starting with "/" (update); sel is a listCursor over
//     them (the dialogs' cursor: it stops at the ends), so
//     0 ≤ sel.Sel() < len(rows) when there are rows.
//   - prompts hold no prompt named as a built-in command (setPrompts).
type slashMenu struct {
	rows []Command      // completions for the current text
	sel  listCursor     // the selected row
	keys CompletionKeys // the menu's keys (dialogkeys.go)
	// args are the values a command's argument completes to (argcomplete.go)
	args map[string][]string
	// prompts are the prompt files offered as /NAME after the built-in
	// commands (promptcmds.go); waiting are the project's not allowed yet
	prompts []prompts.Prompt
	waiting []prompts.Prompt
	// mcp are the MCP servers' prompts, /mcp:SERVER:PROMPT (mcpextras.go)
	mcp []Command
}

// newSlashMenu is the menu with the fixed argument choices; /model's come
// with the model list.
func newSlashMenu() slashMenu {
	return slashMenu{keys: DefaultCompletionKeys(), args: map[string][]string{
		"effort": efforts,
		"theme":  {"dark", "light", "auto"},
		"export": {"markdown", "json", "html"},
	}}
}

// open reports whether the menu shows.
func (s slashMenu) open() bool { return len(s.rows) > 0 }

// selected is the selected row; the menu must be open.
func (s slashMenu) selected() Command { return s.rows[s.sel.Sel()] }

// move handles a key that moves the cursor; false for any other key.
func (s *slashMenu) move(k tea.KeyPressMsg) bool {
	return len(s.rows) > 1 && s.keys.List.Move(k, &s.sel)
}

// update recomputes the rows for text: the menu shows while the text is a
// single word starting with "/" that some command name starts with, or a
// command and the start of an argument it has choices for. The selected
// command stays selected while it still matches.
func (s *slashMenu) update(text string) {
	prev := ""
	if s.open() {
		prev = s.selected().Name
	}
	s.rows = nil
	s.sel = newListCursor(0)
	s.sel.SetPage(menuMaxItems)
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return
	}
	if strings.ContainsAny(text, " \t") {
		s.rows = s.argRows(text) // arguments are being typed: complete them, if the command has choices
		s.sel.Reset(len(s.rows))
		return
	}
	if _, _, ok := Parse(text); !ok && text != "/" {
		return
	}
	s.rows = append(append(Complete(text), s.promptRows(text)...), s.mcpRows(text)...)
	s.sel.Reset(len(s.rows))
	for i, m := range s.rows {
		if m.Name == prev {
			s.sel.Move(i)
		}
	}
}

// height is how many rows the menu takes.
func (s slashMenu) height() int { return min(len(s.rows), menuMaxItems) }

// view draws the visible window of the menu, keeping the selected row in
// view; each row is cut to width.
func (s slashMenu) view(width int, st *theme.Styles) string {
	usageW := 0
	for _, m := range s.rows {
		usageW = max(usageW, ansi.StringWidth(m.Usage()))
	}
	lines := make([]string, len(s.rows))
	for i, m := range s.rows {
		u := m.Usage()
		lines[i] = "  " + u + strings.Repeat(" ", usageW-ansi.StringWidth(u)) + "  " + m.Desc
	}
	return popupView(lines, s.sel, menuMaxItems, width, st)
}

// popupView draws the window of lines (at most rows of them) that holds
// the cursor, the selected line highlighted, each cut to width: the look
// of every composer popup (the slash menu, the @ completions).
func popupView(lines []string, sel listCursor, rows, width int, st *theme.Styles) string {
	rows = min(rows, len(lines))
	first := sel.Window(rows)
	sh := theme.ShellOf(st)
	var b strings.Builder
	for i := first; i < first+rows; i++ {
		line := ansi.Truncate(lines[i], width, "…")
		if i > first {
			b.WriteByte('\n')
		}
		if i == sel.Sel() {
			b.WriteString(sh.Selection.Render(line))
		} else {
			b.WriteString(sh.Muted.Render(line))
		}
	}
	return b.String()
}
