package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// lines returns n numbered lines joined by sep.
func lines(n int, sep string) string {
	var b []string
	for i := 1; i <= n; i++ {
		b = append(b, fmt.Sprintf("line %d", i))
	}
	return strings.Join(b, sep)
}

// TestPasteLineEnds: CR (tmux, many terminals), CRLF and LF in a paste all
// become line breaks.
func TestPasteLineEnds(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{"CR": "a\rb\rc", "CRLF": "a\r\nb\r\nc", "LF": "a\nb\nc", "mixed": "a\rb\r\nc"} {
		c, _ := newTestComposer().Update(tea.PasteMsg{Content: content})
		if got := c.Value(); got != "a\nb\nc" {
			t.Errorf("%s paste = %q; want three lines", name, got)
		}
	}
}

func sendText(t *testing.T, c Composer) (Composer, string) {
	t.Helper()
	c, cmd := c.Update(keyMsg("enter"))
	for _, msg := range run(cmd) {
		if s, ok := msg.(SubmitMsg); ok {
			return c, s.Text
		}
	}
	t.Fatalf("enter sent nothing")
	return c, ""
}

// TestLargePasteIsAChip: a paste of more than 20 lines shows as one chip
// line, with a hint naming its keys, and is sent whole, in place, with the
// text typed around it.
func TestLargePasteIsAChip(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "look: ")
	c, _ = c.Update(tea.PasteMsg{Content: lines(300, "\r")})
	c = typeText(c, " why?")
	if got := c.Value(); got != "look: [pasted 300 lines] why?" {
		t.Fatalf("composer text = %q", got)
	}
	if h := c.Height(); h != 2 {
		t.Errorf("height %d; want the chip line and the hint", h)
	}
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "[pasted 300 lines]") || !strings.Contains(v, "ctrl+x") || strings.Contains(v, "line 2") {
		t.Errorf("view:\n%s", v)
	}
	c, sent := sendText(t, c)
	if want := "look: " + lines(300, "\n") + " why?"; sent != want {
		t.Errorf("sent %d lines (%q…); want all 300 in place", strings.Count(sent, "\n")+1, sent[:min(len(sent), 40)])
	}
	if c.Value() != "" || c.HasPastes() || c.Height() != 1 {
		t.Errorf("after sending: %q, chips %v, height %d", c.Value(), c.HasPastes(), c.Height())
	}
	// a short paste stays text
	c, _ = c.Update(tea.PasteMsg{Content: lines(20, "\r")})
	if c.HasPastes() || strings.Count(c.Value(), "\n") != 19 {
		t.Errorf("a 20-line paste is not plain text: %q", c.Value())
	}
}

// TestPasteChipRemoveAndExpand: backspace right after a chip removes it
// whole; ctrl+x puts the pasted text in place of the chips.
func TestPasteChipRemoveAndExpand(t *testing.T) {
	t.Parallel()
	c := typeText(newTestComposer(), "a ")
	c, _ = c.Update(tea.PasteMsg{Content: lines(30, "\n")})
	c, _ = c.Update(tea.PasteMsg{Content: lines(30, "\n")})
	if got := c.Value(); got != "a [pasted 30 lines][pasted 30 lines #2]" {
		t.Fatalf("two chips: %q", got)
	}
	c, _ = c.Update(keyMsg("backspace"))
	if got := c.Value(); got != "a [pasted 30 lines]" {
		t.Fatalf("after backspace: %q", got)
	}
	c, _ = c.Update(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl})
	if got := c.Value(); got != "a "+lines(30, "\n") || c.HasPastes() {
		t.Fatalf("after ctrl+x: %q", got)
	}
	c, _ = c.Update(keyMsg("backspace")) // plain text: one character
	if got := c.Value(); got != "a "+strings.TrimSuffix(lines(30, "\n"), "0") {
		t.Errorf("backspace in plain text: %q", got[len(got)-10:])
	}
	c.Reset()
	c, _ = c.Update(tea.PasteMsg{Content: lines(25, "\n")})
	c, _ = c.Update(keyMsg("backspace"))
	if c.Value() != "" || c.HasPastes() {
		t.Errorf("removed chip left %q", c.Value())
	}
}

// TestPasteChipEdgeCases: a pasted text holding another chip's label is sent
// as pasted; a chip edited away is forgotten.
func TestPasteChipEdgeCases(t *testing.T) {
	t.Parallel()
	c := newTestComposer()
	inner := lines(30, "\n") + "\n[pasted 24 lines]"
	c, _ = c.Update(tea.PasteMsg{Content: inner})
	c, _ = c.Update(tea.PasteMsg{Content: lines(24, "\n")})
	if got := c.Value(); got != "[pasted 31 lines][pasted 24 lines]" {
		t.Fatalf("chips: %q", got)
	}
	if got, want := c.Text(), inner+lines(24, "\n"); got != want {
		t.Errorf("expanded twice: %q", got)
	}
	c, _ = c.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	c, _ = c.Update(keyMsg("backspace")) // inside the second chip: a plain character
	if got := c.Value(); got != "[pasted 31 lines][pasted 24 line]" {
		t.Fatalf("after backspace inside a chip: %q", got)
	}
	if len(c.pastes) != 1 {
		t.Errorf("the broken chip is still held: %v", len(c.pastes))
	}
}
