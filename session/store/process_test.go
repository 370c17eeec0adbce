package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream"
)

const (
	childEnv   = "RUNNEL_STORE_CHILD"
	childDBEnv = "RUNNEL_STORE_DB"
)

// runChild is the body of a child process started by these tests. It reports
// progress on stdout, one line per step, after the step is committed.
func runChild(role string) int {
	db, err := Open(os.Getenv(childDBEnv))
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	defer db.Close()
	switch role {
	case "stream":
		return childStream(db)
	case "writer":
		return childWriter(db)
	}
	fmt.Println("error unknown role", role)
	return 2
}

// childStream begins a turn and saves a growing partial message every
// 100 ms, like a UI streaming an answer, until it is killed (or a minute
// passes, so an orphan cannot linger).
func childStream(db *DB) int {
	sid, err := db.CreateSession(NewSession{Settings: json.RawMessage(`{"model":"gpt-test"}`)})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	tid, err := db.BeginTurn(sid, "tell me a long story", []json.RawMessage{stream.UserText("tell me a long story")}, "")
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("turn", sid)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var text strings.Builder
	for n := 1; n < 600; n++ {
		<-tick.C
		fmt.Fprintf(&text, "chunk %d. ", n)
		if err := db.SaveItem(tid, 0, 0, msg("msg_1", text.String()), false); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("saved", n)
	}
	return 0
}

// childWriter writes its own session of 30 turns as fast as it can, after
// the parent says go (a line on stdin).
func childWriter(db *DB) int {
	sid, err := db.CreateSession(NewSession{Title: "child", Settings: json.RawMessage(`{"model":"child-model"}`)})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("ready", sid)
	bufio.NewReader(os.Stdin).ReadString('\n')
	if err := writeTurns(db, sid, "child", 30); err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("done")
	return 0
}

// writeTurns writes n completed turns with two items each.
func writeTurns(db *DB, sid SessionID, who string, n int) error {
	for i := 1; i <= n; i++ {
		p := fmt.Sprintf("%s question %d", who, i)
		tid, err := db.BeginTurn(sid, p, []json.RawMessage{stream.UserText(p)}, "")
		if err != nil {
			return err
		}
		if err := db.SaveItem(tid, 0, 0, json.RawMessage(`{"type":"reasoning","id":"rs","summary":[]}`), true); err != nil {
			return err
		}
		if err := db.SaveItem(tid, 0, 1, msg("msg", fmt.Sprintf("%s answer %d", who, i)), true); err != nil {
			return err
		}
		if err := db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{fmt.Sprintf("resp_%s_%d", who, i)}}); err != nil {
			return err
		}
	}
	return nil
}

// child starts this test binary as a child process in role on the database
// at path, and returns it with a channel of its stdout lines.
func child(t *testing.T, role, path string) (*exec.Cmd, <-chan string, func(string)) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, childDBEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	check(t, err)
	in, err := cmd.StdinPipe()
	check(t, err)
	check(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) { fmt.Fprintln(in, s) }
	return cmd, lines, send
}

// next returns the child's next line; a minute without one fails the test.
func next(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("child exited early")
		}
		if strings.HasPrefix(l, "error") {
			t.Fatalf("child: %s", l)
		}
		return l
	case <-time.After(time.Minute):
		t.Fatal("child said nothing for a minute")
	}
	return ""
}

func TestKill9MidStreamKeepsPartialAndMarksInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel.db")
	cmd, lines, _ := child(t, "stream", path)
	first := strings.Fields(next(t, lines))
	if len(first) != 2 || first[0] != "turn" {
		t.Fatalf("child said %q, want turn <id>", first)
	}
	sid := SessionID(first[1])

	// While the child streams, another process sees the turn as streaming
	// (its writer is alive), not interrupted.
	saved := 0
	for saved < 3 {
		saved, _ = strconv.Atoi(strings.TrimPrefix(next(t, lines), "saved "))
	}
	watcher, err := Open(path)
	check(t, err)
	s := load(t, watcher, sid)
	if got := s.Turns[0].Status; got != StatusStreaming {
		t.Errorf("live turn seen by another process: status %s, want streaming", got)
	}
	check(t, watcher.Close())

	for saved < 6 {
		saved, _ = strconv.Atoi(strings.TrimPrefix(next(t, lines), "saved "))
	}
	check(t, cmd.Process.Kill()) // SIGKILL on Unix: no chance to clean up
	cmd.Wait()

	db, err := Open(path)
	check(t, err)
	defer db.Close()
	s = load(t, db, sid)
	tr := s.Turns[0]
	if tr.Status != StatusInterrupted {
		t.Fatalf("status %s, want interrupted", tr.Status)
	}
	if tr.Ended.IsZero() {
		t.Error("interrupted turn has no end time")
	}
	if len(tr.Responses) != 1 || len(tr.Responses[0].Items) != 1 {
		t.Fatalf("responses %+v, want one partial item", tr.Responses)
	}
	it := tr.Responses[0].Items[0]
	if it.Done {
		t.Error("the partial item reads as done")
	}
	want := fmt.Sprintf("chunk %d. ", saved)
	if !strings.Contains(string(it.Raw), want) {
		t.Errorf("last partial lacks %q (the last save the child reported): %s", want, it.Raw)
	}
	if got := s.Info.Preview; !strings.HasPrefix(got, "chunk 1.") {
		t.Errorf("preview %q, want the partial answer", got)
	}
	if in := s.RebuildInput(); len(in) != 0 {
		t.Errorf("an interrupted turn went into RebuildInput: %s", in)
	}
}

func TestTwoHandlesWriteConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel.db")
	a, err := Open(path)
	check(t, err)
	defer a.Close()
	b, err := Open(path)
	check(t, err)
	defer b.Close()

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, db := range []*DB{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := fmt.Sprint("handle", i)
			sid, err := db.CreateSession(NewSession{Title: who})
			if err == nil {
				err = writeTurns(db, sid, who, 40)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	check(t, errs[0])
	check(t, errs[1])
	for _, db := range []*DB{a, b} {
		list := must[[]SessionInfo](t)(db.List(0))
		if len(list) != 2 || list[0].Turns != 40 || list[1].Turns != 40 {
			t.Fatalf("list %+v, want two sessions of 40 turns", list)
		}
	}
}

func TestTwoProcessesWriteConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runnel.db")
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	cmd, lines, send := child(t, "writer", path)
	ready := strings.Fields(next(t, lines))
	if len(ready) != 2 || ready[0] != "ready" {
		t.Fatalf("child said %q", ready)
	}
	mine := must[SessionID](t)(db.CreateSession(NewSession{Title: "parent"}))
	send("go")
	check(t, writeTurns(db, mine, "parent", 30))
	if l := next(t, lines); l != "done" {
		t.Fatalf("child said %q, want done", l)
	}
	check(t, cmd.Wait())

	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 2 {
		t.Fatalf("list has %d sessions, want 2", len(list))
	}
	for _, in := range list {
		if in.Turns != 30 {
			t.Errorf("%s (%s): %d turns, want 30", in.ID, in.Title, in.Turns)
		}
	}
	theirs := load(t, db, SessionID(ready[1]))
	if got := theirs.Turns[29].Prompt; got != "child question 30" {
		t.Errorf("child's last prompt %q", got)
	}
	if theirs.Info.Model != "child-model" {
		t.Errorf("child's model %q", theirs.Info.Model)
	}
}
