package tools

import (
	"os"
	"os/exec"
	"testing"
)

// TestVetsForWindows: the tools, which start process groups (job objects
// on Windows, procgroup_*.go), build for Windows: the package and its
// Windows-only test type-check and pass go vet, for amd64 and arm64;
// nothing here can run them.
func TestVetsForWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not vetting for Windows")
	}
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			t.Parallel() // the two vets wait on the build cache and the go command as much as on a core
			cmd := exec.Command("go", "vet", ".")
			cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH="+arch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=windows GOARCH=%s go vet: %v\n%s", arch, err, out)
			}
		})
	}
}
