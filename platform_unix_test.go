//go:build unix

// This file holds what the tests need that only Unix has: FIFOs, signals
// to another process, peak memory.

package main

import (
	"os"
	"syscall"
)

// mkfifo makes a named pipe at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// sendSignal sends sig to the process pid.
func sendSignal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// peakRSS is the peak resident set size of the process that ended, in KiB
// (Linux's unit; macOS counts bytes).
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return ru.Maxrss, true
}
