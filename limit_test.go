package main

// Tests of the response limit and of bounded memory: -p against a server
// that streams for ever, and replays of a generated 256 MiB stream run as
// subprocesses whose peak RSS is measured.

import (
	"bufio"
	"fmt"

	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const floodText = "lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet "

// writeFlood writes an SSE stream of one message: its text deltas go on for
// textBytes bytes (for ever when textBytes < 0) in paragraphs, then the
// response completes. It stops when a write fails.
func writeFlood(w io.Writer, textBytes int64, flush func()) error {
	head := `data: {"type":"response.created","response":{"id":"resp_flood","status":"in_progress","output":[]}}` + "\n\n" +
		`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_flood","role":"assistant","content":[]}}` + "\n\n"
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	delta := floodText + `\n\n`
	ev := `data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"` + delta + `"}` + "\n\n"
	n := int64(len(floodText) + 2)
	for sent, i := int64(0), 0; textBytes < 0 || sent < textBytes; sent, i = sent+n, i+1 {
		if _, err := io.WriteString(w, ev); err != nil {
			return err
		}
		if flush != nil && i%64 == 0 {
			flush()
		}
	}
	_, err := io.WriteString(w, `data: {"type":"response.completed","response":{"id":"resp_flood","status":"completed","output":[]}}`+"\n\n")
	return err
}

// floodServer is a Responses server on loopback whose every answer streams
// for ever. ended is closed when a reply stopped because the client went.
func floodServer(t *testing.T) (url string, ended <-chan struct{}) {
	done := make(chan struct{})
	var once bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriterSize(w, 32<<10)
		f := w.(http.Flusher)
		writeFlood(bw, -1, func() { bw.Flush(); f.Flush() })
		if !once {
			once = true
			close(done)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", done
}

// TestOneShotEndlessStreamStopsAtTheLimit: -p against a server that never
// stops: runnel stops reading at max_response_bytes, prints the text up to
// it, says so in one line naming the limit and the key, and exits 5 (cut
// off); the server sees the connection go.
func TestOneShotEndlessStreamStopsAtTheLimit(t *testing.T) {
	url, ended := floodServer(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("max_response_bytes = 65536\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", url)
	t.Setenv("HOME", dir)
	setDataHome(t, filepath.Join(dir, "data"))
	out, errOut, code := runnel(t, "", "-p", "go on for ever", "--format", "text", "--config", cfg)
	if code != exitCutOff {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitCutOff, errOut)
	}
	if text := strings.TrimSuffix(out, "\n"); len(text) != 65536 || !strings.HasPrefix(text, floodText) {
		t.Errorf("printed %d bytes, want the 65536 of the limit", len(text))
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "passed 64 KiB of text") || !strings.Contains(lines[0], "raise max_response_bytes") {
		t.Errorf("want one line naming the limit and the key; stderr:\n%s", errOut)
	}
	<-ended // the reply ended: runnel closed the connection (the test's timeout bounds this)
}

// replayPeak replays a generated stream of textBytes bytes of text in the
// given format in a subprocess, the stream written into its stdin as it is
// generated, and returns its peak RSS, its stdout size and its stderr.
func replayPeak(t *testing.T, format string, textBytes int64) (peakKiB int64, outBytes int64, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary(t), "replay", "--format", format, "-")
	cmd.Env = childEnviron(t, nil)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		bw := bufio.NewWriterSize(in, 1<<20)
		if writeFlood(bw, textBytes, nil) == nil {
			bw.Flush()
		}
		in.Close()
	}()
	outBytes, _ = io.Copy(io.Discard, out)
	err = cmd.Wait()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("replay: %v", err)
	}
	peak, ok := peakRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return peak, outBytes, errBuf.String(), code
}

// TestReplayLargeStreamBoundedMemory replays a generated answer in each
// format with the real binary. text, markdown and events keep no answer
// text: the peak RSS of a 32 MiB answer is at most 12 MiB over that of a
// 4 MiB one, measured in the same run (kept, the 28 MiB more would show in
// full), and under 300 MB. json, which needs the whole answer, stops at the
// 32 MiB default limit of a 40 MiB one within the same 300 MB. (It used to
// replay 256 MiB in each format, 156 s, for what the growth shows.)
func TestReplayLargeStreamBoundedMemory(t *testing.T) {
	t.Parallel()
	const small, big, jsonSize = 4 << 20, 32 << 20, 40 << 20
	const maxGrowthKiB, maxPeakKiB = 12 << 10, 300 * 1000
	for _, format := range []string{formatText, formatMarkdown, formatEvents, formatJSON} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			size := int64(big)
			if format == formatJSON {
				size = jsonSize
			}
			peak, outBytes, stderr, code := replayPeak(t, format, size)
			t.Logf("%s: peak RSS %d MiB, %d MiB out, exit %d", format, peak>>10, outBytes>>20, code)
			if peak > maxPeakKiB {
				t.Errorf("peak RSS %d MiB, want at most 300 MB", peak>>10)
			}
			if format == formatJSON {
				if code != exitCutOff || !strings.Contains(stderr, "passed 32 MiB of text") {
					t.Errorf("exit %d, want %d with the limit's notice; stderr:\n%s", code, exitCutOff, stderr)
				}
				return
			}
			if code != exitOK || outBytes < big {
				t.Errorf("exit %d, %d bytes out: want all %d; stderr:\n%s", code, outBytes, big, stderr)
			}
			base, _, _, _ := replayPeak(t, format, small)
			t.Logf("%s: peak RSS %d MiB for %d MiB of text", format, base>>10, small>>20)
			if peak > base+maxGrowthKiB {
				t.Errorf("peak RSS %d MiB for %d MiB of text, %d MiB for %d MiB: it grows with the answer", peak>>10, big>>20, base>>10, small>>20)
			}
		})
	}
}

// panePeakRSS returns the peak RSS (VmHWM, KiB) of the program running in the
// pane: the child of the pane's shell.
func (p *pane) panePeakRSS() int64 {
	p.t.Helper()
	shell := strings.TrimSpace(p.tmux("list-panes", "-t", "t", "-F", "#{pane_pid}"))
	kids, err := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
	if err != nil {
		p.t.Skipf("cannot find the program's process: %v", err)
	}
	fields := strings.Fields(string(kids))
	if len(fields) == 0 {
		p.t.Fatal("the pane's program is gone")
	}
	status, err := os.ReadFile("/proc/" + fields[0] + "/status")
	if err != nil {
		p.t.Skipf("cannot read the program's status: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kib)
			return kib
		}
	}
	p.t.Skip("no VmHWM in /proc status")
	return 0
}

// floodPane starts the chat against a server that streams for ever, with
// config lines written to its config file.
func floodPane(t *testing.T, config string) *pane {
	t.Helper()
	url, _ := floodServer(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "runnel"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "runnel", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-e2e-secret", "XDG_CONFIG_HOME": dir}, binary(t))
	p.waitText("Ask anything")
	return p
}

// TestChatEndlessStreamStopsAtTheLimit: the real binary against a server that
// streams for ever: the chat stops at max_response_bytes, keeps the answer
// on screen, says so in one line, and its peak RSS stays under 300 MB.
func TestChatEndlessStreamStopsAtTheLimit(t *testing.T) {
	// not parallel: it streams 1 MiB through the chat, which takes most of a
	// core, within the harness's 20 s wait (the limit is the config's, and
	// a small one costs the suite least)
	p := floodPane(t, "max_response_bytes = 1_048_576\n")
	p.say("go on for ever")
	s := p.waitText("max_response_bytes")
	words := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(words, "passed 1 MiB of text") || !strings.Contains(s, "lorem ipsum") || !strings.Contains(lastLines(s, 3), "ready") {
		t.Errorf("screen:\n%s", s)
	}
	if peak := p.panePeakRSS(); peak > 300*1000 {
		t.Errorf("peak RSS %d MiB, want at most 300 MB", peak>>10)
	} else {
		t.Logf("peak RSS %d MiB", peak>>10)
	}
}

// TestChatEscStopsAFlood: esc stops a stream that pushes as fast as it can;
// the stopped notice comes and the chat is ready again.
func TestChatEscStopsAFlood(t *testing.T) {
	t.Parallel()
	p := floodPane(t, "")
	p.say("go on for ever")
	p.waitText("lorem ipsum")
	p.waitText("streaming")
	p.keys("Escape")
	s := p.waitText("stopped")
	if !strings.Contains(lastLines(s, 3), "ready") {
		t.Errorf("status not back to ready:\n%s", s)
	}
}
