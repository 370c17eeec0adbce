// Package theme holds runnel's look: palettes (a few colour tokens), the
// lipgloss styles built from them, and a glamour style to match. Colours
// appear nowhere else in runnel.
//
// Themes: the built-ins (Builtins: auto, dark, light, high-contrast,
// solarized) and theme files, themes/NAME.toml in the config directory
// (file.go: Load, one key per token of Tokens, "#rrggbb" or an ANSI number,
// a base to start from; a bad file is one error line with file:line).
// Glamour's markdown and code colours come from the palette too.
//
// It does not decide which palette to use at run time beyond Pick and
// Find, and it renders nothing itself.
//
// Main flow: Pick(dark, noColor, override) or Load(dir, name) → Palette →
// New(palette) → Styles (lipgloss styles, and Glamour() for markdown).
package theme
