// Package theme holds runnel's look: palettes (a few colour tokens), the
// lipgloss styles built from them, and a glamour style to match. Colours
// appear nowhere else in runnel.
//
// It does not decide which palette to use at run time beyond Pick, and it
// renders nothing itself.
//
// Main flow: Pick(dark, noColor, override) → Palette → New(palette) → Styles
// (lipgloss styles, and Glamour() for markdown).
package theme
