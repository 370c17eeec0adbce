//go:build unix

package attach

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReplacedByAFIFO: a file checked when it was attached and replaced by
// a FIFO (or a symlink to /dev/zero) before the message is sent is refused
// at once with one line; nothing waits for a writer or reads without end.
func TestReplacedByAFIFO(t *testing.T) {
	dir := t.TempDir()
	for name, replace := range map[string]func(string) error{
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		path := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Check(path, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		if err := replace(path); err != nil {
			t.Skipf("%s: %v", name, err)
		}
		_, err = Read([]*File{f}, Limits{}, nil)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := Check(path, Limits{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: check: %v", name, err)
		}
	}
}
