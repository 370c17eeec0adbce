package tools

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuildsForWindows: the tools, which start process groups and signal
// them, build for Windows too (Setpgid and Kill are Unix-only; see
// procgroup_*.go). It compiles this package for Windows.
func TestBuildsForWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not cross-compiling for Windows")
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build: %v\n%s", err, out)
	}
}
