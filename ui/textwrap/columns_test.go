package textwrap

import (
	"strings"
	"testing"
)

// TestColumns: a table that fits is left to lipgloss (all zeros); one too
// wide gets widths that fill the width and keep the URL column at least
// as wide as its URL, the other column at least MinColumn; when even that
// cannot be, the widths are shared by content and still fill the width.
func TestColumns(t *testing.T) {
	url := "https://example.com/a-long-path/with-hyphens"
	long := strings.Repeat("words that wrap ", 6)
	if got := Columns([][]string{{"a", "b"}, {"1", "2"}}, 40, 2); got[0] != 0 || got[1] != 0 {
		t.Errorf("a table that fits got widths %v", got)
	}
	got := Columns([][]string{{"name", "link"}, {long, "see " + url}}, 70, 2)
	if got[1]-2 < len(url) || got[0]-2 < MinColumn || got[0]+got[1]+1 != 70 {
		t.Errorf("widths %v: want the URL (%d) whole, the other column ≥ %d, 70 in all", got, len(url), MinColumn)
	}
	got = Columns([][]string{{"name", "link"}, {long, url}}, 40, 2)
	if got[0] == 0 || got[0]+got[1]+1 != 40 {
		t.Errorf("widths %v: a URL that cannot fit still gets a layout filling 40", got)
	}
	if got := Columns([][]string{{"a", "b", "c"}}, 4, 2); got[0] != 0 {
		t.Errorf("a width too narrow for the columns got widths %v", got)
	}
}
