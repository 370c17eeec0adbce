package images

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir writes images into one directory, created (0700) on the first write.
//
// Invariants: path is absolute or as the caller gave it, and is never
// written through a symlink; a file is only ever created, never opened
// existing, so nothing in the directory is overwritten.
type Dir struct {
	path string
}

// NewDir returns the Sink writing into path (normally <data-dir>/images).
// Nothing is touched until the first image.
func NewDir(path string) *Dir { return &Dir{path: path} }

// Path is the directory images go to.
func (d *Dir) Path() string { return d.path }

// maxTries bounds the numbered names tried when a name is taken.
const maxTries = 100

// WriteImage creates a new file named name (or name-2, name-3, … when it is
// taken) in the directory, writes data and returns its path.
func (d *Dir) WriteImage(name string, data []byte) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return "", fmt.Errorf("cannot save image %q: not a plain file name", name)
	}
	root, err := d.open()
	if err != nil {
		return "", err
	}
	defer root.Close()
	for n := 1; n <= maxTries; n++ {
		try := name
		if n > 1 {
			try = numbered(name, n)
		}
		f, err := root.OpenFile(try, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // a file, or a planted symlink: never followed, never replaced
		}
		if err != nil {
			return "", fmt.Errorf("cannot save image in %s: %v", d.path, unwrap(err))
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			root.Remove(try)
			return "", fmt.Errorf("cannot save image in %s: %v", d.path, unwrap(werr))
		}
		return filepath.Join(d.path, try), nil
	}
	return "", fmt.Errorf("cannot save image in %s: %s and %d numbered names are taken — move some images away", d.path, name, maxTries)
}

// open creates the directory if needed, checks it, and opens it as a root
// that no path resolved inside can leave.
func (d *Dir) open() (*os.Root, error) {
	if err := os.MkdirAll(filepath.Dir(d.path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create %s for images: %v", filepath.Dir(d.path), unwrap(err))
	}
	if err := os.Mkdir(d.path, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("cannot create %s for images: %v", d.path, unwrap(err))
	}
	info, err := os.Lstat(d.path)
	if err != nil {
		return nil, fmt.Errorf("cannot use %s for images: %v", d.path, unwrap(err))
	}
	if err := d.check(info); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(d.path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s for images: %v", d.path, unwrap(err))
	}
	// The directory opened must be the one checked: not swapped for a
	// symlink in between.
	if now, err := root.Stat("."); err != nil || !os.SameFile(info, now) {
		root.Close()
		return nil, fmt.Errorf("cannot use %s for images: it changed while being opened — try again", d.path)
	}
	return root, nil
}

// check refuses a directory images must not be written into.
func (d *Dir) check(info fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("will not save images in %s: it is a symbolic link — remove it, and runnel creates the folder itself", d.path)
	case !info.IsDir():
		return fmt.Errorf("will not save images in %s: it is not a folder — move it away", d.path)
	case !ownedByMe(info):
		return fmt.Errorf("will not save images in %s: another user owns it — remove it, or pass --data-dir", d.path)
	case info.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("will not save images in %s: other users may write to it — chmod 700 it", d.path)
	}
	return nil
}

// unwrap drops the operation and path of a *PathError (the message names
// the path itself).
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
