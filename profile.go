//go:build pprof

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileEnv names a file the process writes a CPU profile of its whole
// life to (go tool pprof reads it): for measuring the real TUI in
// ../shared/bench, not a user-facing knob; only in a build with -tags pprof
// (profile_off.go otherwise). Unset, nothing is profiled.
const profileEnv = "RUNNEL_CPUPROFILE"

// startProfile starts the CPU profile profileEnv asks for and returns what
// stops it; a profile that cannot start says so in one line on stderr and
// the command runs unprofiled.
func startProfile(getenv func(string) string) (stop func()) {
	path := getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "runnel: %s: no CPU profile: %v\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
