//go:build linux

package main

// The chat's latency tests time what the chat does on its own CPU clock:
// the wall clock between a key and the screen is stretched by a busy
// machine (a process that is flooded gets its share of two cores, not a
// core), and a latency bound in wall time is decided by the load beside the
// test. The CPU time runnel spends between the two moments is not: a chat
// that answers esc at once spends a frame's worth; one that first works
// through what it has queued spends seconds.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat (USER_HZ, 100 on
// every Linux).
const userHZ = 100

// procTimes reads the CPU time the process pid has used (user and system,
// all its threads) and the CPU time of its children it has waited for.
func procTimes(pid int) (own, children time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// the fields after the command's name (which may hold spaces) in
	// parentheses: state is the 3rd field, utime the 14th, cstime the 17th
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	var ticks [4]int64
	for i := range ticks {
		if ticks[i], err = strconv.ParseInt(f[11+i], 10, 64); err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
		}
	}
	tick := time.Second / userHZ
	return time.Duration(ticks[0]+ticks[1]) * tick, time.Duration(ticks[2]+ticks[3]) * tick, nil
}

// cpuOf is the CPU time the running process pid has used.
func cpuOf(t *testing.T, pid int) time.Duration {
	t.Helper()
	own, _, err := procTimes(pid)
	if err != nil {
		t.Fatal(err)
	}
	return own
}

// waitedCPUOf is the CPU time of the children the process pid has waited
// for: for a pane's shell, that of the runnel it ran, once it has exited.
func waitedCPUOf(t *testing.T, pid int) time.Duration {
	t.Helper()
	_, children, err := procTimes(pid)
	if err != nil {
		t.Fatal(err)
	}
	return children
}
