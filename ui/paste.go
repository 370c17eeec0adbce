package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
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

// paste inserts a paste: as text when short, as a chip when long.
func (c *Composer) paste(msg tea.PasteMsg) tea.Cmd {
	text := cleanInput(msg.Content)
	if pasteLines(text) > pasteChipLines {
		c.ta.InsertString(c.pastes.chip(text))
		return nil
	}
	msg.Content = text
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(msg)
	return cmd
}

// removeChip deletes a chip that ends at the cursor, whole; false when the
// cursor is not right after one.
func (c *Composer) removeChip() bool {
	if len(c.pastes) == 0 {
		return false
	}
	lines := strings.Split(c.ta.Value(), "\n")
	row := c.ta.Line()
	if row >= len(lines) {
		return false
	}
	line := []rune(lines[row])
	head := string(line[:min(c.ta.Column(), len(line))])
	label, ok := c.pastes.before(head)
	if !ok {
		return false
	}
	for range []rune(label) {
		c.ta, _ = c.ta.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	delete(c.pastes, label)
	return true
}

// expandPastes puts the pasted text in place of every chip, for editing.
func (c *Composer) expandPastes() bool {
	if len(c.pastes) == 0 {
		return false
	}
	v := c.pastes.expand(c.ta.Value())
	c.pastes = nil
	c.ta.SetValue(v)
	// show the end, where the cursor is: the textarea scrolls within the
	// content its last View laid out, so lay it out first
	_ = c.ta.View()
	c.ta.MoveToEnd()
	return true
}
