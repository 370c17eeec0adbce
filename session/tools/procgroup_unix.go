//go:build unix

package tools

// This file is a command's process tree on Unix: a process group of its
// own, signalled whole.

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own: the terminal's ^C is
// runnel's to handle, and a shell's children can be stopped with it.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// joinGroup does nothing on Unix: the process leads its group from the
// start (ownGroup).
func joinGroup(int) {}

// releaseGroup does nothing on Unix: a group needs no handle.
func releaseGroup(int) {}

// killGroup signals the process group led by pid: SIGKILL when hard, else
// SIGTERM.
func killGroup(pid int, hard bool) error {
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-pid, sig)
}
