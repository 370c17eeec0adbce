package theme

import (
	"os"

	"charm.land/lipgloss/v2"
)

// DetectDark asks the terminal on in/out whether its background is dark (for
// output outside the chat, which asks Bubble Tea instead). It answers true
// when it cannot tell.
func DetectDark(in, out *os.File) bool {
	return lipgloss.HasDarkBackground(in, out)
}
