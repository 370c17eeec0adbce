//go:build linux

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"runnel/session/images"
	"runnel/stream/sharedtest"
)

// openPTY opens a pseudo-terminal of 100×30.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100})
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// recordReplay runs `runnel replay` of a fixture on a pseudo-terminal with
// the terminal variables given and returns everything it wrote, once the
// text after the image is on screen and runnel has quit.
func recordReplay(t *testing.T, fixture string, termEnv ...string) string {
	bin := binary(t)
	master, slave := openPTY(t)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + home + "/config", "XDG_DATA_HOME=" + home + "/data", "LANG=C.UTF-8"}
	cmd := exec.Command(bin, "replay", fixture, "--speed", "50")
	cmd.Env = append(env, termEnv...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// the child has the terminal now: with the test's copy of its end
	// closed, reading the master ends (EIO) once the child has exited and
	// everything it wrote was read
	slave.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	snapshot := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	deadline := time.Now().Add(20 * time.Second) // polling the terminal's output, with a deadline
	for !endShown(snapshot()) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the replay never showed its last text; output %q", snapshot())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// ctrl+c twice quits once the replay is idle (the first may stop it):
	// press it until runnel exits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	quit := time.NewTicker(300 * time.Millisecond)
	defer quit.Stop()
	guard := time.After(20 * time.Second) // a guard against hanging
	for exited := false; !exited; {
		select {
		case <-done:
			exited = true
		case <-quit.C:
			master.Write([]byte("\x03"))
		case <-guard:
			cmd.Process.Kill()
			<-done
			t.Fatal("runnel did not quit on ctrl+c")
		}
	}
	// what runnel wrote last (freeing its images on quit) may still be in
	// the terminal's buffer: read to the end before looking
	select {
	case <-drained:
	case <-time.After(20 * time.Second): // a guard against hanging
		t.Fatal("the terminal's output never ended after runnel quit")
	}
	return snapshot()
}

// kittySeq finds the kitty graphics transmissions in terminal output.
var kittySeq = regexp.MustCompile("\x1b_G([^;\x1b]*);([A-Za-z0-9+/=]*)\x1b\\\\")

// TestInlineImageKitty: with TERM=xterm-kitty the generated image of a
// real stream is transmitted with runnel's own sequence (a PNG runnel
// encoded, not the stream's bytes) and drawn with placeholders; with a
// terminal that cannot show images, no graphics sequence is written.
func TestInlineImageKitty(t *testing.T) {
	t.Parallel()
	fixture := sharedtest.Real(t, "vercel__ai/azure-image-generation-with-text.sse")
	out := recordReplay(t, fixture, "TERM=xterm-kitty")
	seqs := kittySeq.FindAllStringSubmatch(out, -1)
	if len(seqs) == 0 {
		t.Fatalf("no kitty graphics sequence in the output")
	}
	last := seqs[len(seqs)-1]
	if !strings.HasPrefix(last[1], "a=T,U=1,f=100,i=") || !strings.Contains(last[1], "m=0,q=2") {
		t.Errorf("transmission control %q", last[1])
	}
	sent, err := base64.StdEncoding.DecodeString(last[2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(sent)); err != nil {
		t.Fatalf("the image sent is not a PNG: %v", err)
	}
	want := finalImage(t, fixture)
	img, _ := png.Decode(bytes.NewReader(want))
	var reenc bytes.Buffer
	png.Encode(&reenc, img)
	if !bytes.Equal(sent, reenc.Bytes()) {
		t.Error("the image sent is not the stream's image re-encoded by runnel")
	}
	if !strings.Contains(out, "\U0010EEEE") {
		t.Error("no placeholder draws the image")
	}
	if id := strings.TrimPrefix(strings.Split(last[1], ",")[3], "i="); !strings.Contains(out, "\x1b_Ga=d,d=I,i="+id+",q=2\x1b\\") {
		t.Errorf("image %s not freed on quit", id)
	}

	for _, env := range [][]string{{"TERM=xterm-256color"}, {"TERM=xterm-kitty", "TMUX=/tmp/none,1,0", "RUNNEL_INLINE_IMAGES=0"}} {
		out := recordReplay(t, fixture, env...)
		if strings.Contains(out, "\x1b_G") || strings.Contains(out, "\U0010EEEE") || strings.Contains(out, "\x1b]1337;") {
			t.Errorf("%v: an image sequence was written", env)
		}
	}
}

// endShown tells that the replay's last words, " know" and then "!", are
// on screen. They come in two deltas, which may be drawn in two frames:
// the renderer writes only the cells that changed, so the "!" can follow
// a cursor move and other cells ("know\x1b[11;24H!"), so "know!" may never
// appear whole.
func endShown(out string) bool {
	i := strings.LastIndex(out, "know")
	return i >= 0 && strings.Contains(out[i:], "!")
}

// finalImage is the decoded result of the fixture's image generation call.
func finalImage(t *testing.T, fixture string) []byte {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type   string `json:"type"`
				Result string `json:"result"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev) == nil && ev.Type == "response.output_item.done" && ev.Item.Result != "" {
			raw, err := images.Decode(ev.Item.Result)
			if err != nil {
				t.Fatal(err)
			}
			return raw
		}
	}
	t.Fatal("no image in the fixture")
	return nil
}

// iterm1337 finds iTerm2 inline images in terminal output: the cursor move
// before one, its arguments and its payload.
var iterm1337 = regexp.MustCompile("\x1b7\x1b\\[(\\d+);(\\d+)H\x1b\\]1337;File=([^:\a\x1b]*):([A-Za-z0-9+/=]*)\a\x1b8")

// TestInlineImageITerm: with TERM_PROGRAM=iTerm.app the generated image of
// a real stream is drawn with runnel's own OSC 1337 sequence (a PNG runnel
// encoded) at the blank rows its panel reserves, and never without it.
func TestInlineImageITerm(t *testing.T) {
	t.Parallel()
	fixture := sharedtest.Real(t, "vercel__ai/azure-image-generation-with-text.sse")
	out := recordReplay(t, fixture, "TERM=xterm-256color", "TERM_PROGRAM=iTerm.app")
	seqs := iterm1337.FindAllStringSubmatch(out, -1)
	if len(seqs) == 0 {
		t.Fatalf("no iTerm2 image sequence in the output (%d bytes; OSC 1337 anywhere: %v)", len(out), strings.Contains(out, "\x1b]1337;"))
	}
	if n := strings.Count(out, "\x1b]1337;"); n != len(seqs) {
		t.Errorf("%d OSC 1337 sequences, %d of them placed by runnel", n, len(seqs))
	}
	last := seqs[len(seqs)-1]
	if !strings.HasPrefix(last[3], "inline=1;size=") || !strings.HasSuffix(last[3], ";preserveAspectRatio=1") || !strings.Contains(last[3], ";width=") || !strings.Contains(last[3], ";height=") {
		t.Errorf("arguments %q", last[3])
	}
	if row, _ := strconv.Atoi(last[1]); row < 1 || row > 30 {
		t.Errorf("drawn at row %s", last[1])
	}
	sent, err := base64.StdEncoding.DecodeString(last[4])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(sent))
	if err != nil {
		t.Fatalf("the image drawn is not a PNG: %v", err)
	}
	want, _ := png.Decode(bytes.NewReader(finalImage(t, fixture)))
	var reenc bytes.Buffer
	png.Encode(&reenc, want)
	if !bytes.Equal(sent, reenc.Bytes()) {
		t.Errorf("the image drawn (%v) is not the stream's image re-encoded by runnel", img.Bounds())
	}
	if strings.Contains(out, "\x1b_G") || strings.Contains(out, "\U0010EEEE") {
		t.Error("kitty sequences written to iTerm2")
	}

	for _, env := range [][]string{{"TERM=xterm-256color"}, {"TERM=xterm-256color", "TERM_PROGRAM=iTerm.app", "RUNNEL_INLINE_IMAGES=0"}, {"TERM=screen", "TERM_PROGRAM=iTerm.app", "TMUX=/tmp/none,1,0"}} {
		if out := recordReplay(t, fixture, env...); strings.Contains(out, "\x1b]1337;") || strings.Contains(out, "\x1b_G") {
			t.Errorf("%v: an image sequence was written", env)
		}
	}
}
