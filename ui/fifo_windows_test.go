//go:build windows

package ui

import "errors"

// mkfifo fails: Windows has no named pipes in the file system.
func mkfifo(string) error { return errors.New("no FIFOs on Windows") }
