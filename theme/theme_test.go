package theme

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
)

var tokens = []string{"fg", "muted", "subtle", "accent", "accent2", "user", "assistant",
	"reasoning", "tool", "success", "warning", "error", "border", "selection", "link", "codebg"}

func TestPalettesDiffer(t *testing.T) {
	d, l := Dark(), Light()
	for _, tok := range tokens {
		if d.Hex(tok) == "" || l.Hex(tok) == "" {
			t.Errorf("token %q missing: dark %q, light %q", tok, d.Hex(tok), l.Hex(tok))
		}
		if d.Hex(tok) == l.Hex(tok) {
			t.Errorf("token %q is %s in both palettes", tok, d.Hex(tok))
		}
	}
	if !d.Dark || l.Dark || d.NoColor || l.NoColor || !NoColor().NoColor {
		t.Error("palette flags wrong")
	}
}

func TestPickPrecedence(t *testing.T) {
	cases := []struct {
		dark, noColor bool
		override      string
		want          string
	}{
		{true, false, "", "dark"},
		{false, false, "", "light"},
		{false, false, "auto", "light"},
		{true, false, "auto", "dark"},
		{true, false, "light", "light"},
		{false, false, "dark", "dark"},
		{true, true, "dark", "none"},
		{false, true, "", "none"},
	}
	for _, c := range cases {
		if got := Pick(c.dark, c.noColor, c.override).Name; got != c.want {
			t.Errorf("Pick(%v, %v, %q) = %s, want %s", c.dark, c.noColor, c.override, got, c.want)
		}
	}
}

// styleFields returns every lipgloss style in st, by field name.
func styleFields(st Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(st)
	for i := 0; i < v.NumField(); i++ {
		if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = s
		}
	}
	return out
}

// colourParam reports an SGR parameter in s that sets a colour (30-38,
// 40-48, 90-97, 100-107, 58), or "".
func colourParam(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return ""
		}
		s = s[i+2:]
		end := strings.IndexAny(s, "ABCDEFGHJKSTfmnsu")
		if end < 0 {
			return ""
		}
		if s[end] == 'm' {
			for _, p := range strings.Split(s[:end], ";") {
				switch {
				case len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') && p[1] >= '0' && p[1] <= '8',
					len(p) == 3 && strings.HasPrefix(p, "10") && p[2] >= '0' && p[2] <= '7',
					p == "58":
					return p
				}
			}
		}
		s = s[end+1:]
	}
}

func TestNoColorStylesHaveNoColour(t *testing.T) {
	fields := styleFields(New(NoColor()))
	if len(fields) < 30 {
		t.Fatalf("found only %d styles", len(fields))
	}
	for name, s := range fields {
		if p := colourParam(s.Render("x")); p != "" {
			t.Errorf("%s renders colour parameter %s: %q", name, p, s.Render("x"))
		}
	}
	// Emphasis survives where it is harmless.
	if out := New(NoColor()).Error.Render("x"); !strings.Contains(out, "\x1b[1m") {
		t.Errorf("NoColor Error lost its bold: %q", out)
	}
}

func TestColourStylesHaveColour(t *testing.T) {
	st := New(Dark())
	for _, name := range []string{"Error", "Link", "PanelTitle", "StatusModel", "User"} {
		if p := colourParam(styleFields(st)[name].Render("x")); p == "" {
			t.Errorf("dark %s has no colour", name)
		}
	}
}

const sample = "# Title\n\nSome **bold**, *italic*, `code` and a [link](https://example.com).\n\n" +
	"- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc main() {}\n```\n"

func TestGlamourRendersForEveryPalette(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), NoColor()} {
		cfg := New(p).Glamour()
		if m := cfg.Document.Margin; m == nil || *m != 0 {
			t.Errorf("%s: document margin %v, want 0", p.Name, m)
		}
		r, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(60))
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		out, err := r.Render(sample)
		if err != nil {
			t.Fatalf("%s: render: %v", p.Name, err)
		}
		for _, want := range []string{"Title", "bold", "main", "example.com"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q missing from %q", p.Name, want, out)
			}
		}
		if c := colourParam(out); (c == "") != p.NoColor {
			t.Errorf("%s: colour parameter %q in markdown (NoColor %v)", p.Name, c, p.NoColor)
		}
	}
}

func TestPanelBorderFits60Columns(t *testing.T) {
	st := New(Dark())
	box := st.Panel.Width(60).Render("a long line that must wrap inside the panel instead of overflowing it at sixty columns wide")
	lines := strings.Split(box, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "\x1b") && !strings.HasPrefix(lines[0], "╭") {
		t.Errorf("unexpected panel %q", box)
	}
	for _, l := range lines {
		if w := lipgloss.Width(l); w > 60 {
			t.Errorf("row %d columns wide: %q", w, l)
		}
	}
}

// TestHTMLPage: the export page's look comes from the palette (its
// colours in the sheet, a chroma style for code), NO_COLOR gives the light
// one, and the sheet loads nothing.
func TestHTMLPage(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), NoColor()} {
		h := HTML(p)
		want := p
		if p.NoColor {
			want = Light()
		}
		if h.Code == nil || !strings.Contains(h.CSS, want.hex["link"]) || !strings.Contains(h.CSS, want.hex["fg"]) {
			t.Errorf("%s: code style %v, sheet:\n%s", p.Name, h.Code, h.CSS)
		}
		if strings.Contains(h.CSS, "$") || strings.Contains(h.CSS, "url(") || strings.Contains(h.CSS, "@import") || strings.Contains(h.CSS, "</") {
			t.Errorf("%s: the sheet has an unreplaced token or loads something:\n%s", p.Name, h.CSS)
		}
	}
	if HTML(Dark()).Code.Name == HTML(Light()).Code.Name {
		t.Error("dark and light pages share a code style")
	}
}

// TestGlamourColoursFromThePalette: every colour the markdown style holds
// is one of the palette's, for every built-in theme and a theme file's: no
// colour of glamour's own styles leaks through.
func TestGlamourColoursFromThePalette(t *testing.T) {
	custom, err := parseTheme([]byte("base = \"light\"\nfg = \"#010203\"\naccent = 33\ncodebg = \"236\"\n"), "mine", "mine.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Palette{Dark(), Light(), HighContrast(), Solarized(), custom} {
		allowed := map[string]bool{}
		for _, tok := range Tokens {
			allowed[p.Hex(tok)], allowed[ansiHex(p.Hex(tok))] = true, true // chroma's: as hex
		}
		var walk func(v reflect.Value, path string)
		walk = func(v reflect.Value, path string) {
			switch v.Kind() {
			case reflect.Pointer:
				if v.IsNil() {
					return
				}
				if v.Elem().Kind() == reflect.String && (strings.HasSuffix(path, "Color") || strings.HasSuffix(path, "BackgroundColor")) {
					if c := v.Elem().String(); !allowed[c] {
						t.Errorf("%s: %s = %q is not a palette colour", p.Name, path, c)
					}
					return
				}
				walk(v.Elem(), path)
			case reflect.Struct:
				for i := range v.NumField() {
					if v.Type().Field(i).IsExported() {
						walk(v.Field(i), path+"."+v.Type().Field(i).Name)
					}
				}
			}
		}
		walk(reflect.ValueOf(New(p).Glamour()), "StyleConfig")
		// and it renders, code included (chroma takes no ANSI numbers)
		r, err := glamour.NewTermRenderer(glamour.WithStyles(New(p).Glamour()))
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if _, err := r.Render("# T\n\n```go\nfunc main() { println(1) }\n```\n"); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}
