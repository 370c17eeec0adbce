package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestUIKnowsNoCobra: the command line is main's. No package under ui/
// imports cobra, directly or through another package: ui/sessions and
// ui/modellist print, main builds the commands and their flags.
func TestUIKnowsNoCobra(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./ui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "spf13/cobra") || strings.Contains(p, "spf13/pflag") {
			t.Errorf("a package under ui/ depends on %s", p)
		}
	}
	if !strings.Contains(string(out), "runnel/ui/sessions") {
		t.Fatalf("go list did not list ui/sessions:\n%.500s", out)
	}
}
