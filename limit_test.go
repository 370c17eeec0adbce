package main

// Tests of the response limit and of bounded memory: -p against a server
// that streams for ever, and replays of a generated 256 MiB stream run as
// subprocesses whose peak RSS is measured.

import (
	"bufio"

	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
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
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
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
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return ru.Maxrss, outBytes, errBuf.String(), code
}

// TestReplayLargeStreamBoundedMemory replays a generated 256 MiB answer in
// each format: text, markdown and events print all of it with a peak RSS
// under 300 MB (they keep no answer text); json, which needs the whole
// answer, stops at the 32 MiB default limit, within the same bound. It runs
// the real binary; -short skips it.
func TestReplayLargeStreamBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 256 MiB four times")
	}
	const size = 256 << 20
	const maxPeakKiB = 300 * 1000
	for _, format := range []string{formatText, formatMarkdown, formatEvents, formatJSON} {
		t.Run(format, func(t *testing.T) {
			peak, outBytes, stderr, code := replayPeak(t, format, size)
			t.Logf("%s: peak RSS %d MiB, %d MiB out, exit %d", format, peak>>10, outBytes>>20, code)
			if peak > maxPeakKiB {
				t.Errorf("peak RSS %d MiB, want at most 300 MB", peak>>10)
			}
			switch format {
			case formatJSON:
				if code != exitCutOff || !strings.Contains(stderr, "passed 32 MiB of text") {
					t.Errorf("exit %d, want %d with the limit's notice; stderr:\n%s", code, exitCutOff, stderr)
				}
			default:
				if code != exitOK || outBytes < size {
					t.Errorf("exit %d, %d bytes out: want all %d; stderr:\n%s", code, outBytes, size, stderr)
				}
			}
		})
	}
}
