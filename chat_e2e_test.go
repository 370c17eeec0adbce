package main

// End-to-end tests of the chat: the real binary in a 100x30 tmux pane, talking
// to a fake Responses server on loopback.

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// chatPane starts the chat against srv.
func chatPane(t *testing.T, srv *streamtest.Server) *pane {
	t.Helper()
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-secret"}, binary(t))
	p.waitText("Ask anything")
	return p
}

// say types a prompt and sends it.
func (p *pane) say(text string) {
	p.text(text)
	p.keys("Enter")
}

// chunks splits s into n-byte deltas.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

const answerMarkdown = "Here is **the plan** in brief.\n\n" +
	"| step | owner |\n|---|---|\n| parse | stream |\n| draw | ui |\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hello from the fence\")\n}\n```\n\n" +
	"That is *all* there is.\n"

func TestChatMarkdownAnswerAndChaining(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_first", chunks(answerMarkdown, 5)...)},
		streamtest.Reply{SSE: streamtest.Text("resp_second", "second answer")})
	p := chatPane(t, srv)
	p.say("make a plan")
	s := p.waitText("That is all there is.")
	for _, want := range []string{"the plan", "parse", "stream", "owner", `println("hello from the fence")`} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	for _, raw := range []string{"```", "**", "|---|"} {
		if strings.Contains(s, raw) {
			t.Errorf("raw markdown %q left on screen:\n%s", raw, s)
		}
	}
	p.say("and then?")
	p.waitText("second answer")
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].PreviousResponseID() != "" || reqs[1].PreviousResponseID() != "resp_first" {
		t.Fatalf("requests: %d, second previous_response_id %q", len(reqs), reqs[len(reqs)-1].PreviousResponseID())
	}
	if input, _ := json.Marshal(reqs[1].JSON()["input"]); strings.Contains(string(input), "make a plan") {
		t.Errorf("the chained request resent old input: %s", input)
	}
}

func TestChatEscStopsAndKeepsPartial(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	gate := make(chan struct{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_slow", "partial words ", "arrive ", "slowly ", "NEVER-SHOWN"), Gate: gate})
	p := chatPane(t, srv)
	p.say("go slowly")
	for i := 0; i < 6; i++ { // created, in_progress, item, part, two deltas
		gate <- struct{}{}
	}
	p.waitText("partial words arrive")
	p.keys("Escape")
	s := p.waitText("stopped")
	if !strings.Contains(s, "partial words arrive") || strings.Contains(s, "NEVER-SHOWN") {
		t.Errorf("screen:\n%s", s)
	}
	if !strings.Contains(lastLines(s, 3), "ready") {
		t.Errorf("status not back to ready:\n%s", s)
	}
}

func TestChatFailedStreamShowsErrorAndPartial(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_f","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"half an answer"}`,
		`{"type":"error","code":"server_error","message":"the model crashed"}`,
		`{"type":"response.failed","response":{"id":"resp_f","status":"failed","output":[],"error":{"code":"server_error","message":"the model crashed"}}}`,
	)})
	p := chatPane(t, srv)
	p.say("try")
	s := p.waitText("the model crashed")
	if !strings.Contains(s, "half an answer") {
		t.Errorf("partial text lost:\n%s", s)
	}
}

func TestChatMCPApprovalRoundTrip(t *testing.T) {
	t.Parallel()
	dir := sharedtest.RealDir(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(filepath.Join(dir, "vercel__ai", "openai-mcp-approval-request.sse")),
		streamtest.FromFile(filepath.Join(dir, "vercel__ai", "openai-mcp-call-after-approval.sse")))
	p := chatPane(t, srv)
	p.say("shorten https://ai-sdk.dev/")
	p.waitText("Allow this tool call?")
	p.keys("y")
	s := p.waitText("password protection")
	if !strings.Contains(s, "zip1.io/UDKvlw") {
		t.Errorf("screen:\n%s", s)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	body := string(reqs[1].Body)
	if !strings.Contains(body, `"type":"mcp_approval_response"`) || !strings.Contains(body, `"approve":true`) || reqs[1].PreviousResponseID() == "" {
		t.Errorf("approval request body: %s", body)
	}
}

func TestChatResizeReflows(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	long := strings.Repeat("reflowing words fill the line ", 12) + "END."
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_r", chunks(long, 7)...)})
	p := chatPane(t, srv)
	p.say("long please")
	p.waitText("END.")
	p.resize(60, 30)
	s := p.waitFor("a 60-column layout", func(s string) bool {
		return strings.Contains(s, "END.") && maxWidth(s) <= 60 && strings.Contains(lastLines(s, 3), "ready")
	})
	if n := strings.Count(s, "reflowing"); n < 10 {
		t.Errorf("text lost in reflow (%d of 12 phrases visible):\n%s", n, s)
	}
}

// TestChatEscapeInjection: sequences in model text, tool names and arguments
// cannot clear the screen, move the cursor, set the title or the clipboard:
// the status line and hint are intact and the title unchanged.
func TestChatEscapeInjection(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	evil := "safe start \x1b[2J\x1b[H\x1b[30;1HPWNED-STATUS \x1b]0;pwned-title\x07 \x1b]52;c;cm0gLXJmIH4=\x07 \x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\ \u009b31m c1 \x1bP1;2|dcs\x1b\\ done\rEVIL"
	delta, _ := json.Marshal(evil)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_x","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","name":"x\u001b[2Jtool","call_id":"c","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\":\"\u001b]52;c;eA==\u0007\"}"}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"m","role":"assistant","content":[]}}`,
		fmt.Sprintf(`{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":%s}`, delta),
		`{"type":"response.completed","response":{"id":"resp_x","status":"completed","output":[]}}`,
	)})
	p := chatPane(t, srv)
	title := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "t", "#{pane_title}"))
	p.say("inject")
	p.waitText("safe start")
	p.waitFor("the turn to end", func(s string) bool { return strings.Contains(lastLines(s, 3), "ready") })
	s := p.screen()
	tail := lastLines(s, 3)
	if strings.Contains(tail, "PWNED") || !strings.Contains(tail, "Ask anything") || !strings.Contains(tail, "enter send") {
		t.Errorf("the bottom of the screen was overwritten:\n%s", s)
	}
	if !strings.Contains(s, "┃ inject") {
		t.Errorf("the transcript was cleared:\n%s", s)
	}
	if got := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "t", "#{pane_title}")); got != title || strings.Contains(got, "pwned") {
		t.Errorf("pane title changed from %q to %q", title, got)
	}
	if out, _ := exec.Command("tmux", "-L", p.socket, "show-buffer").CombinedOutput(); strings.Contains(string(out), "rm -rf") {
		t.Errorf("clipboard (tmux buffer) was set: %q", out)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func maxWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, len([]rune(l)))
	}
	return w
}

// TestChatDemo: with no key configured, the chat starts the labelled demo
// provider and answers.
func TestChatDemo(t *testing.T) {
	t.Parallel()
	p := startPane(t, 100, 30, nil, binary(t))
	s := p.waitText("Ask anything")
	if !strings.Contains(lastLines(s, 2), "DEMO") {
		t.Errorf("the demo is not labelled in the status line:\n%s", s)
	}
	p.say("hello")
	p.waitText("Thinking") // the live reasoning header
	p.waitText("More showcases")
	p.waitTurnEnd()
}

// TestChatFastAnswerEndsInColour: an answer of 60 KB sent at once (a stream
// that outruns the frames, drawn as drafts with code uncoloured) shows its
// end, and the code block at its end then carries chroma's colours.
func TestChatFastAnswerEndsInColour(t *testing.T) {
	t.Parallel()
	var doc strings.Builder
	for i := 0; doc.Len() < 60<<10; i++ {
		fmt.Fprintf(&doc, "## Part %d\n\nSome prose about part %d, long enough to wrap once or twice in a pane a hundred columns wide, with `code` in it.\n\n", i, i)
		fmt.Fprintf(&doc, "```go\nfunc part%d() int {\n\treturn %d // the value\n}\n```\n\n", i, i)
	}
	doc.WriteString("```go\nfunc lastBlock() string {\n\treturn \"end\" // coloured at the end\n}\n```\n\nFAST-END-MARKER\n")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_fast", chunks(doc.String(), 4)...)})
	p := chatPane(t, srv)
	p.say("write a lot")
	p.waitText("FAST-END-MARKER")
	p.waitFor("the last code block in colour", func(string) bool {
		styled := p.tmux("capture-pane", "-p", "-e", "-t", "t")
		for _, row := range strings.Split(styled, "\n") {
			if strings.Contains(row, "lastBlock") {
				return colours(row) >= 3
			}
		}
		return false
	})
}

// colours counts the distinct foreground colours set in a styled row.
func colours(row string) int {
	seen := map[string]bool{}
	for _, part := range strings.Split(row, "\x1b[")[1:] {
		if sgr, _, ok := strings.Cut(part, "m"); ok && strings.HasPrefix(sgr, "38;") {
			seen[sgr] = true
		}
	}
	return len(seen)
}
