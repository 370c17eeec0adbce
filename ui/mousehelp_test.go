package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHelpSaysHowToSelectText: runnel takes the mouse for the wheel, which
// keeps a plain drag from selecting text; "?" says how to select anyway,
// at every width the overlay packs for, without naming one terminal.
func TestHelpSaysHowToSelectText(t *testing.T) {
	t.Parallel()
	st := newTestModel(t, Options{}).frame.styles
	for _, w := range []int{60, 80, 100, 140} {
		v := ansi.Strip(HelpView(w, st, DefaultKeyMap()))
		for _, want := range append([]string{"Mouse"}, mouseHelp...) {
			if !strings.Contains(v, want) {
				t.Errorf("%d columns: ? lacks %q:\n%s", w, want, v)
			}
		}
	}
	if got := strings.Join(mouseHelp, " "); got != "The wheel scrolls; a drag copies the source. For the terminal's own selection, press f2, or drag with shift held (option or alt in some terminals)." {
		t.Errorf("the mouse help reads %q", got)
	}
}
