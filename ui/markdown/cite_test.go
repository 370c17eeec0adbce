package markdown

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// TestCiteLinkShowsItsTextOnly: a link titled CiteTitle (a citation marker)
// draws as its text, hyperlinked to its destination, without the URL after
// it; any other link keeps its URL.
func TestCiteLinkShowsItsTextOnly(t *testing.T) {
	r, err := NewRenderer(theme.New(theme.Dark()).Glamour(), 60)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(`Paris is the capital. [\[1\]](<https://a.example/p?x=1> "` + CiteTitle + `") See [site](https://b.example/).`)
	if err != nil {
		t.Fatal(err)
	}
	vis := strings.TrimSpace(xansi.Strip(out))
	if want := "Paris is the capital. [1] See site https://b.example/."; vis != want {
		t.Errorf("got %q, want %q", vis, want)
	}
	if !strings.Contains(out, xansi.SetHyperlink("https://a.example/p?x=1")) {
		t.Errorf("the marker is not a hyperlink: %q", out)
	}
}
