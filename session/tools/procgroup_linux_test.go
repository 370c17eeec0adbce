package tools

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// Cancelling kills the whole process group: the shell and the sleep it
// started in the background.
func TestCommandCancelKillsProcessGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pids := make(chan int, 1)
	var once sync.Once
	var buf strings.Builder
	h := Hooks{Output: func(c Call, chunk string, stderr bool) {
		buf.WriteString(chunk)
		if line, _, ok := strings.Cut(buf.String(), "\n"); ok {
			once.Do(func() {
				pid, _ := strconv.Atoi(line)
				pids <- pid
				cancel()
			})
		}
	}}
	f := Function{Name: "bg", Command: []string{"sleep 60 & echo $!; wait"}, Shell: true, Approval: ApproveNever}
	r := NewRunner(Config{Functions: []Function{f}}, nil, h)
	res := r.Run(ctx, []Call{{CallID: "call_1", Name: "bg", Arguments: "{}"}})[0]
	if res.Status != StatusCancelled || !strings.HasPrefix(res.Output, CancelledOutput) {
		t.Errorf("got %v %q, want cancelled %q", res.Status, res.Output, CancelledOutput)
	}
	pid := <-pids
	if !strings.Contains(res.Output, "its output so far:\n"+strconv.Itoa(pid)) {
		t.Errorf("the cancelled output lost what the command printed: %q", res.Output)
	}
	if pid <= 0 {
		t.Fatal("no pid from the command")
	}
	// The kill went to the group before Run returned; wait for the sleep to
	// exit through a pidfd (it is not our child). The timeout only guards
	// against a hang.
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // already gone
	}
	if err != nil {
		t.Fatalf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 10_000)
	if err != nil || n != 1 {
		t.Fatalf("background sleep %d still runs after the cancel (poll: %d, %v)", pid, n, err)
	}
}
