package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WritePrivate writes data to path where a shell redirect would land it,
// but whole or not at all: a symlink is followed to the file it names,
// which must be a regular file or not exist yet; the data goes to a
// temporary file beside it, readable by its owner only (0600, even when
// the file had wider permissions), which then takes its place, so a failure
// leaves the old file whole. A device, a FIFO, a socket, a directory or a
// dangling symlink is refused with a *NotRegularError and left as it was:
// an export never replaces /dev/null.
func WritePrivate(path string, data []byte) error {
	target := path
	resolved, err := filepath.EvalSymlinks(path)
	switch {
	case err == nil:
		target = resolved
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	fi, err := os.Lstat(target)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return &NotRegularError{Path: path, Mode: fi.Mode()}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	return err
}
