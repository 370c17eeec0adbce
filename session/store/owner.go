package store

import (
	"os"
	"strconv"
	"strings"
)

// An owner names the process that streams a turn: "host/boot/pid/start",
// where boot is the kernel's boot id and start the process start time in
// clock ticks (both "" where /proc does not provide them). Together they tell
// a live writer from a dead one whose pid was reused.

// processOwner returns the owner string of this process.
func processOwner() string {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return strings.Join([]string{clean(host), bootID(), strconv.Itoa(pid), startTime(pid)}, "/")
}

// ownerAlive reports whether the process named by owner may still be running,
// as seen from the process named self. A process on another host cannot be
// checked and counts as alive; an owner that does not parse (rows written
// before owners were recorded) counts as dead.
func ownerAlive(self, owner string) bool {
	if owner == self {
		return true
	}
	o, ok := parseOwner(owner)
	if !ok {
		return false
	}
	s, _ := parseOwner(self)
	if o.host != s.host {
		return true
	}
	if o.boot != "" && s.boot != "" && o.boot != s.boot {
		return false
	}
	if st, ok := procStat(o.pid); ok {
		return st.state != "Z" && st.state != "X" && (o.start == "" || st.start == o.start)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		return false // /proc works here and has no such process
	}
	return pidAlive(o.pid)
}

type ownerParts struct {
	host, boot, start string
	pid               int
}

func parseOwner(s string) (ownerParts, bool) {
	f := strings.Split(s, "/")
	if len(f) != 4 {
		return ownerParts{}, false
	}
	pid, err := strconv.Atoi(f[2])
	if err != nil || pid <= 0 {
		return ownerParts{}, false
	}
	return ownerParts{host: f[0], boot: f[1], pid: pid, start: f[3]}, true
}

func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return clean(strings.TrimSpace(string(b)))
}

func startTime(pid int) string {
	st, _ := procStat(pid)
	return st.start
}

type stat struct{ state, start string }

// procStat reads the state and start time of pid from /proc/<pid>/stat.
func procStat(pid int) (stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces and parens
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); the start time is field 22.
	if len(f) < 20 {
		return stat{}, false
	}
	return stat{state: f[0], start: f[19]}, true
}

// clean keeps an owner field free of the separator.
func clean(s string) string { return strings.ReplaceAll(s, "/", "_") }
