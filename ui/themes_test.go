package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/theme"
)

// customTheme writes themes/NAME.toml with every token an unusual colour,
// and returns the themes directory and the colours as SGR parameters.
func customTheme(t *testing.T) (string, map[string]bool) {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("base = \"dark\"\n")
	sgr := map[string]bool{}
	for i, tok := range theme.Tokens {
		r, g, bl := 16+i, 100+i, 200+i
		b.WriteString(tok + " = \"#" + hex2(r) + hex2(g) + hex2(bl) + "\"\n")
		sgr[itoa(r)+";"+itoa(g)+";"+itoa(bl)] = true
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, sgr
}

func hex2(n int) string {
	return strings.ToUpper(string("0123456789abcdef"[n>>4]) + string("0123456789abcdef"[n&15]))
}
func itoa(n int) string {
	return strings.TrimLeft(string(rune('0'+n/100))+string(rune('0'+n/10%10))+string(rune('0'+n%10)), "0")
}

// truecolour matches a 24-bit foreground or background.
var truecolour = regexp.MustCompile(`\x1b\[[0-9;]*?[34]8;2;([0-9]+;[0-9]+;[0-9]+)`)

// TestCustomThemeColoursEverything: with a theme file chosen in the
// config, a whole screen — an answer with a table and highlighted code,
// the status line, the key hint, the composer — draws no colour but the
// file's.
func TestCustomThemeColoursEverything(t *testing.T) {
	dir, allowed := customTheme(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_t", goldenAnswer)})
	o := Options{WindowWidth: goldenW, Settings: session.Settings{Model: "gpt-golden", Store: true}, Client: &stream.Client{BaseURL: srv.URL}, Theme: "mine", ThemesDir: dir}
	m := New(t.Context(), o)
	m.Update(tea.WindowSizeMsg{Width: goldenW, Height: goldenH})
	if m.frame.styles.Palette.Name != "mine" {
		t.Fatalf("theme %q", m.frame.styles.Palette.Name)
	}
	m.Update(SubmitMsg{Text: "make a plan"})
	goldenPump(t, m)
	v := m.View().Content
	found := truecolour.FindAllStringSubmatch(v, -1)
	if len(found) < 10 {
		t.Fatalf("only %d colours on screen:\n%q", len(found), v)
	}
	for _, c := range found {
		if !allowed[c[1]] {
			t.Errorf("colour %s is not the theme's", c[1])
		}
	}
	if strings.Contains(v, "\x1b[38;5;") || regexp.MustCompile(`\x1b\[[0-9;]*\b3[0-7]m`).MatchString(v) {
		t.Error("an ANSI colour not from the theme")
	}
}

// TestThemeSwitchInTheChat: /theme NAME reads the file and redraws in it;
// a bad file is one notice with file:line and the theme stays; /theme
// high-contrast is built in; the files complete after /theme.
func TestThemeSwitchInTheChat(t *testing.T) {
	dir, _ := customTheme(t)
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("base = \"light\"\n\naccent = \"#12345\"\n"), 0o600)
	m := newTestModel(t, Options{ThemesDir: dir})
	run := func(name string) {
		t.Helper()
		if cmd := m.slash("theme", name); cmd != nil {
			m.Update(cmd())
		}
	}
	run("mine")
	if m.frame.styles.Palette.Name != "mine" || !strings.Contains(plain(m), "theme: mine") {
		t.Fatalf("/theme mine: %q", m.frame.styles.Palette.Name)
	}
	run("bad")
	v := plain(m)
	if m.frame.styles.Palette.Name != "mine" || !strings.Contains(v, "bad.toml:3: key \"accent\": \"#12345\" is not a colour") || !strings.Contains(v, "the theme stays mine") {
		t.Errorf("a bad file: theme %q\n%s", m.frame.styles.Palette.Name, v)
	}
	run("nothere")
	if m.frame.styles.Palette.Name != "mine" || !strings.Contains(plain(m), "no file") {
		t.Errorf("a missing file: %s", plain(m))
	}
	// the background colour's answer keeps a file's theme
	m.Update(tea.BackgroundColorMsg{})
	if m.frame.styles.Palette.Name != "mine" {
		t.Errorf("after the background's answer: %q", m.frame.styles.Palette.Name)
	}
	run("high-contrast")
	if m.frame.styles.Palette.Name != "high-contrast" {
		t.Errorf("/theme high-contrast: %q", m.frame.styles.Palette.Name)
	}
	if c := m.composer.menu.args["theme"]; !strings.Contains(strings.Join(c, " "), "solarized bad mine") {
		t.Errorf("/theme completes %v", c)
	}
}

// TestBadThemeFileAtStart: a theme file gone bad after the start's check
// is one warning, and the chat draws in the terminal's theme.
func TestBadThemeFileAtStart(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.toml"), []byte("acent = 3\n"), 0o600)
	m := newTestModel(t, Options{ThemesDir: dir, Theme: "x"})
	if v := plain(m); !strings.Contains(v, `x.toml:1: unknown key "acent" (did you mean "accent"?)`) || m.frame.styles.Palette.Name != "dark" {
		t.Errorf("theme %q:\n%s", m.frame.styles.Palette.Name, v)
	}
}

// TestThemeFileWithANSINumbers: a theme of ANSI colour numbers draws an
// answer's code as markdown (chroma takes only hex: the numbers reach it
// as hex), not as the plain-text fallback.
func TestThemeFileWithANSINumbers(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ansi.toml"), []byte("accent = 33\naccent2 = 177\nfg = \"252\"\ncodebg = 236\nerror = 196\n"), 0o600)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_t", goldenAnswer)})
	m := New(t.Context(), Options{WindowWidth: goldenW, Settings: session.Settings{Model: "gpt-golden"}, Client: &stream.Client{BaseURL: srv.URL}, Theme: "ansi", ThemesDir: dir})
	m.Update(tea.WindowSizeMsg{Width: goldenW, Height: goldenH})
	m.Update(SubmitMsg{Text: "make a plan"})
	goldenPump(t, m)
	if v := plain(m); strings.Contains(v, "cannot be drawn") || strings.Contains(v, "```") {
		t.Errorf("the answer fell back to plain text:\n%s", v)
	}
}
