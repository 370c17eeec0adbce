package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is the handful of colour tokens every style is built from.
type Palette struct {
	Name    string
	Dark    bool // meant for a dark background
	NoColor bool // NO_COLOR: no colour at all, only bold/italic/faint

	Fg, Muted, Subtle       color.Color // text, secondary text, borders and rules
	Accent, Accent2         color.Color // highlights: headings, titles, keys
	User, Assistant         color.Color
	Reasoning, Tool         color.Color
	Success, Warning, Error color.Color
	Border, Selection       color.Color
	Link                    color.Color
	CodeBg                  color.Color // behind inline code

	// hex strings of the same tokens, for glamour's style config
	hex map[string]string
}

func palette(name string, dark bool, hex map[string]string) Palette {
	c := func(k string) color.Color { return lipgloss.Color(hex[k]) }
	return Palette{
		Name: name, Dark: dark, hex: hex,
		Fg: c("fg"), Muted: c("muted"), Subtle: c("subtle"),
		Accent: c("accent"), Accent2: c("accent2"),
		User: c("user"), Assistant: c("assistant"),
		Reasoning: c("reasoning"), Tool: c("tool"),
		Success: c("success"), Warning: c("warning"), Error: c("error"),
		Border: c("border"), Selection: c("selection"), Link: c("link"),
		CodeBg: c("codebg"),
	}
}

// Dark is the palette for dark terminals.
func Dark() Palette {
	return palette("dark", true, map[string]string{
		"fg": "#DDDDDD", "muted": "#9A9A9A", "subtle": "#5C5C5C",
		"accent": "#7D9CFF", "accent2": "#C792EA",
		"user": "#8FD1FF", "assistant": "#DDDDDD",
		"reasoning": "#A88BD8", "tool": "#E0B56E",
		"success": "#7BC97B", "warning": "#E5C07B", "error": "#F0716F",
		"border": "#4A4F5C", "selection": "#2F3A55", "link": "#6CB6FF",
		"codebg": "#303030",
	})
}

// Light is the palette for light terminals.
func Light() Palette {
	return palette("light", false, map[string]string{
		"fg": "#2B2B2B", "muted": "#6B6B6B", "subtle": "#A8A8A8",
		"accent": "#3451C6", "accent2": "#8A3FB5",
		"user": "#0B6FA8", "assistant": "#2B2B2B",
		"reasoning": "#6D4AA8", "tool": "#9A6200",
		"success": "#2E7D32", "warning": "#9A6700", "error": "#C62828",
		"border": "#B8BCC6", "selection": "#DCE4F7", "link": "#0B5CC2",
		"codebg": "#ECECEC",
	})
}

// NoColor is the palette for NO_COLOR: every token is "no colour".
func NoColor() Palette {
	p := palette("none", true, map[string]string{})
	none := lipgloss.NoColor{}
	for _, c := range []*color.Color{&p.Fg, &p.Muted, &p.Subtle, &p.Accent, &p.Accent2, &p.User, &p.Assistant,
		&p.Reasoning, &p.Tool, &p.Success, &p.Warning, &p.Error, &p.Border, &p.Selection, &p.Link, &p.CodeBg} {
		*c = none
	}
	p.NoColor = true
	return p
}

// Pick chooses the palette: NO_COLOR wins, then the config's override
// ("dark" or "light"), then the terminal's background ("auto" or "").
func Pick(dark, noColor bool, override string) Palette {
	switch {
	case noColor:
		return NoColor()
	case override == "dark":
		return Dark()
	case override == "light":
		return Light()
	case dark:
		return Dark()
	}
	return Light()
}

// Hex returns a token's colour as "#RRGGBB", "" under NoColor.
func (p Palette) Hex(token string) string { return p.hex[token] }
