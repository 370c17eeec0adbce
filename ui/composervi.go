package ui

// This file is the composer's vi preset: its normal and insert modes. The
// editing itself is ui/vi's pure state machine; here the textarea's text
// and cursor become a vi.Buffer and back, through the textarea's public
// API (Value, Line, Column; SetValue, MoveToBegin, CursorDown,
// SetCursorColumn).

import (
	tea "charm.land/bubbletea/v2"

	"runnel/ui/vi"
)

// SetKeys gives the composer key map k. The vi preset (k.Vi) turns on the
// normal and insert modes, starting in insert mode.
func (c *Composer) SetKeys(k KeyMap) {
	c.keys = k
	c.menuKeys.Complete.SetKeys(k.Complete.Keys()...)
	c.menuKeys.Run.SetKeys(k.Send.Keys()...)
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
	b, act := c.vi.Key(c.viBuffer(), k.String())
	switch act {
	case vi.Send:
		c.vi.SetMode(vi.Insert, b) // a new prompt starts in insert mode
		return true, c.send()
	case vi.Done:
		c.setViBuffer(b)
		c.updateMenu()
		return true, nil
	}
	return false, nil // vi.Pass
}

// viNormal reports whether the composer is in vi's normal mode, where the
// textarea takes no keys.
func (c Composer) viNormal() bool { return c.vi != nil && c.vi.Mode() == vi.Normal }

// viBuffer is the text and cursor as vi sees them.
func (c Composer) viBuffer() vi.Buffer {
	return vi.Buffer{Text: c.ta.Value(), Row: c.ta.Line(), Col: c.ta.Column()}
}

// setViBuffer puts b in the textarea: its text (when it changed; the paste
// chips stay) and its cursor.
func (c *Composer) setViBuffer(b vi.Buffer) {
	if b.Text != c.ta.Value() {
		c.ta.SetValue(b.Text)
	}
	c.ta.MoveToBegin()
	for steps := 0; c.ta.Line() < b.Row && steps < 1<<16; steps++ {
		c.ta.CursorDown() // by wrapped rows: a long line takes several
	}
	c.ta.SetCursorColumn(b.Col)
}
