package config

// This file checks the chosen status line ([status_line]) and the theme's
// name. The chat draws the line (ui/statusitems.go) and reads theme files
// (package theme); here only names and shapes are checked.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// StatusLineConfig is the [status_line] table: the items of the status
// line's right side, in order (empty: the default line), and a command whose
// first line of output shows there, run without a shell.
type StatusLineConfig struct {
	Items   []string `toml:"items"`
	Command []string `toml:"command"`
}

// StatusItems are the items [status_line] items may name; ui.StatusItems
// is the same list, drawn.
var StatusItems = []string{"model", "provider", "cost", "context", "tokens", "cache", "tier", "branch", "cwd", "git_branch", "time"}

// BuiltinThemes are the themes runnel carries; any other name is a file,
// themes/NAME.toml in the config directory.
var BuiltinThemes = []string{"auto", "dark", "light", "high-contrast", "solarized"}

// themeName is what a theme file's name may be: no path, no dot.
var themeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// CheckThemeName reports whether name can name a theme: a built-in or the
// NAME of themes/NAME.toml. It does not look for the file.
func CheckThemeName(name string) error {
	if slices.Contains(BuiltinThemes, name) || themeName.MatchString(name) {
		return nil
	}
	quoted := make([]string, len(BuiltinThemes))
	for i, t := range BuiltinThemes {
		quoted[i] = fmt.Sprintf("%q", t)
	}
	return fmt.Errorf("%q is not a theme name; use one of %s, or NAME for a file themes/NAME.toml (letters, digits, - and _)", name, strings.Join(quoted, ", "))
}

// ThemesDir is where theme files are: themes/ beside the config file (the
// default config file's directory when none was read); "" when no home
// directory is known.
func (c Config) ThemesDir() string {
	p := c.Path
	if p == "" {
		p = DefaultConfigPath()
	}
	if p == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "themes")
}

// validateStatusLine checks [status_line]: every item is one of
// StatusItems, and a command ([] for none) is an array whose first
// element names a program.
func (c *Config) validateStatusLine(at func(string) string) error {
	for _, it := range c.StatusLine.Items {
		if slices.Contains(StatusItems, it) {
			continue
		}
		msg := fmt.Sprintf("%s: key \"status_line.items\": %q is not an item", at("status_line.items"), it)
		if s := nearest(it, StatusItems); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return fmt.Errorf("%s; use any of %s", msg, strings.Join(StatusItems, ", "))
	}
	if cmd := c.StatusLine.Command; len(cmd) > 0 {
		if strings.TrimSpace(cmd[0]) == "" {
			return fmt.Errorf("%s: key \"status_line.command\": want a program and its arguments, like [\"date\", \"+%%H:%%M\"] (no shell)", at("status_line.command"))
		}
		for _, a := range cmd {
			if strings.ContainsRune(a, 0) {
				return fmt.Errorf("%s: key \"status_line.command\": an argument holds a NUL byte", at("status_line.command"))
			}
		}
	}
	return nil
}

// nearest is the name of names closest to s (at most 2 edits away), or "".
func nearest(s string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(s, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}
