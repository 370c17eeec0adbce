//go:build windows

package tools

// This file is a command's process tree on Windows, which has no process
// groups to signal: each started command is put in a job object of its
// own, and stopping it terminates the job, so whatever the command started
// ends with it. The job is made with KILL_ON_JOB_CLOSE: when runnel closes
// it (releaseGroup, after the command was waited for) or dies, what the
// command left running is ended too.
//
// A child the command starts in the instant between its creation and
// joinGroup is outside the job; in practice a process cannot start another
// that fast. Windows has no SIGTERM: every stop is a hard one.

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobs are the job objects of the running commands, by process id.
//
// Invariants: a handle is in m from joinGroup until releaseGroup closes
// it; m is only touched with mu held.
var jobs = struct {
	mu sync.Mutex
	m  map[int]windows.Handle
}{m: map[int]windows.Handle{}}

// ownGroup starts cmd in a process group of its own, so the console's
// ctrl+c is runnel's to handle.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// joinGroup puts the started process pid in a new job object. Should that
// fail, killGroup ends the process alone, as it would without jobs.
func joinGroup(pid int) {
	job, err := newJob()
	if err != nil {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		windows.CloseHandle(job)
		return
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return
	}
	jobs.mu.Lock()
	if old, ok := jobs.m[pid]; ok { // a pid reused before its job was released
		windows.CloseHandle(old)
	}
	jobs.m[pid] = job
	jobs.mu.Unlock()
}

// newJob makes a job object whose processes end when its last handle is
// closed.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// releaseGroup closes pid's job once the process was waited for: what it
// left running ends (KILL_ON_JOB_CLOSE).
func releaseGroup(pid int) {
	jobs.mu.Lock()
	job, ok := jobs.m[pid]
	delete(jobs.m, pid)
	jobs.mu.Unlock()
	if ok {
		windows.CloseHandle(job)
	}
}

// killGroup ends the process pid and everything in its job. Windows has
// no gentle signal for a console program without a console of its own:
// hard or not, the processes are terminated.
func killGroup(pid int, _ bool) error {
	jobs.mu.Lock()
	job, ok := jobs.m[pid]
	var err error = windows.ERROR_INVALID_HANDLE
	if ok { // under the lock: releaseGroup cannot close it meanwhile
		err = windows.TerminateJobObject(job, 1)
	}
	jobs.mu.Unlock()
	if err == nil {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
