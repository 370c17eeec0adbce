package ui

import (
	"os"
	"testing"
)

// TestMain runs the package's tests as if outside tmux, whatever terminal
// runs them: a copy never asks the machine's tmux (TestCopyInsideTmux
// injects tmux's answers).
func TestMain(m *testing.M) {
	systemClipboard = &clipboard{}
	os.Exit(m.Run())
}
