//go:build !linux

package costtest

import "time"

// Now reads the clock costs are timed on: here the wall clock (Linux
// times the thread's CPU; see clock_linux.go).
func Now() time.Duration { return time.Duration(time.Now().UnixNano()) }
