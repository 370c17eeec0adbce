package theme

// This file reads theme files: themes/NAME.toml in the config directory,
// one key per palette token (the names Tokens lists), each "#rrggbb" or an
// ANSI colour number 0–255, and base = "NAME" for the built-in theme the
// file starts from (dark when left out). A bad file is one error line:
// file:line, the key, what is wrong and what to write.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Tokens are the palette's colour names, as theme files write them.
var Tokens = []string{"fg", "muted", "subtle", "accent", "accent2", "user", "assistant",
	"reasoning", "tool", "success", "warning", "error", "border", "selection", "link", "codebg"}

// maxThemeFile bounds the read of a theme file.
const maxThemeFile = 64 << 10

var (
	hexColor  = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	fileName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	keyAtLine = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+|"[^"]*")\s*=`)
)

// Files lists the theme files' names in dir (without .toml), sorted; at
// most 200; none when dir cannot be read.
func Files(dir string) []string {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".toml")
		if ok && !e.IsDir() && fileName.MatchString(name) && !slices.Contains(Builtins, name) {
			out = append(out, name)
		}
		if len(out) == 200 {
			break
		}
	}
	slices.Sort(out)
	return out
}

// Find is the palette named name: a built-in (Builtin, with the
// terminal's background dark) or the file dir/NAME.toml (Load).
func Find(dir, name string, dark bool) (Palette, error) {
	if p, ok := Builtin(name, dark); ok {
		return p, nil
	}
	return Load(dir, name)
}

// Load reads the theme file dir/NAME.toml into a palette named name.
func Load(dir, name string) (Palette, error) {
	if !fileName.MatchString(name) {
		return Palette{}, fmt.Errorf("theme %q: not a theme name (letters, digits, - and _); built in: %s", name, strings.Join(Builtins, ", "))
	}
	if dir == "" {
		return Palette{}, fmt.Errorf("theme %q: no such built-in theme (%s), and no config directory for themes/%s.toml", name, strings.Join(Builtins, ", "), name)
	}
	path := filepath.Join(dir, name+".toml")
	shown := displayPath(path)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Palette{}, fmt.Errorf("theme %q: no such built-in theme (%s), and no file %s", name, strings.Join(Builtins, ", "), shown)
		}
		return Palette{}, fmt.Errorf("%s: cannot read it: %v", shown, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxThemeFile+1))
	if err != nil {
		return Palette{}, fmt.Errorf("%s: cannot read it: %v", shown, unwrapPath(err))
	}
	if len(data) > maxThemeFile {
		return Palette{}, fmt.Errorf("%s: larger than %d KiB; a theme file is one line per colour", shown, maxThemeFile>>10)
	}
	return parseTheme(data, name, shown)
}

// parseTheme reads a theme file's text; shown names it in errors.
func parseTheme(data []byte, name, shown string) (Palette, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return Palette{}, fmt.Errorf("%s:%d: invalid TOML: %s", shown, line, strings.TrimPrefix(de.Error(), "toml: "))
		}
		return Palette{}, fmt.Errorf("%s: invalid TOML: %v", shown, err)
	}
	at := func(key string) string { return fmt.Sprintf("%s:%d", shown, lineOf(data, key)) }
	base := Dark()
	if b, ok := doc["base"]; ok {
		s, _ := b.(string)
		p, ok := Builtin(s, true)
		if !ok || s == "auto" || s == "" {
			return Palette{}, fmt.Errorf("%s: key \"base\": want a built-in theme to start from: %s", at("base"), strings.Join(Builtins[1:], ", "))
		}
		base = p
	}
	hex := maps.Clone(base.hex)
	for _, key := range slices.Sorted(maps.Keys(doc)) {
		if key == "base" {
			continue
		}
		if !slices.Contains(Tokens, key) {
			msg := fmt.Sprintf("%s: unknown key %q", at(key), key)
			if s := nearestToken(key); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return Palette{}, fmt.Errorf("%s; the keys are base and %s", msg, strings.Join(Tokens, ", "))
		}
		v, ok := colorValue(doc[key])
		if !ok {
			return Palette{}, fmt.Errorf("%s: key %q: %s is not a colour; write \"#rrggbb\" or an ANSI number 0-255", at(key), key, shownValue(doc[key]))
		}
		hex[key] = v
	}
	return palette(name, base.Dark, hex), nil
}

// colorValue is a theme file's colour as lipgloss reads it: "#rrggbb" or
// "0" to "255"; false when it is neither.
func colorValue(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		if hexColor.MatchString(v) {
			return strings.ToUpper(v), true
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 255 && strconv.Itoa(n) == v {
			return v, true
		}
	case int64:
		if v >= 0 && v <= 255 {
			return strconv.FormatInt(v, 10), true
		}
	}
	return "", false
}

// shownValue writes a bad value for an error line, short and clean.
func shownValue(v any) string {
	s := fmt.Sprintf("%v", v)
	if str, ok := v.(string); ok {
		s = strconv.Quote(str)
	}
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

// lineOf is the line of data where key is set (1 when not found).
func lineOf(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		if m := keyAtLine.FindStringSubmatch(l); m != nil && strings.Trim(m[1], `"`) == key {
			return i + 1
		}
	}
	return 1
}

// nearestToken is the token one or two edits from key, or "".
func nearestToken(key string) string {
	for _, t := range Tokens {
		if distance(key, t) <= 2 {
			return t
		}
	}
	return ""
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// displayPath writes the home directory as ~.
func displayPath(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return path
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ansiHex is an ANSI colour number's usual RGB as "#RRGGBB" (xterm's
// table), for the HTML export; other values come back as they are.
func ansiHex(v string) string {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 255 {
		return v
	}
	base := [16][3]int{{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255}}
	var r, g, b int
	switch {
	case n < 16:
		r, g, b = base[n][0], base[n][1], base[n][2]
	case n < 232:
		c := func(i int) int {
			if i == 0 {
				return 0
			}
			return 55 + 40*i
		}
		n -= 16
		r, g, b = c(n/36), c(n/6%6), c(n%6)
	default:
		r = 8 + 10*(n-232)
		g, b = r, r
	}
	return fmt.Sprintf("#%02X%02X%02X", r, g, b)
}
