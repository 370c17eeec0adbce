//go:build windows

package main

import (
	"errors"
	"os"
	"syscall"
)

// mkfifo fails: Windows has no named pipes in the file system.
func mkfifo(string) error { return errors.New("no FIFOs on Windows") }

// sendSignal fails: Windows cannot send a signal to another process.
func sendSignal(int, syscall.Signal) error { return errors.New("no signals on Windows") }

// peakRSS is unknown on Windows: the tests that need it skip.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }
