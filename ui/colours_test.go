package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// colourLiteral matches a colour written in code: a hex colour, a
// lipgloss or ansi colour built from a literal, an RGBA value, or a
// foreground/background SGR written out.
var colourLiteral = regexp.MustCompile(`"#[0-9A-Fa-f]{6}"|lipgloss\.Color\("|lipgloss\.ANSIColor\(|ansi\.(BasicColor|IndexedColor|TrueColor)\(|color\.RGBA\{|\\x1b\[(3|4|9|10)[0-9](;[0-9;]*)?m`)

// TestNoColourOutsideTheme: every colour runnel draws comes from package
// theme: no Go file of the module outside theme/ writes one. ui/graphics
// is left out: its 38;5;N sequences carry a kitty image's number in the
// colour's place (the kitty graphics protocol's placeholders), not a
// colour the user sees.
func TestNoColourOutsideTheme(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "theme", filepath.Join("ui", "graphics"), "testdata", ".git", ".ci":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if colourLiteral.MatchString(line) {
				t.Errorf("%s:%d: a colour outside theme/: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
