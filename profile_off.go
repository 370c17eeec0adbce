//go:build !pprof

package main

// startProfile profiles nothing: a build with -tags pprof reads
// RUNNEL_CPUPROFILE (profile.go), so the profiler is not in the binary
// users run.
func startProfile(func(string) string) (stop func()) { return func() {} }
