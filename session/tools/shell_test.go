package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunShell: a line runs through a shell in the directory given, with
// runnel's secrets out of its environment; stderr and the exit status are
// in the output; a cancelled command ends at once.
func TestRunShell(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("RUNNEL_TEST_SECRET", "hunter2")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "here.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := Config{SecretEnv: []string{"RUNNEL_TEST_SECRET"}}
	r := c.RunShell(context.Background(), `ls; echo "s=$RUNNEL_TEST_SECRET"; echo oops >&2; exit 3`, dir)
	if r.Status != StatusFailed || r.ExitCode != 3 {
		t.Errorf("status %v exit %d", r.Status, r.ExitCode)
	}
	for _, want := range []string{"here.txt", "s=\n", "[stderr]\noops", "[exit status 3]"} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Output)
		}
	}
	if strings.Contains(r.Output, "hunter2") {
		t.Errorf("the secret reached the command:\n%s", r.Output)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := c.RunShell(ctx, "sleep 30", dir); r.Status != StatusCancelled {
		t.Errorf("cancelled: %+v", r)
	}
	if r := c.RunShell(context.Background(), "printf hello", dir); r.Status != StatusOK || r.Output != "hello" {
		t.Errorf("printf: %+v", r)
	}
}
