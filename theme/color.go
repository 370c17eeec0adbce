package theme

import "image/color"

// asColor keeps a token usable where lipgloss wants a color.Color.
func asColor(c any) color.Color {
	if cc, ok := c.(color.Color); ok {
		return cc
	}
	return nil
}
