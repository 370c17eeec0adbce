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
// (profile_off.go otherwise). Unset, nothing is profiled. memProfileEnv
// names a file for the heap profile at exit (alloc_space: what the whole
// life allocated, which is what the garbage collector paid for).
const (
	profileEnv    = "RUNNEL_CPUPROFILE"
	memProfileEnv = "RUNNEL_MEMPROFILE"
)

// startProfile starts the CPU profile profileEnv asks for and returns what
// stops it; a profile that cannot start says so in one line on stderr and
// the command runs unprofiled.
func startProfile(getenv func(string) string) (stop func()) {
	stopCPU := startCPUProfile(getenv(profileEnv))
	mem := getenv(memProfileEnv)
	return func() {
		stopCPU()
		if mem != "" {
			writeHeapProfile(mem)
		}
	}
}

// writeHeapProfile writes the heap profile to path; a failure says so in
// one line on stderr.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "runnel: %s: no heap profile: %v\n", memProfileEnv, err)
	}
}

// startCPUProfile starts a CPU profile written to path, unless path is "".
func startCPUProfile(path string) (stop func()) {
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
