//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWritePrivate: a new file and an existing one are written whole and
// private; a symlink is written through (the link stays a link); a FIFO, a
// symlink to a device, a directory and a dangling link are refused and
// left as they were.
func TestWritePrivate(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.md")
	if err := WritePrivate(fresh, []byte("one")); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.md")
	os.WriteFile(old, []byte("before"), 0o644)
	link := filepath.Join(dir, "link.md")
	os.Symlink(old, link)
	if err := WritePrivate(link, []byte("through the link")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(old); string(b) != "through the link" {
		t.Errorf("the file the link names holds %q", b)
	}
	for _, p := range []string{fresh, old} {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", p, fi.Mode().Perm())
		}
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	null := filepath.Join(dir, "null")
	os.Symlink("/dev/null", null)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere", "x"), dangling)
	for _, p := range []string{fifo, null, dir, dangling} {
		before, _ := os.Lstat(p)
		err := WritePrivate(p, []byte("x"))
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want refused", p, err)
		}
		if after, _ := os.Lstat(p); after.Mode() != before.Mode() {
			t.Errorf("%s: changed from %v to %v", p, before.Mode(), after.Mode())
		}
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device")
	}
}
