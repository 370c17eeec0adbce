package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusLineAndThemeErrors: an item that does not exist, an empty
// program and a theme name that is a path are each one line naming the
// file, the line and the key; a known item list and a theme file's name
// load.
func TestStatusLineAndThemeErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ doc, want string }{
		{"model = \"x\"\n[status_line]\nitems = [\"cost\", \"gti_branch\"]\n", `config.toml:3: key "status_line.items": "gti_branch" is not an item (did you mean "git_branch"?); use any of model, provider,`},
		{"[status_line]\n\ncommand = [\"\", \"x\"]\n", `config.toml:3: key "status_line.command": want a program and its arguments`},
		{"\ntheme = \"../evil\"\n", `config.toml:2: key "theme": "../evil" is not a theme name; use one of "auto", "dark", "light", "high-contrast", "solarized", or NAME`},
		{"[status_line]\nitems = [1]\n", `config.toml:2: key "status_line.items": want an array of strings`},
	} {
		path := filepath.Join(dir, "config.toml")
		os.WriteFile(path, []byte(tc.doc), 0o600)
		_, err := LoadConfig(path, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v\nwant one line with %s", tc.doc, err, tc.want)
		}
	}
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("theme = \"my-night\"\n[status_line]\nitems = [\"git_branch\", \"cost\", \"context\", \"provider\"]\ncommand = [\"date\", \"+%S\"]\n"), 0o600)
	c, err := LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Theme != "my-night" || len(c.StatusLine.Items) != 4 || c.StatusLine.Command[0] != "date" || c.ThemesDir() != filepath.Join(dir, "themes") {
		t.Errorf("got %+v, themes in %s", c.StatusLine, c.ThemesDir())
	}
}
