//go:build !linux

package stream

import "syscall"

// socketMark is nil where the kernel's wake on a lowered mark is not known:
// the pacer sleeps through its pauses.
func socketMark(syscall.RawConn) func(n int) error { return nil }
