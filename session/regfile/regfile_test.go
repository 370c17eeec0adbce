//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRefusesWhatIsNotARegularFile: a FIFO with no writer, a symlink to a
// character device, a directory: each is refused at once with a line
// naming what it is; nothing blocks (the test would hang on the FIFO) or
// reads without end (the device).
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "a named pipe (FIFO)", zero: "a character device", dir: "a directory"} {
		_, err := ReadFile(path, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

// TestReadFileIsBounded: a file over the limit is refused whole; one at the
// limit is read.
func TestReadFileIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 100); err != nil || len(b) != 100 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	var tl *TooLargeError
	if b, err := ReadFile(path, 99); !errors.As(err, &tl) || b != nil {
		t.Errorf("over the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}
