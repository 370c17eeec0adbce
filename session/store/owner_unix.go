//go:build unix

package store

import (
	"errors"
	"syscall"
)

// pidAlive reports whether a process with this pid exists (where /proc is
// not available to check its start time).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
