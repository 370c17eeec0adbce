package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the cause of a NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError says what a path named instead of a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Describe(e.Mode))
}

func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// TooLargeError says that a file holds more than a read allows.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Limit)
}

// Describe names a file's type for a message: "a directory", "a named
// pipe (FIFO)", "a device", …
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Open opens path for reading, following symlinks, without blocking on a
// FIFO, and returns it with its fstat info when it is a regular file; a
// *NotRegularError (closed) otherwise.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// ReadFile reads a regular file whole, at most limit bytes (limit <= 0: no
// bound); a longer file is a *TooLargeError and nothing is returned. The
// bound holds even when the file grows while it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if limit > 0 && fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}
