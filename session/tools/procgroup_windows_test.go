//go:build windows

package tools

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// TestKillGroupEndsTheTree (Windows only): a command that started a child
// (cmd.exe running ping) is stopped with everything in its job: killGroup
// ends both processes, not just the one runnel started.
func TestKillGroupEndsTheTree(t *testing.T) {
	cmd := exec.Command("cmd.exe", "/c", "ping -n 60 127.0.0.1")
	ownGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	joinGroup(cmd.Process.Pid)
	defer releaseGroup(cmd.Process.Pid)
	r := bufio.NewReader(out)
	for line := ""; strings.TrimSpace(line) == ""; { // ping's first line: the child runs
		if line, err = r.ReadString('\n'); err != nil {
			t.Fatalf("no output from ping: %v", err)
		}
	}
	jobs.mu.Lock()
	job := jobs.m[cmd.Process.Pid]
	jobs.mu.Unlock()
	if job == 0 {
		t.Fatal("the command is in no job")
	}
	pids := jobPids(t, job)
	if len(pids) < 2 {
		t.Fatalf("job holds %v; want cmd.exe and ping", pids)
	}
	if err := killGroup(cmd.Process.Pid, false); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
		if err != nil {
			continue // already gone
		}
		ev, _ := windows.WaitForSingleObject(h, 10_000) // a failure guard, not a wait for timing
		windows.CloseHandle(h)
		if ev != windows.WAIT_OBJECT_0 {
			t.Errorf("process %d outlived killGroup", pid)
		}
	}
	_ = cmd.Wait()
}

// jobPids lists the processes in job.
func jobPids(t *testing.T, job windows.Handle) []uintptr {
	t.Helper()
	var list struct { // JOBOBJECT_BASIC_PROCESS_ID_LIST with room for 64
		assigned, inList uint32
		pids             [64]uintptr
	}
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil); err != nil {
		t.Fatal(err)
	}
	return list.pids[:min(int(list.inList), len(list.pids))]
}
