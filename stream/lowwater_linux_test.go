package stream

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// tcpPair is a loopback connection: the reading end's raw socket and the
// writing end.
func tcpPair(t *testing.T) (r *net.TCPConn, w net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP: %v", err)
	}
	defer ln.Close()
	acc := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		acc <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w = <-acc
	if w == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); w.Close() })
	return c.(*net.TCPConn), w
}

// sockState reads, for the socket, how many bytes wait (SIOCINQ), its mark,
// and whether the kernel reports it readable (a level-triggered epoll of
// its own, not waiting).
func sockState(t *testing.T, c *net.TCPConn) (waiting, mark int, readable bool) {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	rc.Control(func(fd uintptr) {
		var n int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e != 0 {
			t.Fatalf("SIOCINQ: %v", e)
		}
		waiting = int(n)
		mark, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Close(ep)
		if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, int(fd), &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}); err != nil {
			t.Fatal(err)
		}
		ev := make([]syscall.EpollEvent, 1)
		n2, err := syscall.EpollWait(ep, ev, 0)
		if err != nil {
			t.Fatal(err)
		}
		readable = n2 > 0
	})
	return
}

// arrived waits until at least n bytes wait in c's socket (loopback
// delivery is not always done when write returns).
func arrived(t *testing.T, c *net.TCPConn, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if got, _, _ := sockState(t, c); got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes never arrived", n)
		}
	}
}

// held waits until the pacer has raised c's mark for its Read.
func held(t *testing.T, c *net.TCPConn) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, mark, _ := sockState(t, c); mark == lowWaterMark {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the pacer never held the socket")
		}
	}
}

func waterOf(t *testing.T, c *net.TCPConn) *lowWater {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	set := socketMark(rc)
	if set == nil {
		t.Skip("this kernel is older than 4.18: the pacer sleeps through its pauses")
	}
	return &lowWater{set: set, after: afterFunc, now: time.Now}
}

// TestLowWaterKernelHoldsTheTrickle: held, the deltas of a pause wait in
// the socket with nobody woken; a burst past the mark (the end of an
// answer) makes it readable at once; the pause's end makes what waits
// readable; released, the mark is one byte.
func TestLowWaterKernelHoldsTheTrickle(t *testing.T) {
	c, w := tcpPair(t)
	water := waterOf(t, c)
	delta := `data: {"type":"response.output_text.delta","delta":"abcd"}` + "\n\n"

	if !water.hold(time.Now().Add(time.Hour)) {
		t.Fatal("not held")
	}
	w.Write([]byte(strings.Repeat(delta, 10)))
	arrived(t, c, 10*len(delta))
	if n, mark, readable := sockState(t, c); readable || mark != lowWaterMark {
		t.Fatalf("held, %d bytes of deltas waiting: readable %v, mark %d", n, readable, mark)
	}
	w.Write([]byte(strings.Repeat("x", lowWaterMark)))
	arrived(t, c, 10*len(delta)+lowWaterMark)
	if _, _, readable := sockState(t, c); !readable {
		t.Fatal("a burst past the mark is not readable")
	}
	water.release()
	if _, mark, _ := sockState(t, c); mark != 1 {
		t.Fatalf("released: mark %d, want 1", mark)
	}
	buf := make([]byte, 64<<10)
	for got := 0; got < 10*len(delta)+lowWaterMark; {
		n, _ := c.Read(buf)
		got += n
	}

	water.hold(time.Now().Add(time.Hour))
	w.Write([]byte(delta))
	arrived(t, c, len(delta))
	if _, _, readable := sockState(t, c); readable {
		t.Fatal("one delta, held: readable")
	}
	water.drop() // the pause's end
	if _, mark, readable := sockState(t, c); !readable || mark != 1 {
		t.Fatalf("the pause's end: readable %v, mark %d", readable, mark)
	}
	water.release()
}

// TestPacedReadWakesForTheEnd: a paced reader held for an hour on a real
// socket reads the end of an answer as it comes, and a delta at the pause's
// end; after each Read the mark is one byte again.
func TestPacedReadWakesForTheEnd(t *testing.T) {
	c, w := tcpPair(t)
	water := waterOf(t, c)
	h, _ := newTestHandle(context.Background())
	p := &pacer{r: c, h: h, now: time.Now, water: water, pause: func(context.Context, time.Time) { t.Error("slept") }}
	read := func() chan string {
		got := make(chan string, 1)
		go func() {
			buf := make([]byte, 64<<10)
			n, _ := p.Read(buf)
			got <- string(buf[:n])
		}()
		return got
	}
	within := func(got chan string, what string) string {
		select {
		case s := <-got:
			return s
		case <-time.After(20 * time.Second): // a failure, not a measure
			t.Fatalf("%s: the reader was not woken", what)
			return ""
		}
	}

	p.slow, h.due = 2, time.Now().Add(time.Hour)
	got := read()
	held(t, c)
	end := `data: {"type":"response.output_text.done","text":"` + strings.Repeat("word ", 2000) + `"}` + "\n\n"
	w.Write([]byte(end))
	if s := within(got, "the end, held for an hour"); !strings.HasPrefix(end, s) || s == "" {
		t.Fatalf("read %d bytes that are not the end's start", len(s))
	}
	for rest := len(end); ; {
		if _, _, readable := sockState(t, c); !readable {
			break
		}
		n, _ := c.Read(make([]byte, 64<<10))
		rest -= n
	}
	if _, mark, _ := sockState(t, c); mark != 1 {
		t.Fatalf("after the Read: mark %d, want 1", mark)
	}

	p.slow, h.due = 2, time.Now().Add(time.Hour)
	got = read()
	delta := `data: {"type":"response.output_text.delta","delta":"abcd"}` + "\n\n"
	held(t, c)
	w.Write([]byte(delta))
	arrived(t, c, len(delta))
	water.drop() // what the pause's timer does at its end
	if s := within(got, "a delta at the pause's end"); s != delta {
		t.Fatalf("read %q", s)
	}
}

func TestKernelAtLeast(t *testing.T) {
	for _, c := range []struct {
		release string
		want    bool
	}{
		{"6.18.44-fc-v782", true}, {"4.18.0-553.el8.x86_64", true}, {"4.19", true}, {"5.0.1", true},
		{"4.17.19", false}, {"3.10.0-1160.el7.x86_64", false}, {"4.9.337-WSL", false}, {"", false}, {"x.y", false}, {"6", false},
	} {
		if got := kernelAtLeast(c.release, 4, 18); got != c.want {
			t.Errorf("kernelAtLeast(%q) = %v, want %v", c.release, got, c.want)
		}
	}
}

// TestStreamSocketFoundOverEveryTransport: a stream's body knows its
// socket over plain HTTP, TLS and HTTP/2, so its pacer holds instead of
// sleeping on each.
func TestStreamSocketFoundOverEveryTransport(t *testing.T) {
	sse := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}`+"\n\n")
	}
	for _, c := range []struct {
		name    string
		tls, h2 bool
	}{{"http", false, false}, {"https", true, false}, {"h2", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(sse))
			srv.EnableHTTP2 = c.h2
			if c.tls {
				srv.StartTLS()
			} else {
				srv.Start()
			}
			defer srv.Close()
			cl := &Client{BaseURL: srv.URL, APIKey: "sk-test", Transport: srv.Client().Transport}
			body, err := cl.Open(context.Background(), Request{Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			s, ok := body.(interface{ lowWater() *lowWater })
			if !ok || s.lowWater() == nil {
				if !lowWaterSignals() {
					t.Skip("this kernel is older than 4.18")
				}
				t.Fatalf("the %s stream's body has no socket hold", c.name)
			}
		})
	}
}

// writerEnv makes this test binary a paced writer (TestLowWaterSparesTheWakeUps):
// it dials the address in the variable and writes paceDeltas deltas to it,
// 2 ms apart, as a model streams.
const writerEnv = "RUNNEL_TEST_PACED_WRITER"

const paceDeltas = 200

func init() {
	addr := os.Getenv(writerEnv)
	if addr == "" {
		return
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		os.Exit(2)
	}
	delta := []byte(`data: {"type":"response.output_text.delta","delta":"abcd"}` + "\n\n")
	for range paceDeltas {
		if _, err := c.Write(delta); err != nil {
			os.Exit(2)
		}
		time.Sleep(2 * time.Millisecond) // the model's pace, not a test's timing
	}
	c.Close()
	os.Exit(0)
}

// TestLowWaterSparesTheWakeUps: a paced stream from another process (so the
// writer's own wake-ups are not counted), read through the pacer whose
// consumer takes a batch every 50 ms, wakes this process at least one time
// fewer for every other delta when its pauses hold the socket than when
// they sleep: sleeping, every delta that reached the socket woke the
// network poller. (A difference, not a ratio: the process's own start-up and
// its threads' parking add to both counts, more on a machine with more
// processors.) Wake-ups are the
// process's voluntary context switches (getrusage), a count, so a loaded
// machine does not decide it; the least of three runs of each, alternating.
func TestLowWaterSparesTheWakeUps(t *testing.T) {
	if testing.Short() {
		t.Skip("six paced streams of 0.4 s each")
	}
	run := func(held bool) int64 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), writerEnv+"="+l.Addr().String())
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		conn, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		h, _ := newTestHandle(context.Background())
		p := &pacer{r: conn, h: h, now: time.Now, pause: sleepUntil()}
		if held {
			p.water = waterOf(t, conn.(*net.TCPConn))
		}
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		buf := make([]byte, 64<<10)
		got := 0
		for {
			h.mu.Lock()
			h.due = time.Now().Add(50 * time.Millisecond) // the consumer's next frame
			h.mu.Unlock()
			n, err := p.Read(buf)
			got += n
			if err != nil {
				break
			}
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		if want := paceDeltas * 60; got != want {
			t.Fatalf("read %d bytes of %d", got, want)
		}
		return after.Nvcsw - before.Nvcsw
	}
	held, slept := int64(1<<62), int64(1<<62)
	for range 3 {
		held = min(held, run(true))
		slept = min(slept, run(false))
	}
	t.Logf("wake-ups for %d deltas: %d held, %d sleeping", paceDeltas, held, slept)
	if slept-held < paceDeltas/2 {
		t.Errorf("held, the paced stream woke the process %d times against %d sleeping: the hold spares less than a wake-up every other delta", held, slept)
	}
}
