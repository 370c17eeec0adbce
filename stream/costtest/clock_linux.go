//go:build linux

package costtest

import (
	"time"

	"golang.org/x/sys/unix"
)

// Now reads the clock costs are timed on: the CPU time of the calling
// thread (sample locks the goroutine to it), which a busy machine cannot
// stretch by preempting the test: time spent waiting for a core is not
// counted. It falls back to the wall clock if the kernel refuses.
func Now() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ts.Nano())
}
