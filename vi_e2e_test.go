package main

// End-to-end test of the vi keymap: runnel in a tmux pane with preset =
// "vi" in its config file edits a prompt in normal mode, sends it, then
// navigates the transcript, searches it and copies a block, read back from
// the OSC 52 bytes runnel writes to the pty.

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// viAnswers are the two answers of the test's turns.
var viAnswers = []string{
	"The first answer, about **alpha**:\n\n```sh\necho alpha\n```\n",
	"The second answer, about beta.\n",
}

// viReply is a completed response whose message is text.
func viReply(id, text string) streamtest.Reply {
	q, _ := json.Marshal(text)
	return streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"`+id+`","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m_`+id+`","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":`+string(q)+`}`,
		`{"type":"response.completed","response":{"id":"`+id+`","status":"completed","output":[]}}`,
	)}
}

// TestChatViKeymap: in the vi preset, esc, b, cw and a word fix a typo in
// the prompt and enter in normal mode sends it (the server gets the fixed
// text); ctrl+k enters the navigation mode, k, [[, G move the cursor, /
// finds the first answer and y copies its markdown source: the OSC 52
// payload on the pty is exactly that text. i returns to the composer.
func TestChatViKeymap(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(viReply("resp_v1", viAnswers[0]))
	srv.Enqueue(viReply("resp_v2", viAnswers[1]))
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[keys]\npreset = \"vi\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-secret"}, binary(t), "--config", cfg)
	p.waitText("INSERT")
	p.tmux("set-option", "-g", "set-clipboard", "on")
	raw := filepath.Join(t.TempDir(), "pty.out")
	p.tmux("pipe-pane", "-o", "-t", "t", "cat >> "+shellQuote(raw))

	p.text("tell me about alhpa")
	p.keys("Escape")
	p.waitText("NORMAL")
	p.text("bcw")
	p.waitText("INSERT")
	p.text("alpha")
	p.keys("Escape")
	p.waitText("NORMAL")
	p.keys("Enter")
	p.waitText("echo alpha")
	p.waitFor("the first turn to end", func(s string) bool { return strings.Contains(lastLines(s, 3), "ready") })
	if body := firstResponse(srv.Requests()); !strings.Contains(body, `"tell me about alpha"`) {
		t.Fatalf("the first request does not carry the fixed prompt: %s", body)
	}
	p.say("and beta?")
	p.waitText("about beta.")
	p.waitFor("the second turn to end", func(s string) bool { return strings.Contains(lastLines(s, 3), "ready") })

	p.keys("C-k")
	p.waitText("NAVIGATE")
	p.text("k[[G")
	p.text("/alpha")
	p.waitText("NAVIGATE /alpha")
	p.keys("Enter")
	p.waitText("NAVIGATE · /alpha")
	p.text("n") // the prompt, then the answer: both hold "alpha"
	p.text("y")
	p.waitText("to the terminal's clipboard")
	p.text("i")
	p.waitFor("the composer in insert mode", func(s string) bool {
		return strings.Contains(lastLines(s, 3), "INSERT") && !strings.Contains(s, "NAVIGATE")
	})

	p.tmux("pipe-pane", "-t", "t") // stop recording
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	var copied []string
	for _, m := range osc52RE.FindAllSubmatch(data, -1) {
		b, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("OSC 52 payload %q: %v", m[1], err)
		}
		copied = append(copied, string(b))
	}
	if len(copied) != 1 || copied[0] != viAnswers[0] {
		t.Errorf("OSC 52 payloads on the pty: %+q, want the first answer %+q", copied, viAnswers[0])
	}
}

// firstResponse is the body of the first request for a response.
func firstResponse(reqs []streamtest.Recorded) string {
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/responses") {
			return string(r.Body)
		}
	}
	return "(none)"
}
