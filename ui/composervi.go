package ui

// This file is the composer's vi preset: its normal and insert modes. The
// editing itself is ui/vi's pure state machine; here the textarea's text
// and cursor become a vi.Buffer and back, through the textarea's public
// API (Value, Line, Column; SetValue, MoveToBegin, CursorDown,
// SetCursorColumn).

import (
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"runnel/ui/vi"
)

// SetKeys gives the composer key map k. The vi preset (k.Vi) turns on the
// normal and insert modes, starting in insert mode.
func (c *Composer) SetKeys(k KeyMap) {
	c.keys = k
	c.menu.keys.Complete.SetKeys(k.Complete.Keys()...)
	c.menu.keys.Run.SetKeys(k.Send.Keys()...)
	c.applyKeys()
	c.vi = nil
	if k.Vi {
		c.vi = &vi.Editor{}
	}
}

// ViMode is "NORMAL" or "INSERT" in the vi preset, "" otherwise.
func (c Composer) ViMode() string {
	if c.vi == nil {
		return ""
	}
	return c.vi.Mode().String()
}

// viKey runs k through the vi editor when it applies: in normal mode, and
// esc in insert mode. done is false for keys vi leaves to the composer
// (ctrl+e, tab, …); in normal mode no other key reaches the textarea.
func (c *Composer) viKey(k tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	if c.vi == nil || (c.vi.Mode() == vi.Insert && k.String() != "esc") {
		return false, nil
	}
	b, act := c.vi.Key(viBuffer(&c.ta), k.String())
	switch act {
	case vi.Send:
		c.vi.SetMode(vi.Insert, b) // a new prompt starts in insert mode
		return true, c.send()
	case vi.Done:
		setViBuffer(&c.ta, b)
		c.updateMenu()
		return true, nil
	}
	return false, nil // vi.Pass
}

// viBuffer is the textarea's text and cursor as vi sees them.
func viBuffer(ta *textarea.Model) vi.Buffer {
	return vi.Buffer{Text: ta.Value(), Row: ta.Line(), Col: ta.Column()}
}

// setViBuffer puts b in the textarea: its text (when it changed; the paste
// chips stay) and its cursor.
func setViBuffer(ta *textarea.Model, b vi.Buffer) {
	if b.Text != ta.Value() {
		ta.SetValue(b.Text)
	}
	ta.MoveToBegin()
	for steps := 0; ta.Line() < b.Row && steps < 1<<16; steps++ {
		ta.CursorDown() // by wrapped rows: a long line takes several
	}
	ta.SetCursorColumn(b.Col)
}
