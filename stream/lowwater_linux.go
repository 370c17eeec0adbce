package stream

import (
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// socketMark sets rc's SO_RCVLOWAT, on kernels that wake a reader when the
// mark is lowered under what waits (4.18 and later); nil on older ones.
func socketMark(rc syscall.RawConn) func(n int) error {
	if !lowWaterSignals() {
		return nil
	}
	return func(n int) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, n)
		}); err != nil {
			return err
		}
		return serr
	}
}

// lowWaterSignals reports whether the kernel is 4.18 or later.
var lowWaterSignals = sync.OnceValue(func() bool {
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return false
	}
	var b strings.Builder
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		b.WriteByte(byte(c))
	}
	return kernelAtLeast(b.String(), 4, 18)
})

// kernelAtLeast reports whether a release such as "6.18.44-fc" is major.minor
// or later.
func kernelAtLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
