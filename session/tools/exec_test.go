package tools

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"runnel/stream"
)

// runOne runs a single call of f with no approval needed.
func runOne(t *testing.T, f Function, args string, h Hooks) Result {
	t.Helper()
	f.Approval = ApproveNever
	if f.Name == "" {
		f.Name = "tool"
	}
	r := NewRunner(Config{
		Functions: []Function{f},
		SecretEnv: []string{"OPENAI_API_KEY", "RUNNEL_TEST_KEY", "RUNNEL_TEST_MCP_TOKEN", "RUNNEL_TEST_MCP_HEADER"},
		APIKeyEnv: []string{"OPENAI_API_KEY", "RUNNEL_TEST_KEY"},
	}, nil, h)
	return r.Run(context.Background(), []Call{{CallID: "call_1", Name: f.Name, Arguments: args}})[0]
}

func TestCommandArgsOnStdinAndInEnv(t *testing.T) {
	res := runOne(t, Function{Command: []string{"sh", "-c", `cat; printf '|%s|%s|%s' "$RUNNEL_TOOL_ARGS" "$RUNNEL_TOOL_NAME" "$RUNNEL_TOOL_CALL_ID"`}}, `{"a": 1}`, Hooks{})
	if want := `{"a": 1}|{"a": 1}|tool|call_1`; res.Status != StatusOK || res.Output != want {
		t.Errorf("got %v %q, want ok %q", res.Status, res.Output, want)
	}
	res = runOne(t, Function{Command: []string{"cat"}}, "", Hooks{})
	if res.Output != "{}" {
		t.Errorf("empty arguments arrive as %q, want {}", res.Output)
	}
}

func TestCommandNoShellUnlessAsked(t *testing.T) {
	// Without shell the line is one argv element: echo prints it verbatim.
	res := runOne(t, Function{Command: []string{"echo", "$HOME; echo injected"}}, "{}", Hooks{})
	if res.Output != "$HOME; echo injected\n" {
		t.Errorf("argv command went through a shell: %q", res.Output)
	}
	res = runOne(t, Function{Command: []string{"echo one; echo two"}, Shell: true}, "{}", Hooks{})
	if res.Output != "one\ntwo\n" {
		t.Errorf("shell command: %q", res.Output)
	}
}

func TestCommandExitStatusAndStderr(t *testing.T) {
	res := runOne(t, Function{Command: []string{"echo out; echo oops >&2; exit 3"}, Shell: true}, "{}", Hooks{})
	if res.Status != StatusFailed || res.ExitCode != 3 || res.Stderr != "oops\n" {
		t.Errorf("got %+v", res)
	}
	if want := "out\n\n[exit status 3]\n[stderr]\noops"; res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	res = runOne(t, Function{Command: []string{filepath.Join(t.TempDir(), "missing")}}, "{}", Hooks{})
	if res.Status != StatusFailed || !strings.HasPrefix(res.Output, "runnel could not run the command: ") {
		t.Errorf("missing command: %+v", res)
	}
	res = runOne(t, Function{Command: []string{"true"}}, "{}", Hooks{})
	if res.Status != StatusOK || res.Output != "(no output)" {
		t.Errorf("silent command: %+v", res)
	}
}

// A command that outlives its timeout is ended and says so, with what it
// printed before. The timeout runs from before the command starts, so a
// shell must have printed before it ends: on a loaded machine the start
// alone can take tens of ms, so the partial output is asked of a command
// with a second (the timeout's own check, on a silent command, keeps 50 ms).
func TestCommandTimeout(t *testing.T) {
	t.Parallel()
	res := runOne(t, Function{Command: []string{"exec sleep 60"}, Shell: true, Timeout: 50 * time.Millisecond}, "{}", Hooks{})
	if res.Status != StatusTimedOut {
		t.Fatalf("status %v, want timed out (%+v)", res.Status, res)
	}
	if want := "timed out after 50ms"; res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	res = runOne(t, Function{Command: []string{"echo partial; exec sleep 60"}, Shell: true, Timeout: time.Second}, "{}", Hooks{})
	if want := "timed out after 1s; partial output:\npartial\n"; res.Status != StatusTimedOut || res.Output != want {
		t.Errorf("%v, output %q, want %q", res.Status, res.Output, want)
	}
}

func TestCommandOutputCap(t *testing.T) {
	res := runOne(t, Function{Command: []string{"head -c 200000 /dev/zero | tr '\\0' a"}, Shell: true}, "{}", Hooks{})
	if !res.Truncated || res.Status != StatusOK {
		t.Fatalf("got %v truncated=%t", res.Status, res.Truncated)
	}
	body, note, ok := strings.Cut(res.Output, "\n[output cut")
	if !ok || len(body) != stream.DefaultBounds.ToolResult || strings.Trim(body, "a") != "" {
		t.Errorf("kept %d bytes before the note, want %d", len(body), stream.DefaultBounds.ToolResult)
	}
	if want := " at 64 KiB; the command printed 200 KB in all — [limits] tool_result_bytes]"; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
}

// A cap inside a multi-byte rune keeps the whole runes before it.
func TestCaptureCutsAtRuneBoundary(t *testing.T) {
	var mu sync.Mutex
	var live strings.Builder
	c := &capture{max: 5, live: func(s string, _ bool) {
		mu.Lock()
		defer mu.Unlock()
		if !utf8.ValidString(s) {
			t.Errorf("live chunk %q splits a rune", s)
		}
		live.WriteString(s)
	}}
	for _, b := range []byte("aé€x") { // 1 + 2 + 3 + 1 bytes, written one at a time
		c.Write([]byte{b})
	}
	got, total := c.result()
	if got != "aé" || total != 7 {
		t.Errorf("result %q %d, want %q 7", got, total, "aé")
	}
	if live.String() != "aé" {
		t.Errorf("live %q", live.String())
	}
}

func TestCommandEnvironmentHidesSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai")
	t.Setenv("RUNNEL_TEST_KEY", "sk-configured")
	t.Setenv("RUNNEL_TEST_OTHER", "kept")
	f := Function{Command: []string{"env"}}
	out := runOne(t, f, "{}", Hooks{}).Output
	for _, secret := range []string{"OPENAI_API_KEY=", "RUNNEL_TEST_KEY="} {
		if strings.Contains(out, secret) {
			t.Errorf("the environment holds %s", secret)
		}
	}
	if !strings.Contains(out, "RUNNEL_TEST_OTHER=kept") {
		t.Error("the environment lost an ordinary variable")
	}
	f.PassAPIKey = true
	out = runOne(t, f, "{}", Hooks{}).Output
	if !strings.Contains(out, "OPENAI_API_KEY=sk-openai") || !strings.Contains(out, "RUNNEL_TEST_KEY=sk-configured") {
		t.Error("pass_api_key did not pass the keys")
	}
}

func TestCommandDir(t *testing.T) {
	dir := t.TempDir()
	res := runOne(t, Function{Command: []string{"pwd"}, Dir: dir}, "{}", Hooks{})
	if got, _ := filepath.EvalSymlinks(strings.TrimSpace(res.Output)); got != mustEval(t, dir) {
		t.Errorf("ran in %q, want %q", res.Output, dir)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 12000: "12 KB", 200000: "200 KB", 3_400_000: "3.4 MB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
