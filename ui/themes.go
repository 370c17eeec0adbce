package ui

// This file chooses the chat's colours: the config's theme at the start
// and /theme NAME, each a built-in theme or a theme file (themes/NAME.toml
// in the config directory, read by package theme). A theme file is read in
// a tea.Cmd; a bad one is one notice, and the theme in use stays.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// themeMsg is a theme file read for /theme NAME.
type themeMsg struct {
	name string
	p    theme.Palette
	err  error
}

// startTheme reads the config's theme file, if it names one (the root
// checked it before the chat began: a failure here, a file changed since,
// keeps the terminal's built-in theme and says why), and offers the theme
// files to /theme's completion.
func (m *Model) startTheme() {
	m.composer.menu.setArgChoices("theme", append(slices.Clone(theme.Builtins), theme.Files(m.opts.ThemesDir)...))
	if _, builtin := theme.Builtin(m.opts.Theme, m.frame.dark); builtin {
		return
	}
	p, err := theme.Load(m.opts.ThemesDir, m.opts.Theme)
	if err != nil {
		m.items.notice(block.Warning, stream.SanitizeLine(err.Error())+" — using the terminal's theme")
		m.opts.useTheme("auto")
		return
	}
	m.frame.useFile(p)
	m.frame.applyTheme(m.opts.Theme)
	m.composer.SetStyles(m.frame.styles)
	m.items.transcript.SetStyles(m.frame.styles)
}

// setTheme switches the palette for this run: a built-in at once, a theme
// file once it is read (themeMsg).
func (m *Model) setTheme(name string) tea.Cmd {
	if _, builtin := theme.Builtin(name, m.frame.dark); builtin {
		m.useTheme(name)
		return nil
	}
	dir := m.opts.ThemesDir
	return func() tea.Msg {
		p, err := theme.Load(dir, name)
		return themeMsg{name, p, err}
	}
}

// themeRead takes a theme file read for /theme: its palette, or one
// notice with what is wrong where, the theme in use staying.
func (m *Model) themeRead(msg themeMsg) {
	if msg.err != nil {
		m.items.notice(block.Error, stream.SanitizeLine(msg.err.Error())+" — the theme stays "+stream.SanitizeLine(m.opts.Theme))
		return
	}
	m.frame.useFile(msg.p)
	m.useTheme(msg.name)
}

// useTheme draws everything again in the theme named.
func (m *Model) useTheme(name string) {
	m.opts.useTheme(name)
	m.frame.applyTheme(m.opts.Theme)
	m.composer.SetStyles(m.frame.styles)
	m.items.transcript.SetStyles(m.frame.styles)
	m.items.transcript.InvalidateAll()
	m.items.notice(block.Info, "theme: "+stream.SanitizeLine(name)+" (for this run; set theme in the config to keep it)")
}

// CheckTheme reads the config's theme, name, when it is a theme file in
// dir, and says what is wrong with it in one line (file:line); nil for a
// built-in or a good file. The root refuses to start on it.
func CheckTheme(dir, name string) error {
	if _, builtin := theme.Builtin(name, true); builtin {
		return nil
	}
	_, err := theme.Load(dir, name)
	return err
}
