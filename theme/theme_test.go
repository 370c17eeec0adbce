package theme

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
)

func TestPalettesDiffer(t *testing.T) {
	if Dark().Hex("fg") == Light().Hex("fg") || !Dark().Dark || Light().Dark {
		t.Error("dark and light palettes must differ")
	}
	if Pick(true, false, "light").Name != "light" || Pick(false, false, "auto").Name != "light" || Pick(true, false, "").Name != "dark" || Pick(true, true, "dark").Name != "none" {
		t.Error("Pick precedence: NO_COLOR, then override, then background")
	}
}

func TestNoColorHasNoColourCodes(t *testing.T) {
	st := New(NoColor())
	for _, s := range []string{st.Error.Render("x"), st.PanelTitle.Render("x"), st.Link.Render("x"), st.Muted.Render("x")} {
		if strings.Contains(s, "38;") || strings.Contains(s, "48;") {
			t.Errorf("colour code in %q", s)
		}
	}
}

func TestGlamourRendersForEveryPalette(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), NoColor()} {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(New(p).Glamour()), glamour.WithWordWrap(60))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render("# Title\n\nSome **bold** and `code`.\n\n```go\nfunc main() {}\n```\n")
		if err != nil || !strings.Contains(out, "Title") || !strings.Contains(out, "main") {
			t.Errorf("%s: %v %q", p.Name, err, out)
		}
	}
}

func TestPanelBorderFits60Columns(t *testing.T) {
	st := New(Dark())
	box := st.Panel.Width(60).Render("a long line that must wrap inside the panel instead of overflowing it at sixty columns wide")
	for _, l := range strings.Split(box, "\n") {
		if w := lipglossWidth(l); w > 60 {
			t.Errorf("line %d wide: %q", w, l)
		}
	}
}
