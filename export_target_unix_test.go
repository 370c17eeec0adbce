//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestExportRefusesSpecialTargets: `sessions export -o` never turns a
// device, a FIFO or a symlink to one into a regular file (as root, -o
// /dev/full replaced the machine's /dev/full): it says so in one line and
// leaves the target as it was; a symlink to a file is written through, as a
// shell redirect writes, which is what the chat's /export does too.
func TestExportRefusesSpecialTargets(t *testing.T) {
	dir := seedHistory(t, sessionFixture(t, "weather.json"))
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	full := filepath.Join(tmp, "full")
	os.Symlink("/dev/full", full)
	for _, target := range []string{fifo, full} {
		before, _ := os.Lstat(target)
		_, errs, code := historyRun(t, dir, "", false, "export", "0k3m9xq4ab", "-o", target)
		if code != exitFailure {
			t.Errorf("%s: status %d", target, code)
		}
		oneLineError(t, errs, target, "not a regular file", "-o")
		if after, _ := os.Lstat(target); after.Mode() != before.Mode() {
			t.Errorf("%s: changed from %v to %v", target, before.Mode(), after.Mode())
		}
	}
	real := filepath.Join(tmp, "real.md")
	os.WriteFile(real, nil, 0o600)
	link := filepath.Join(tmp, "link.md")
	os.Symlink(real, link)
	if _, errs, code := historyRun(t, dir, "", false, "export", "0k3m9xq4ab", "-o", link); code != exitOK {
		t.Fatalf("through a link: %d %s", code, errs)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(real); len(b) == 0 {
		t.Error("nothing was written through the link")
	}
}

// TestImportRefusesAFIFO: `sessions import` of a FIFO (or a symlink to
// /dev/zero) says so in one line at once, instead of waiting for a writer
// or reading until memory runs out.
func TestImportRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	os.Symlink("/dev/zero", zero)
	for _, p := range []string{fifo, zero} {
		_, errs, code := historyRun(t, dir, "", false, "import", p)
		if code != exitUsage {
			t.Errorf("%s: status %d", p, code)
		}
		oneLineError(t, errs, p, "not a regular file")
	}
}
