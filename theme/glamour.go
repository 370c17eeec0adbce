package theme

import (
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// Glamour returns the markdown style matching the palette: glamour's dark or
// light style with the palette's accents, and no document margin, so that
// markdown sits flush with the rest of the transcript. Under NoColor it is
// glamour's plain (notty) style.
func (s Styles) Glamour() ansi.StyleConfig {
	p := s.Palette
	if p.NoColor {
		c := styles.NoTTYStyleConfig
		c.Document.Margin = uintPtr(0)
		return c
	}
	c := styles.LightStyleConfig
	if p.Dark {
		c = styles.DarkStyleConfig
	}
	c.Document.Margin = uintPtr(0)
	c.Document.Color = strPtr(p.Hex("fg"))
	c.Heading.Color = strPtr(p.Hex("accent"))
	c.H1.Color = strPtr(p.Hex("fg"))
	c.H1.BackgroundColor = strPtr(p.Hex("selection"))
	c.Link.Color = strPtr(p.Hex("link"))
	c.LinkText.Color = strPtr(p.Hex("accent"))
	c.Code.Color = strPtr(p.Hex("accent2"))
	c.Item.Color = nil
	return c
}

func uintPtr(u uint) *uint    { return &u }
func strPtr(s string) *string { return &s }
