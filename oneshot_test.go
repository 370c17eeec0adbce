package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/ui/output"
)

// The format names, as the tests beside main_test.go use them.
var formats = output.Formats

const (
	formatANSI     = "ansi"
	formatMarkdown = "markdown"
	formatText     = "text"
	formatJSON     = "json"
	formatEvents   = "events"
)

// noKey clears every way a key or a base URL could reach the command.
func noKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
}

// writeConfig writes a config file and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Without a key, -p and piped stdin are an error (exit 2) naming the
// variable the config reads; they never answer with the demo.
func TestOneShotWithoutKeyIsAnError(t *testing.T) {
	noKey(t)
	t.Setenv("MY_PROVIDER_KEY", "")
	cfg := writeConfig(t, "[provider]\napi_key_env = \"MY_PROVIDER_KEY\"\n")
	for _, tt := range []struct {
		name, stdin, env string
		args             []string
	}{
		{"-p, default variable", "", "$OPENAI_API_KEY", []string{"-p", "hi"}},
		{"-p, api_key_env", "", "$MY_PROVIDER_KEY", []string{"-p", "hi", "--config", cfg}},
		{"piped stdin", "hi\n", "$OPENAI_API_KEY", nil},
		{"piped stdin, api_key_env", "hi\n", "$MY_PROVIDER_KEY", []string{"--config", cfg}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runnel(t, tt.stdin, tt.args...)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			if !strings.Contains(errOut, tt.env) || !strings.Contains(errOut, "--demo") || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q; want one line naming %s and --demo", errOut, tt.env)
			}
		})
	}
	// --demo answering without a key: TestTmuxOneShot (the built binary,
	// beside the other end-to-end tests: the demo streams at a reader's
	// pace, 6 s) and TestDemoSessionRecordsTheDemo
}

// seedChained creates a history with one completed turn whose response is
// respID, and returns the data dir and the session id.
func seedChained(t *testing.T, respID string) (string, store.SessionID) {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid, err := db.CreateSession(store.NewSession{Title: "first question", Settings: json.RawMessage(`{"model":"gpt-stored"}`)})
	if err != nil {
		t.Fatal(err)
	}
	tid, err := db.BeginTurn(sid, "first question", []json.RawMessage{stream.UserText("first question")}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{respID}}); err != nil {
		t.Fatal(err)
	}
	return dir, sid
}

// loadSession reads a session back from the data dir.
func loadSession(t *testing.T, dir string, sid store.SessionID) *store.Session {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, _, err := db.Load(sid)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// -c and -r continue a session with -p and with piped stdin: the request
// chains to the session's last response and the turn is saved into it.
func TestOneShotContinuesSession(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	for _, tt := range []struct {
		name, stdin string
		args        func(sid store.SessionID) []string
		prompt      string
	}{
		{"-p -c", "", func(store.SessionID) []string { return []string{"-p", "and then?", "-c"} }, "and then?"},
		{"-p -r", "", func(sid store.SessionID) []string { return []string{"-p", "and then?", "-r", string(sid)[:6]} }, "and then?"},
		{"stdin -r", "and then?\n", func(sid store.SessionID) []string { return []string{"-r", string(sid)} }, ""}, // stdin is sent as a file, not the prompt
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, sid := seedChained(t, "resp_first")
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_second", "It goes ", "on.")})
			args := append([]string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}, tt.args(sid)...)
			out, errOut, code := runnel(t, tt.stdin, args...)
			if code != exitOK || strings.TrimSpace(out) != "It goes on." {
				t.Fatalf("exit %d out %q err %q", code, out, errOut)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].PreviousResponseID() != "resp_first" {
				t.Fatalf("requests %d, previous_response_id %q; want 1 chained to resp_first", len(reqs), reqs[0].PreviousResponseID())
			}
			if m := reqs[0].JSON()["model"]; m != "gpt-stored" {
				t.Errorf("model %v; want the session's gpt-stored", m)
			}
			s := loadSession(t, dir, sid)
			if len(s.Turns) != 2 {
				t.Fatalf("session has %d turns; want 2", len(s.Turns))
			}
			last := s.Turns[1]
			if last.Prompt != tt.prompt || last.PreviousResponseID != "resp_first" || last.Status != store.StatusCompleted ||
				len(last.ResponseIDs) != 1 || last.ResponseIDs[0] != "resp_second" || s.LastResponseID() != "resp_second" {
				t.Errorf("saved turn %+v", last)
			}
		})
	}
	_, errOut, code := runnel(t, "", "--data-dir", t.TempDir(), "-p", "x", "-r", "nosuchid", "--base-url", "http://127.0.0.1:1")
	if code != exitUsage || !strings.Contains(errOut, "runnel sessions") {
		t.Errorf("-r unknown id: exit %d err %q", code, errOut)
	}
}

// --width out of 0…1000 is a usage error of one line, for every command.
func TestWidthBounds(t *testing.T) {
	for _, args := range [][]string{
		{"--width", "-5", "-p", "hi"},
		{"--width", "100000000", "-p", "hi"},
		{"replay", "-", "--width", "1001"},
		{"sessions", "--width", "-1"},
	} {
		_, errOut, code := runnel(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "--width") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d err %q; want 2 and one line", args, code, errOut)
		}
	}
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
	t.Setenv("OPENAI_API_KEY", "sk-test")
	if out, errOut, code := runnel(t, "", "--width", "1000", "-p", "hi", "--base-url", srv.URL, "--format", "ansi"); code != exitOK || !strings.Contains(out, "ok") {
		t.Errorf("--width 1000: exit %d out %q err %q", code, out, errOut)
	}
}

// Commands return errors; exitStatus maps them: an *exitError to its code
// (printing its message if it has one), anything else (cobra's) to 2.
func TestExitStatus(t *testing.T) {
	var b strings.Builder
	if exitStatus(nil, &b) != exitOK || exitWith(exitOK) != nil || b.Len() != 0 {
		t.Error("nil error")
	}
	if got := exitStatus(exitWith(exitFailed), &b); got != exitFailed || b.Len() != 0 {
		t.Errorf("exitWith(4): %d, printed %q", got, b.String())
	}
	if got := exitStatus(usageErrorf("bad %s", "thing"), &b); got != exitUsage || b.String() != "runnel: bad thing\n" {
		t.Errorf("usage error: %d %q", got, b.String())
	}
	b.Reset()
	if got := exitStatus(errors.New("unknown flag: --nope"), &b); got != exitUsage || !strings.Contains(b.String(), "see runnel --help") {
		t.Errorf("cobra error: %d %q", got, b.String())
	}
	_, errOut, code := runnel(t, "", "--nope")
	if code != exitUsage || !strings.Contains(errOut, "unknown flag") {
		t.Errorf("unknown flag: %d %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := runnel(t, "", "--version")
	if code != exitOK || !strings.HasPrefix(out, "runnel ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}

// The grouped spellings and the old top-level ones reach the same commands.
func TestSessionsSubcommands(t *testing.T) {
	dir := threeSessions(t)
	for _, args := range [][]string{{"sessions"}, {"sessions", "list"}} {
		out, _, code := runnel(t, "", append([]string{"--data-dir", dir}, args...)...)
		if code != exitOK || !strings.Contains(out, "Newest talk") {
			t.Errorf("%q: exit %d %q", args, code, out)
		}
	}
	for _, args := range [][]string{{"sessions", "search", "Middle"}, {"search", "Middle"}} {
		out, _, code := runnel(t, "", append([]string{"--data-dir", dir}, args...)...)
		if code != exitOK || !strings.Contains(out, "0k3zzzzzzz") {
			t.Errorf("%q: exit %d %q", args, code, out)
		}
	}
	for _, args := range [][]string{{"sessions", "export", "0k3zzzzzzz"}, {"export", "0k3zzzzzzz"}} {
		out, _, code := runnel(t, "", append([]string{"--data-dir", dir}, args...)...)
		if code != exitOK || !strings.Contains(out, "Middle talk") {
			t.Errorf("%q: exit %d %q", args, code, out)
		}
	}
	doc := string(sessionDoc("0k4aaaaaaa", "Imported talk", "2025-06-04T10:00:00Z", 1))
	if _, errOut, code := runnel(t, doc, "--data-dir", dir, "sessions", "import", "-"); code != exitOK {
		t.Errorf("sessions import: %d %q", code, errOut)
	}
	if _, errOut, code := runnel(t, "", "--data-dir", dir, "sessions", "rm", "--yes", "0k4aaaaaaa"); code != exitOK {
		t.Errorf("sessions rm: %d %q", code, errOut)
	}
	help, _, _ := runnel(t, "", "--help")
	if strings.Contains(help, "\n  search ") || !strings.Contains(help, "sessions") {
		t.Errorf("help lists the hidden aliases or lacks sessions:\n%s", help)
	}
}

// Flag values complete: formats, session ids with titles, tool names and
// the config's model.
func TestFlagCompletion(t *testing.T) {
	dir := threeSessions(t)
	cfg := writeConfig(t, "model = \"gpt-configured\"\n[[functions]]\nname = \"git_status\"\ncommand = [\"git\", \"status\"]\n")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "--format", ""}, []string{"ansi", "markdown", "text", "json", "events"}},
		{[]string{"__complete", "--data-dir", dir, "-r", ""}, []string{"0k3m9xq4cd\tNewest talk", "0k3zzzzzzz"}},
		{[]string{"__complete", "--config", cfg, "--tool", ""}, []string{"git_status"}},
		{[]string{"__complete", "--config", cfg, "--model", ""}, []string{"gpt-configured", "gpt-5-mini"}},
		{[]string{"__complete", "--data-dir", dir, "sessions", "export", ""}, []string{"0k3m9xq4ab"}},
	} {
		out, errOut, _ := runnel(t, "", tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: %q lacks %q (stderr %q)", tt.args, out, w, errOut)
			}
		}
	}
}

// SIGTERM during -p -c: the partial answer is saved into the session, and
// runnel exits 143.
func TestOneShotSIGTERMSavesAndFails(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	dir, sid := seedChained(t, "resp_first")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_second", "partial ", "answer ", "never finished"), StallAfter: 6})
	cmd := exec.Command(bin, "--data-dir", dir, "--base-url", srv.URL, "--format", "text", "-p", "go on", "-c")
	cmd.Env = childEnviron(t, map[string]string{"OPENAI_API_KEY": "sk-test"})
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 64)
		n, _ := r.Read(b) // the first text arrives, then the reply stalls
		got <- string(b[:n])
	}()
	select {
	case s := <-got:
		if !strings.Contains(s, "partial") {
			t.Fatalf("first output %q", s)
		}
	case <-time.After(20 * time.Second): // a guard against hanging
		cmd.Process.Kill()
		t.Fatal("no output from runnel")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != exitTerminated {
		t.Fatalf("exit %v; want status %d (stderr %q)", err, exitTerminated, errOut.String())
	}
	s := loadSession(t, dir, sid)
	if len(s.Turns) != 2 {
		t.Fatalf("session has %d turns; want the interrupted one saved", len(s.Turns))
	}
	last := s.Turns[1]
	text := ""
	for _, r := range last.Responses {
		for _, it := range r.Items {
			text += string(it.Raw)
		}
	}
	if last.Prompt != "go on" || last.Status != store.StatusStopped || !strings.Contains(text, "partial") {
		t.Errorf("saved turn: status %q prompt %q items %s", last.Status, last.Prompt, text)
	}
}
