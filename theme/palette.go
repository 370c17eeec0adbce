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

// HighContrast is the palette for the most contrast on a dark terminal:
// bright, fully saturated tokens, borders as light as text.
func HighContrast() Palette {
	return palette("high-contrast", true, map[string]string{
		"fg": "#FFFFFF", "muted": "#E0E0E0", "subtle": "#B0B0B0",
		"accent": "#00D7FF", "accent2": "#FFD700",
		"user": "#5FFFFF", "assistant": "#FFFFFF",
		"reasoning": "#FF87FF", "tool": "#FFAF00",
		"success": "#5FFF5F", "warning": "#FFFF00", "error": "#FF5F5F",
		"border": "#FFFFFF", "selection": "#0000AF", "link": "#87D7FF",
		"codebg": "#000000",
	})
}

// Solarized is Ethan Schoonover's Solarized, for a dark terminal.
func Solarized() Palette {
	return palette("solarized", true, map[string]string{
		"fg": "#93A1A1", "muted": "#839496", "subtle": "#586E75",
		"accent": "#268BD2", "accent2": "#6C71C4",
		"user": "#2AA198", "assistant": "#93A1A1",
		"reasoning": "#D33682", "tool": "#B58900",
		"success": "#859900", "warning": "#CB4B16", "error": "#DC322F",
		"border": "#586E75", "selection": "#073642", "link": "#268BD2",
		"codebg": "#073642",
	})
}

// Builtins are the built-in themes' names, "auto" (the terminal's
// background chooses dark or light) first.
var Builtins = []string{"auto", "dark", "light", "high-contrast", "solarized"}

// Builtin is the built-in palette named name ("auto" and "": dark or light
// as the terminal's background is); false when there is none.
func Builtin(name string, dark bool) (Palette, bool) {
	switch name {
	case "", "auto":
		if dark {
			return Dark(), true
		}
		return Light(), true
	case "dark":
		return Dark(), true
	case "light":
		return Light(), true
	case "high-contrast":
		return HighContrast(), true
	case "solarized":
		return Solarized(), true
	}
	return Palette{}, false
}

// Pick chooses the palette: NO_COLOR wins, then the config's built-in
// theme, then the terminal's background ("auto", "" or a name that is no
// built-in: a theme file's palette comes from Load).
func Pick(dark, noColor bool, override string) Palette {
	if noColor {
		return NoColor()
	}
	if p, ok := Builtin(override, dark); ok {
		return p
	}
	p, _ := Builtin("auto", dark)
	return p
}

// Hex returns a token's colour as "#RRGGBB", "" under NoColor.
func (p Palette) Hex(token string) string { return p.hex[token] }
