package main

// This file is the harness for end-to-end tests that drive the real binary in
// a tmux pane, as a user would: send keys, read the screen. Tests that need
// tmux skip when it is missing.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	buildMu  sync.Mutex
	buildDir string                // where the run's builds go; TestMain removes it
	builds   = map[string]*built{} // by package path
)

// built is one package built for the run, or being built.
type built struct {
	done chan struct{} // closed when the build has ended
	path string
	err  error
}

// prebuilt are the packages the end-to-end tests run, built in the
// background from the start of a whole run (not -short, -run . or none): the
// in-process tests run on one core meanwhile, and the first end-to-end
// test does not wait a whole build. A run of chosen tests builds what they
// ask for when they ask.
var prebuilt = []string{".", "./session/tools/testdata/mcpserver"}

// TestMain builds what the end-to-end tests run in the background, runs
// twice as many parallel tests as -parallel's default (unless the run sets
// it), and removes the binaries at the end (once every build has ended),
// so a run leaves nothing behind outside its temp dirs.
func TestMain(m *testing.M) {
	flag.Parse()
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		// the parallel tests are end-to-end tests, which spend most of
		// their time waiting for a pane or a process: two per core keep
		// the cores busy
		flag.Set("test.parallel", fmt.Sprint(2*runtime.GOMAXPROCS(0)))
	}
	if run := flag.Lookup("test.run").Value.String(); !testing.Short() && (run == "" || run == ".") {
		for _, pkg := range prebuilt {
			startBuild(pkg)
		}
	}
	code := m.Run()
	buildMu.Lock()
	for _, b := range builds {
		<-b.done
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	buildMu.Unlock()
	os.Exit(code)
}

// startBuild starts building the package (a path from the module root)
// unless it was started before, and returns its build.
func startBuild(pkg string) *built {
	buildMu.Lock()
	defer buildMu.Unlock()
	if b, ok := builds[pkg]; ok {
		return b
	}
	b := &built{done: make(chan struct{})}
	builds[pkg] = b
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "runnel-e2e-")
		if err != nil {
			b.err = err
			close(b.done)
			return b
		}
		buildDir = dir
	}
	name := filepath.Base(pkg)
	if pkg == "." {
		name = "runnel"
	}
	b.path = filepath.Join(buildDir, name)
	cmd := exec.Command("go", "build", "-o", b.path, pkg)
	// in the module root and the environment the run started with: a test
	// may have changed the working directory (t.Chdir), HOME, TMPDIR or
	// XDG_CACHE_HOME (t.Setenv), and a go build there would find no go.mod,
	// or build from an empty cache into the test's temp dir
	cmd.Dir, cmd.Env = moduleDir, startEnv
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	go func() {
		defer close(b.done)
		if err := cmd.Run(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out.String())
		}
	}()
	return b
}

// moduleDir is the package's directory, the module root: the working
// directory the test binary starts in; startEnv is the environment it
// starts with.
var (
	moduleDir = func() string {
		dir, err := os.Getwd()
		if err != nil {
			panic(err)
		}
		return dir
	}()
	startEnv = os.Environ()
)

// build returns the package (a path from the module root) built once per
// test run, waiting for its build. Under -short it skips the test: the
// end-to-end suite builds and runs programs, and takes minutes.
func build(t *testing.T, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: end-to-end suite (builds and runs the binary)")
	}
	b := startBuild(pkg)
	<-b.done
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// binary builds runnel once per test run (build).
func binary(t *testing.T) string {
	t.Helper()
	return build(t, ".")
}

// panes counts the panes of the run: each has a tmux server (socket) of its
// own, so tests that drive panes run in parallel.
var panes atomic.Int64

// pane is one tmux session on its own server socket.
type pane struct {
	t      *testing.T
	socket string
}

// startPane runs the command in a detached tmux session of the given size.
func startPane(t *testing.T, width, height int, env map[string]string, argv ...string) *pane {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: tmux end-to-end suite")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: end-to-end terminal tests need it (apt-get install tmux)")
	}
	p := &pane{t: t, socket: fmt.Sprintf("runnel-test-%d-%d-%d", os.Getpid(), time.Now().UnixNano(), panes.Add(1))}
	var cmd strings.Builder
	cmd.WriteString("env")
	for k, v := range childEnv(t, env) {
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

// childEnv is the environment of a runnel the test starts: home, config,
// data, cache, state and temp dirs in a temp dir of the test's own, no key,
// a colour terminal; env on top. A test passes its settings to the child
// this way, never with t.Setenv, so that it can run in parallel.
func childEnv(t *testing.T, env map[string]string) map[string]string {
	t.Helper()
	home := t.TempDir()
	base := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config"), "XDG_DATA_HOME": filepath.Join(home, "data"),
		"XDG_CACHE_HOME": filepath.Join(home, "cache"), "XDG_STATE_HOME": filepath.Join(home, "state"), "TMPDIR": home,
		"TERM": "xterm-256color", "COLORTERM": "truecolor", "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "NO_COLOR": "",
	}
	for k, v := range env {
		base[k] = v
	}
	return base
}

// childEnviron is childEnv(env) as a process's environment, with PATH.
func childEnviron(t *testing.T, env map[string]string) []string {
	t.Helper()
	out := []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range childEnv(t, env) {
		out = append(out, k+"="+v)
	}
	return out
}

// runBinary runs the built binary with args as a process, in childEnv(env)
// with stdin, bounded in time, and returns what it printed and its exit
// code.
func runBinary(t *testing.T, env map[string]string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := binary(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = childEnviron(t, env)
	var o, e strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("runnel %q did not end within 30 s; stderr:\n%s", args, e.String())
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("runnel %q: %v", args, err)
	}
	return o.String(), e.String(), code
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

// waitTurnEnd waits until the status line reads ready (the turn has
// ended: while one is in flight it reads streaming, thinking or a tool's
// state) and returns the screen. A test that quits waits for it, or its
// first ctrl+c stops the turn instead of starting the quit: an answer's
// text is on screen a frame or more before its turn ends.
func (p *pane) waitTurnEnd() string {
	p.t.Helper()
	return p.waitFor("the turn to end", func(s string) bool { return strings.Contains(lastLines(s, 2), "ready") })
}

// quit waits for the turn to end and presses ctrl+c twice.
func (p *pane) quit() {
	p.t.Helper()
	p.waitTurnEnd()
	p.keys("C-c")
	p.keys("C-c")
}

func (p *pane) waitText(sub string) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q", sub), func(s string) bool { return strings.Contains(s, sub) })
}

// TestTmuxOneShot checks the harness on the simplest path: -p in a pane,
// the demo answering without a key.
func TestTmuxOneShot(t *testing.T) {
	t.Parallel()
	p := startPane(t, 100, 30, nil, binary(t), "-p", "hello", "--demo", "--format", "text")
	s := p.waitText("[exited")
	if !strings.Contains(s, "[exited 0]") || !strings.Contains(s, "More showcases") {
		t.Errorf("screen:\n%s", s)
	}
}
