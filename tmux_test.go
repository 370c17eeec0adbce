package main

// This file is the harness for end-to-end tests that drive the real binary in
// a tmux pane, as a user would: send keys, read the screen. Tests that need
// tmux skip when it is missing.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// TestMain removes the binary the end-to-end tests built, so a run leaves
// nothing behind outside its temp dirs.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// binary builds runnel once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "runnel-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "runnel")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// pane is one tmux session on its own server socket.
type pane struct {
	t      *testing.T
	socket string
}

// startPane runs the command in a detached tmux session of the given size.
func startPane(t *testing.T, width, height int, env map[string]string, argv ...string) *pane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: end-to-end terminal tests need it (apt-get install tmux)")
	}
	p := &pane{t: t, socket: fmt.Sprintf("runnel-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	var cmd strings.Builder
	cmd.WriteString("env")
	home := t.TempDir()
	base := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config"), "XDG_DATA_HOME": filepath.Join(home, "data"),
		"XDG_CACHE_HOME": filepath.Join(home, "cache"), "XDG_STATE_HOME": filepath.Join(home, "state"), "TMPDIR": home,
		"TERM": "xterm-256color", "COLORTERM": "truecolor", "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "NO_COLOR": "",
	}
	for k, v := range env {
		base[k] = v
	}
	for k, v := range base {
		fmt.Fprintf(&cmd, " %s=%s", k, shellQuote(v))
	}
	for _, a := range argv {
		cmd.WriteString(" " + shellQuote(a))
	}
	// keep the pane after the program exits so its last screen can be read
	// ($? is saved first: after the bare echo it would always be 0)
	script := cmd.String() + "; s=$?; echo; echo \"[exited $s]\"; sleep 3600"
	p.tmux("new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-s", "t", "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	return p
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (e.g. "Enter", "Escape", "C-c") or literal text.
func (p *pane) keys(keys ...string) { p.tmux(append([]string{"send-keys", "-t", "t"}, keys...)...) }

// text types literal text.
func (p *pane) text(s string) { p.tmux("send-keys", "-t", "t", "-l", s) }

// screen returns what the pane shows now.
func (p *pane) screen() string { return p.tmux("capture-pane", "-p", "-t", "t") }

// resize changes the pane size.
func (p *pane) resize(w, h int) {
	p.tmux("resize-window", "-t", "t", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
}

// waitFor polls the screen until cond holds; the deadline only fails the test.
func (p *pane) waitFor(what string, cond func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var s string
	for time.Now().Before(deadline) {
		s = p.screen()
		if cond(s) {
			return s
		}
		time.Sleep(40 * time.Millisecond) // polling interval, not an assertion delay
	}
	p.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
	return s
}

func (p *pane) waitText(sub string) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q", sub), func(s string) bool { return strings.Contains(s, sub) })
}

// TestTmuxOneShot checks the harness on the simplest path: -p in a pane.
func TestTmuxOneShot(t *testing.T) {
	p := startPane(t, 100, 30, nil, binary(t), "-p", "hello", "--demo", "--format", "text")
	s := p.waitText("[exited")
	if !strings.Contains(s, "[exited 0]") || !strings.Contains(s, "More showcases") {
		t.Errorf("screen:\n%s", s)
	}
}
