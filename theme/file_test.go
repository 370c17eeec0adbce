package theme

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThemeFileErrors: each bad theme file is one line naming the file,
// the line and the key, and what to write.
func TestThemeFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ doc, want string }{
		{"base = \"dark\"\n\naccent = \"#12345\"\n", `t.toml:3: key "accent": "#12345" is not a colour; write "#rrggbb" or an ANSI number 0-255`},
		{"fg = 300\n", `t.toml:1: key "fg": 300 is not a colour`},
		{"fg = \"red\"\n", `t.toml:1: key "fg": "red" is not a colour`},
		{"\n\nacent = 3\n", `t.toml:3: unknown key "acent" (did you mean "accent"?); the keys are base and fg, muted,`},
		{"base = \"neon\"\n", `t.toml:1: key "base": want a built-in theme to start from: dark, light, high-contrast, solarized`},
		{"fg = \"#fff\\u001b[31m\"\n", `t.toml:1: key "fg": "#fff\x1b[31m" is not a colour`},
		{"fg = [\n", `t.toml:1: invalid TOML`},
	} {
		os.WriteFile(filepath.Join(dir, "t.toml"), []byte(tc.doc), 0o600)
		_, err := Load(dir, "t")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%q: got %v\nwant one line with %s", tc.doc, err, tc.want)
		}
	}
	if _, err := Load(dir, "../etc/passwd"); err == nil || !strings.Contains(err.Error(), "not a theme name") {
		t.Errorf("a path: %v", err)
	}
	if _, err := Load(dir, "gone"); err == nil || !strings.Contains(err.Error(), "no file") {
		t.Errorf("missing: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "big.toml"), []byte(strings.Repeat("# x\n", maxThemeFile)), 0o600)
	if _, err := Load(dir, "big"); err == nil || !strings.Contains(err.Error(), "larger than 64 KiB") {
		t.Errorf("big: %v", err)
	}
}

// TestThemeFileLoads: a file starts from its base and sets what it names,
// hex or ANSI numbers (the HTML export gets those as hex).
func TestThemeFileLoads(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.toml"), []byte("base = \"light\"\naccent = \"#aabbcc\"\nerror = 196\nlink = \"33\"\n"), 0o600)
	p, err := Load(dir, "mine")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "mine" || p.Dark || p.Hex("accent") != "#AABBCC" || p.Hex("error") != "196" || p.Hex("fg") != Light().Hex("fg") {
		t.Errorf("palette %s dark=%v accent %s error %s", p.Name, p.Dark, p.Hex("accent"), p.Hex("error"))
	}
	if css := HTML(p).CSS; !strings.Contains(css, "#AABBCC") || strings.Contains(css, ":196") {
		t.Errorf("CSS: %s", css)
	}
	if got := Files(dir); strings.Join(got, ",") != "mine" {
		t.Errorf("files %v", got)
	}
	if ansiHex("196") != "#FF0000" || ansiHex("244") != "#808080" || ansiHex("4") != "#0000EE" {
		t.Errorf("ansiHex: %s %s %s", ansiHex("196"), ansiHex("244"), ansiHex("4"))
	}
	for _, name := range []string{"high-contrast", "solarized"} {
		p, ok := Builtin(name, false)
		if !ok || p.Name != name || !p.Dark {
			t.Errorf("built-in %s: %v %+v", name, ok, p.Name)
		}
	}
}
