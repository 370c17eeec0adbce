package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// testDataHomes holds the data directories a test made for runnel (with
// setDataHome): only those are kept from one call of runnel to the next. A
// user's own XDG_DATA_HOME is never used, wherever it lies.
var testDataHomes sync.Map

// setDataHome points XDG_DATA_HOME at dir, a directory of the test's own,
// for every runnel call of the test.
func setDataHome(t *testing.T, dir string) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", dir)
	testDataHomes.Store(dir, true)
}

// runnel runs the command in-process, with config, data and cache in the
// test's temp dirs; calls in one test share the data dir (-p then -c).
func runnel(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, ours := testDataHomes.Load(os.Getenv("XDG_DATA_HOME")); !ours {
		setDataHome(t, t.TempDir()) // -p saves sessions
	}
	if _, ours := testDataHomes.Load(os.Getenv("XDG_CACHE_HOME")); !ours {
		dir := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", dir)
		testDataHomes.Store(dir, true)
	}
	var o, e bytes.Buffer
	// the demo answers a thousand times faster than a user sees it: the
	// built binary's tests (TestTmuxOneShot, the demo chat) keep its pace
	code = runDemoAt(1000, args, strings.NewReader(stdin), &o, &e)
	return o.String(), e.String(), code
}

type expItem struct {
	Type      string    `json:"type"`
	Status    *string   `json:"status"`
	Text      *string   `json:"text"`
	Name      *string   `json:"name"`
	Arguments *string   `json:"arguments"`
	Summary   *[]string `json:"summary"`
}

type expResp struct {
	Status string    `json:"status"`
	Output []expItem `json:"output"`
}

// outItem reads what the expected files summarize from an output item.
func outItem(raw json.RawMessage) expItem {
	var w struct {
		Type, Status, Name string
		Arguments          any
		Content            []struct{ Text, Refusal string }
		Summary            []struct{ Text string }
	}
	json.Unmarshal(raw, &w)
	var text strings.Builder
	for _, c := range w.Content {
		text.WriteString(c.Text + c.Refusal)
	}
	var sum []string
	for _, s := range w.Summary {
		sum = append(sum, s.Text)
	}
	args, _ := w.Arguments.(string)
	t := text.String()
	return expItem{Type: w.Type, Status: &w.Status, Text: &t, Name: &w.Name, Arguments: &args, Summary: &sum}
}

// TestReplayJSONMatchesSDK: `runnel replay F --format json` on every fixture
// the SDK accepts gives the same texts, calls, summaries and statuses.
func TestReplayJSONMatchesSDK(t *testing.T) {
	dir := sharedtest.RealDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
	compared := 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		expPath := filepath.Join(dir, "expected", strings.TrimSuffix(rel, ".sse")+".jsonl")
		expData, err := os.ReadFile(expPath)
		out, stderr, code := runnel(t, "", "replay", f, "--format", "json")
		if strings.Contains(stderr, "warning") {
			t.Errorf("%s: %s", rel, stderr)
		}
		if err != nil {
			if code != exitOK || !json.Valid([]byte(strings.Split(out, "\n")[0])) {
				t.Errorf("%s: exit %d, output %.200s", rel, code, out)
			}
			continue
		}
		compared++
		var exp []expResp
		for _, l := range strings.Split(strings.TrimSpace(string(expData)), "\n") {
			var e expResp
			json.Unmarshal([]byte(l), &e)
			exp = append(exp, e)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 64<<20)
		var got []struct {
			Status string            `json:"status"`
			Output []json.RawMessage `json:"output"`
		}
		for sc.Scan() {
			var g struct {
				Status string            `json:"status"`
				Output []json.RawMessage `json:"output"`
			}
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Fatalf("%s: bad JSON line: %v", rel, err)
			}
			got = append(got, g)
		}
		if len(got) != len(exp) {
			t.Errorf("%s: %d responses, want %d", rel, len(got), len(exp))
			continue
		}
		wantCode := exitOK
		if exp[len(exp)-1].Status == "failed" {
			wantCode = exitFailed
		}
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d", rel, code, wantCode)
		}
		for ri, e := range exp {
			if got[ri].Status != e.Status || len(got[ri].Output) != len(e.Output) {
				t.Errorf("%s: response %d: status %q with %d items, want %q with %d", rel, ri, got[ri].Status, len(got[ri].Output), e.Status, len(e.Output))
				continue
			}
			for i, ei := range e.Output {
				g := outItem(got[ri].Output[i])
				bad := g.Type != ei.Type ||
					(ei.Status != nil && *g.Status != *ei.Status) ||
					(ei.Text != nil && *g.Text != *ei.Text) ||
					(ei.Name != nil && *g.Name != *ei.Name) ||
					(ei.Arguments != nil && *g.Arguments != *ei.Arguments) ||
					(ei.Summary != nil && strings.Join(*g.Summary, "\x00") != strings.Join(*ei.Summary, "\x00"))
				if bad {
					t.Errorf("%s: response %d item %d: got %s", rel, ri, i, got[ri].Output[i][:min(300, len(got[ri].Output[i]))])
				}
			}
		}
	}
	if compared != 34 {
		t.Errorf("compared %d fixtures, want 34", compared)
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

const injection = "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"status\":\"in_progress\"}}\n\n" +
	"data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"safe\\u001b]52;c;cm0gLXJmIH4=\\u0007 \\u001b[2J\\u001b]8;;http://evil\\u001b\\\\link\\u001b]8;;\\u001b\\\\ \\u009b31m red\\rEVIL\"}\n\n" +
	"data: {\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"type\":\"function_call\",\"name\":\"x\\u001b[31m\",\"arguments\":\"{}\\u001b]0;title\\u0007\",\"status\":\"completed\"}}\n\n" +
	"data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\",\"error\":null}}\n\n"

// TestReplayStripsEscapeSequences: nothing from the stream reaches stdout or
// stderr as a control sequence, in any format.
func TestReplayStripsEscapeSequences(t *testing.T) {
	for _, f := range formats {
		out, errOut, code := runnel(t, injection, "replay", "-", "--format", f)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", f, code, errOut)
		}
		for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
			if f == formatANSI && name == "stdout" {
				s = sgr.ReplaceAllString(s, "") // runnel's own styling is the only sequence allowed
				if strings.Contains(out, "evil") {
					t.Errorf("ansi output links to the injected URL: %q", out)
				}
			}
			if strings.ContainsAny(s, "\x1b\x07\r\u009b") {
				t.Errorf("%s %s carries a control character: %q", f, name, s)
			}
		}
		if f == formatMarkdown && !strings.Contains(out, "safe") {
			t.Errorf("markdown lost the text: %q", out)
		}
	}
}

func TestReplayExitStatus(t *testing.T) {
	created := `{"type":"response.created","response":{"id":"r","status":"in_progress"}}`
	delta := `{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"partial"}`
	cases := []struct {
		name, in string
		code     int
		stderr   string
	}{
		{"completed", string(streamtest.Events(created, `{"type":"response.completed","response":{"id":"r","status":"completed"}}`)), exitOK, ""},
		{"incomplete", string(streamtest.Events(created, delta, `{"type":"response.incomplete","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`)), exitIncomplete, "max_output_tokens"},
		{"failed", string(streamtest.Events(created, `{"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"boom"}}}`)), exitFailed, "server_error: boom"},
		{"error event", string(streamtest.Events(created, `{"type":"error","code":"rate_limit","message":"slow down"}`)), exitFailed, "slow down"},
		{"cut off", string(streamtest.Events(created, delta)), exitCutOff, "partial"},
		{"empty", "", exitCutOff, "no response"},
		{"malformed event", string(streamtest.Events(created, `{"type":`, `{"type":"response.completed","response":{"id":"r","status":"completed"}}`)), exitOK, "event 2 at byte"},
	}
	for _, c := range cases {
		out, errOut, code := runnel(t, c.in, "replay", "-", "--format", "markdown")
		if code != c.code || !strings.Contains(errOut, c.stderr) {
			t.Errorf("%s: exit %d, stderr %q, want %d and %q (stdout %q)", c.name, code, errOut, c.code, c.stderr, out)
		}
		for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
			if l != "" && !strings.HasPrefix(l, "runnel: ") {
				t.Errorf("%s: stderr line %q is not one runnel line", c.name, l)
			}
		}
	}
	if _, errOut, code := runnel(t, "", "replay", "/nonexistent/x.sse"); code != exitUsage || !strings.Contains(errOut, "cannot read /nonexistent/x.sse") {
		t.Errorf("unreadable file: %d %q", code, errOut)
	}
	if _, errOut, code := runnel(t, "", "replay", "-", "--format", "yaml"); code != exitUsage || !strings.Contains(errOut, "unknown --format") {
		t.Errorf("bad format: %d %q", code, errOut)
	}
	if _, errOut, code := runnel(t, "", "--bogus"); code != exitUsage || !strings.Contains(errOut, "unknown flag") {
		t.Errorf("bad flag: %d %q", code, errOut)
	}
}

// TestOneShotAgainstFakeServer: -p sends one request with the model, the
// instructions, the prompt and stdin as a text file, and streams the answer.
func TestOneShotAgainstFakeServer(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_9", "Hello", ", world")})
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	out, errOut, code := runnel(t, "some context\n", "-p", "summarize", "--model", "gpt-test", "--instructions", "be brief", "--base-url", srv.URL, "--format", "markdown")
	if code != exitOK || strings.TrimSpace(out) != "Hello, world" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	req := srv.Requests()[0].JSON()
	input, _ := json.Marshal(req["input"])
	if req["model"] != "gpt-test" || req["instructions"] != "be brief" || req["stream"] != true || !strings.Contains(string(input), `"summarize"`) || !strings.Contains(string(input), `\u003cfile path=\"stdin\"\u003e\nsome context\n\u003c/file\u003e`) {
		t.Errorf("request %v", req)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-test-secret" {
		t.Errorf("auth header %q", got)
	}

	srv.Enqueue(streamtest.Unauthorized())
	_, errOut, code = runnel(t, "", "-p", "hi", "--base-url", srv.URL)
	if code != exitFailed || !strings.Contains(errOut, "401") || strings.Contains(errOut, "sk-test-secret") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("401: exit %d stderr %q", code, errOut)
	}
}

func TestOneShotNeedsAPrompt(t *testing.T) {
	_, errOut, code := runnel(t, "", "-p", "  ")
	if code != exitUsage || !strings.Contains(errOut, "no prompt") {
		t.Errorf("exit %d %q", code, errOut)
	}
}

func TestOneShotDemo(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	out, errOut, code := runnel(t, "", "-p", "fail please", "--demo", "--format", "text")
	if code != exitFailed || !strings.Contains(errOut, "demo") || out == "" {
		t.Errorf("demo failure path: exit %d out %q err %q", code, out, errOut)
	}
}

// TestRunnelKeepsOutOfTheUsersDirs: a user whose own XDG_DATA_HOME and
// XDG_CACHE_HOME lie under the temp dir (as on many CI machines) gets
// nothing written there by the suite's in-process runs: runnel() gives
// each test dirs of its own, and keeps only those from call to call.
func TestRunnelKeepsOutOfTheUsersDirs(t *testing.T) {
	user := t.TempDir() // stands for the user's own dirs, under os.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(user, "data"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(user, "cache"))
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "Hi")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "again")})
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	if _, errOut, code := runnel(t, "", "-p", "hello", "--base-url", srv.URL); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := runnel(t, "", "-c", "-p", "and again", "--base-url", srv.URL); code != exitOK {
		t.Fatalf("-c: exit %d: %s", code, errOut)
	}
	if got := srv.Requests(); len(got) != 2 || got[1].PreviousResponseID() != "resp_1" {
		t.Errorf("the second run did not continue the first in the test's own data dir")
	}
	entries, _ := os.ReadDir(user)
	if len(entries) != 0 {
		t.Errorf("the user's dirs were written: %v", entries)
	}
}
