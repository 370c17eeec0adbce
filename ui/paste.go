package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// This file keeps large pastes out of the composer's way: a paste of more
// than pasteChipLines lines shows as a one-line chip, "[pasted 300 lines]",
// that stands for the whole text. Backspace right after a chip removes it
// whole, the ExpandPaste key (ctrl+x) puts the pasted text in place of every
// chip for editing, and sending puts it back, so the model gets every line.

// pasteChipLines is the most lines a paste may have and still be shown as
// text.
const pasteChipLines = 20

// pastes maps each chip in the composer to the text it stands for.
//
// Invariants: every key is a chip label, unique, of the form "[pasted N
// lines]" or "[pasted N lines #K]"; a chip no longer in the text is dropped
// when the text is sent or cleared.
type pastes map[string]string

// pasteLines counts the lines of s (s has only "\n" line ends).
func pasteLines(s string) int { return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 }

// chip returns a new, unique label for a pasted text and records it.
func (p *pastes) chip(text string) string {
	if *p == nil {
		*p = pastes{}
	}
	n := pasteLines(text)
	label := fmt.Sprintf("[pasted %d lines]", n)
	for k := 2; (*p)[label] != ""; k++ {
		label = fmt.Sprintf("[pasted %d lines #%d]", n, k)
	}
	(*p)[label] = text
	return label
}

// expand replaces every chip in s with its text, in one pass: a pasted text
// that happens to contain a chip's label is not expanded again.
func (p pastes) expand(s string) string {
	if len(p) == 0 {
		return s
	}
	pairs := make([]string, 0, 2*len(p))
	for label, text := range p {
		pairs = append(pairs, label, text)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// prune forgets the chips no longer in s (edited away).
func (p pastes) prune(s string) {
	for label := range p {
		if !strings.Contains(s, label) {
			delete(p, label)
		}
	}
}

// before returns the chip that ends exactly at the end of s, if any.
func (p pastes) before(s string) (string, bool) {
	for label := range p {
		if strings.HasSuffix(s, label) {
			return label, true
		}
	}
	return "", false
}

// insert puts a paste in ta: as text when short, as a chip when long.
func (p *pastes) insert(ta *textarea.Model, msg tea.PasteMsg) tea.Cmd {
	text := cleanInput(msg.Content)
	if pasteLines(text) > pasteChipLines {
		ta.InsertString(p.chip(text))
		return nil
	}
	msg.Content = text
	var cmd tea.Cmd
	*ta, cmd = ta.Update(msg)
	return cmd
}

// removeAt deletes from ta a chip that ends at the cursor, whole; false
// when the cursor is not right after one.
func (p pastes) removeAt(ta *textarea.Model) bool {
	if len(p) == 0 {
		return false
	}
	lines := strings.Split(ta.Value(), "\n")
	row := ta.Line()
	if row >= len(lines) {
		return false
	}
	line := []rune(lines[row])
	head := string(line[:min(ta.Column(), len(line))])
	label, ok := p.before(head)
	if !ok {
		return false
	}
	for range []rune(label) {
		*ta, _ = ta.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	delete(p, label)
	return true
}

// expandIn puts the pasted text in place of every chip of ta, for editing,
// and forgets the chips.
func (p *pastes) expandIn(ta *textarea.Model) bool {
	if len(*p) == 0 {
		return false
	}
	v := p.expand(ta.Value())
	*p = nil
	ta.SetValue(v)
	// show the end, where the cursor is: the textarea scrolls within the
	// content its last View laid out, so lay it out first
	_ = ta.View()
	ta.MoveToEnd()
	return true
}

// height is how many rows the paste hint takes: one while a chip shows
// (and no menu does, menuOpen false).
func (p pastes) height(menuOpen bool) int {
	if len(p) > 0 && !menuOpen {
		return 1
	}
	return 0
}

// hint is the line above the text while a chip shows: what the chip is
// and which keys act on it, cut to width.
func (p pastes) hint(width int, st *theme.Styles) string {
	n := 0
	for _, text := range p {
		n += pasteLines(text)
	}
	line := fmt.Sprintf("  %s pasted (%d lines, sent whole) · ctrl+x expands · backspace after a chip removes it",
		plural(len(p), "chip"), n)
	return theme.ShellOf(st).Muted.Render(ansi.Truncate(line, width, "…"))
}
