//go:build unix

package images

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether this process's user owns the file.
func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
