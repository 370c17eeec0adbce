package ui

// This file chooses the chat's colours: the config's theme at the start
// and /theme NAME, each a built-in theme or a theme file (themes/NAME.toml
// in the config directory, read by package theme). A theme file is read in
// a tea.Cmd; a bad one is one notice, and the theme in use stays. The
// frame owns the choice (look); the root only restyles the children that
// keep styles of their own (restyle).

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// look is what the styles are made of: the theme chosen and what it is
// drawn on.
//
// Invariants: a name that is no built-in is that of file, or the styles
// are the built-in "auto" (applyTheme).
type look struct {
	name          string         // the theme: the config's, then /theme NAME's; "auto" when its file could not be read
	dir           string         // where theme files are (Options.ThemesDir)
	dark, noColor bool           // the terminal's background; NO_COLOR
	file          *theme.Palette // the theme file read last; nil for none
}

// themeMsg is a theme chosen: a built-in (no file) or a theme file read
// for /theme NAME (its palette, or err).
type themeMsg struct {
	name    string
	p       theme.Palette
	builtin bool
	err     error
}

// applyTheme picks the styles for the terminal's background and the
// theme chosen: a built-in, or the theme file read last, which a name
// that is no built-in must be.
func (f *frameState) applyTheme() {
	l := f.look
	p := theme.Pick(l.dark, l.noColor, l.name)
	if _, builtin := theme.Builtin(l.name, l.dark); !builtin && l.file != nil && l.file.Name == l.name && !l.noColor {
		p = *l.file
	}
	st := theme.New(p)
	f.styles = &st
}

// setDark takes the terminal's background and picks the styles again.
func (f *frameState) setDark(dark bool) {
	f.look.dark = dark
	f.applyTheme()
}

// startTheme reads the config's theme file, if it names one (the root
// checked it before the chat began: a failure here, a file changed since,
// keeps the terminal's built-in theme and says why in the line returned).
// It reports whether the styles changed.
func (f *frameState) startTheme() (changed bool, warn string) {
	if _, builtin := theme.Builtin(f.look.name, f.look.dark); builtin {
		return false, ""
	}
	p, err := theme.Load(f.look.dir, f.look.name)
	if err != nil {
		f.look.name = "auto"
		return false, stream.SanitizeLine(err.Error()) + " — using the terminal's theme"
	}
	f.look.file = &p
	f.applyTheme()
	return true, ""
}

// themeChoices is what /theme completes: the built-ins and the theme
// files.
func (f *frameState) themeChoices() []string {
	return append(slices.Clone(theme.Builtins), theme.Files(f.look.dir)...)
}

// chooseTheme is /theme NAME: a built-in is taken at once (the themeMsg
// returned), a theme file is read in the Cmd returned.
func (f *frameState) chooseTheme(name string) (*themeMsg, tea.Cmd) {
	if _, builtin := theme.Builtin(name, f.look.dark); builtin {
		return &themeMsg{name: name, builtin: true}, nil
	}
	dir := f.look.dir
	return nil, func() tea.Msg {
		p, err := theme.Load(dir, name)
		return themeMsg{name: name, p: p, err: err}
	}
}

// takeTheme makes the theme of msg the one in use, and returns the
// notice that says so, or what is wrong where (the theme in use staying).
func (f *frameState) takeTheme(msg themeMsg) (ok bool, n noticeMsg) {
	if msg.err != nil {
		return false, noticeMsg{block.Error, stream.SanitizeLine(msg.err.Error()) + " — the theme stays " + stream.SanitizeLine(f.look.name)}
	}
	if !msg.builtin {
		f.look.file = &msg.p
	}
	f.look.name = msg.name
	f.applyTheme()
	return true, noticeMsg{block.Info, "theme: " + stream.SanitizeLine(msg.name) + " (for this run; set theme in the config to keep it)"}
}

// themeRead takes a theme chosen (themeMsg) and draws everything again in
// it, or says what is wrong.
func (m *Model) themeRead(msg themeMsg) {
	ok, n := m.frame.takeTheme(msg)
	if ok {
		m.restyle()
		m.items.Update(layoutMsg{invalidateAll: true})
	}
	m.items.notice(n.kind, n.text)
}

// restyle gives the children that keep styles of their own the frame's.
func (m *Model) restyle() {
	m.composer.SetStyles(m.frame.styles)
	m.items.Update(layoutMsg{styles: m.frame.styles})
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
