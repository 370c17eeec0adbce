package images

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteCreatesPrivateFiles(t *testing.T) {
	d := NewDir(filepath.Join(t.TempDir(), "data", "images"))
	p, err := d.WriteImage("ig_1.png", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(d.Path(), "ig_1.png") {
		t.Errorf("path %s", p)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("file %v mode %v", err, info.Mode())
	}
	if dir, _ := os.Stat(d.Path()); dir.Mode().Perm()&0o077 != 0 {
		t.Errorf("directory mode %v", dir.Mode())
	}
	// The same name again never overwrites: the next free name is used.
	p2, err := d.WriteImage("ig_1.png", []byte("two"))
	if err != nil || filepath.Base(p2) != "ig_1-2.png" {
		t.Fatalf("second write: %s, %v", p2, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Errorf("first file overwritten: %q", b)
	}
}

// TestPlantedSymlinkNotFollowed: a symlink planted under the name an image
// will take, pointing at an existing file or at a missing one, is neither
// followed nor replaced.
func TestPlantedSymlinkNotFollowed(t *testing.T) {
	base := t.TempDir()
	d := NewDir(filepath.Join(base, "images"))
	if err := os.Mkdir(d.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim")
	os.WriteFile(victim, []byte("precious"), 0o600)
	missing := filepath.Join(base, "created-through-link")
	os.Symlink(victim, filepath.Join(d.Path(), "ig_a.png"))
	os.Symlink(missing, filepath.Join(d.Path(), "ig_b.png"))
	for _, name := range []string{"ig_a.png", "ig_b.png"} {
		p, err := d.WriteImage(name, []byte("IMAGE"))
		if err != nil {
			t.Fatal(err)
		}
		if info, err := os.Lstat(p); err != nil || !info.Mode().IsRegular() {
			t.Errorf("%s: wrote %s (%v), not a new regular file", name, p, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Error("a file was created through a dangling symlink")
	}
}

// TestRefusesUnsafeDirectory: the images directory itself as a symlink, a
// file, or writable by others is refused with one line naming it.
func TestRefusesUnsafeDirectory(t *testing.T) {
	base := t.TempDir()
	elsewhere := filepath.Join(base, "elsewhere")
	os.Mkdir(elsewhere, 0o700)
	link := filepath.Join(base, "link")
	os.Symlink(elsewhere, link)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	for _, c := range []struct{ dir, want string }{
		{link, "symbolic link"}, {file, "not a folder"}, {open, "other users may write"},
	} {
		_, err := NewDir(c.dir).WriteImage("x.png", []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.dir) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", c.dir, err)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Error("an image was written through the symlinked directory")
	}
	if _, err := NewDir(base).WriteImage("../x.png", nil); err == nil {
		t.Error("a name with a path was accepted")
	}
}

func TestOffWritesNothing(t *testing.T) {
	var s Sink = Off("not asked to")
	p, err := s.WriteImage("x.png", []byte("x"))
	var off Off
	if p != "" || !errors.As(err, &off) || err.Error() != "not asked to" {
		t.Errorf("Off wrote %q, %v", p, err)
	}
}

func TestFileName(t *testing.T) {
	for _, c := range []struct{ id, key, format, want string }{
		{"ig_1", "final", "png", "ig_1.png"},
		{"ig_1", "partial-2", "jpg", "ig_1-partial-2.jpeg"},
		{"../../etc/x", "final", "exe", "______etc_x.png"},
		{"", "final", "", "image.png"},
	} {
		if got := FileName(c.id, c.key, c.format); got != c.want {
			t.Errorf("FileName(%q, %q, %q) = %q, want %q", c.id, c.key, c.format, got, c.want)
		}
	}
}
