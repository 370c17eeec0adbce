package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// SIGTERM (or SIGINT from outside) to the chat mid-stream: the partial turn
// is saved (as interrupted), runnel does not hang, and it exits 143 (130),
// not 0.
func TestChatSignalSavesAndExitsNonZero(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		sig  syscall.Signal
		want string
	}{{syscall.SIGTERM, "[exited 143]"}, {syscall.SIGINT, "[exited 130]"}} {
		t.Run(tt.sig.String(), func(t *testing.T) { chatSignal(t, tt.sig, tt.want) })
	}
}

func chatSignal(t *testing.T, sig syscall.Signal, want string) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "partial ", "answer ", "never finished"), StallAfter: 6})
	data := t.TempDir()
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}, binary(t))
	p.waitText("Ask anything")
	p.say("tell me more")
	p.waitText("partial answer")
	signalRunnel(t, p, sig)
	if s := p.waitText("[exited"); !strings.Contains(s, want) {
		t.Fatalf("screen after %s:\n%s", sig, s)
	}
	s := latestSession(t, data)
	if len(s.Turns) != 1 {
		t.Fatalf("saved session: %+v", s)
	}
	items := ""
	for _, r := range s.Turns[0].Responses {
		for _, it := range r.Items {
			items += string(it.Raw)
		}
	}
	if !strings.Contains(items, "partial answer") || s.Turns[0].Status == store.StatusCompleted {
		t.Errorf("saved turn: status %q, items %s", s.Turns[0].Status, items)
	}
}

// signalRunnel sends sig to the runnel running in p's pane.
func signalRunnel(t *testing.T, p *pane, sig syscall.Signal) {
	t.Helper()
	if err := sendSignal(runnelPID(t, p), sig); err != nil {
		t.Fatal(err)
	}
}

// panePID is the process id of the shell running in p's pane.
func panePID(t *testing.T, p *pane) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(p.tmux("display-message", "-p", "-t", "t", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// runnelPID is the process id of the runnel running in p's pane (the
// shell's child).
func runnelPID(t *testing.T, p *pane) int {
	t.Helper()
	out, err := exec.Command("pgrep", "-P", strconv.Itoa(panePID(t, p))).Output()
	if err != nil {
		t.Skipf("pgrep: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// latestSession is the newest session saved under the data dir.
func latestSession(t *testing.T, data string) *store.Session {
	t.Helper()
	db, err := store.Open(filepath.Join(data, "runnel", "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id, err := db.Latest()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
