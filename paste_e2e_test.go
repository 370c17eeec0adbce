package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestChatBracketedPaste: tmux's paste-buffer -p sends a bracketed paste with
// CR between lines. A 300-line paste shows as a chip, is sent whole with
// every line break, and a short paste keeps its lines.
func TestChatBracketedPaste(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "got it")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "short one")})
	p := chatPane(t, srv)
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	file := filepath.Join(t.TempDir(), "paste.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	p.tmux("load-buffer", file)
	p.tmux("paste-buffer", "-p", "-t", "t")
	s := p.waitText("[pasted 300 lines]")
	if strings.Contains(s, "pasted line 2") {
		t.Errorf("the paste is shown whole, not as a chip:\n%s", s)
	}
	p.text(" what is this?")
	p.keys("Enter")
	p.waitText("got it")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	text := userText(t, reqs[0].JSON())
	for _, want := range []string{"pasted line 1\npasted line 2\n", "pasted line 299\npasted line 300", "what is this?"} {
		if !strings.Contains(text, want) {
			t.Errorf("the request lacks %q: %q…", want, text[:min(len(text), 80)])
		}
	}
	if n := strings.Count(text, "\n"); n < 299 {
		t.Errorf("the paste arrived with %d line breaks; want 300 lines", n)
	}

	// a short paste is text in the composer, its lines kept
	if err := os.WriteFile(file, []byte("first\nsecond\nthird\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.tmux("load-buffer", file)
	p.tmux("paste-buffer", "-p", "-t", "t")
	p.waitText("third")
	p.keys("Enter")
	p.waitText("short one")
	if text := userText(t, srv.Requests()[1].JSON()); !strings.Contains(text, "first\nsecond\nthird") {
		t.Errorf("short paste sent as %q", text)
	}
}

// userText is the text of the last user message in a request body.
func userText(t *testing.T, body map[string]any) string {
	t.Helper()
	input, _ := body["input"].([]any)
	text := ""
	for _, in := range input {
		m, _ := in.(map[string]any)
		if m["role"] != "user" {
			continue
		}
		parts, _ := m["content"].([]any)
		for _, p := range parts {
			if pm, _ := p.(map[string]any); pm["type"] == "input_text" {
				text, _ = pm["text"].(string)
			}
		}
	}
	return text
}
