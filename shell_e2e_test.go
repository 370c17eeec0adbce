package main

// End-to-end test, in tmux, of !command in the composer: it runs in the
// shell, shows its output in a panel and sends nothing; the next message
// carries the output.

import (
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

func TestTmuxShellCommand(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "It printed hello.")})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-shell", "SHELL": "/bin/sh"}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.text("!printf hello")
	p.keys("Enter")
	// the chip is the composer's at once; the panel comes by a message of
	// its own, a frame later at most
	p.waitFor("the output's chip and panel", func(s string) bool {
		return strings.Contains(s, "[!printf hello output · 5 B]") && strings.Contains(s, "│ hello")
	})
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("!printf sent %d requests", n)
	}
	p.text("what did it print?")
	p.keys("Enter")
	p.waitText("It printed hello.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, `path=\"!printf hello\"\u003e\nhello\n`) {
		t.Errorf("the message does not carry the output:\n%s", body)
	}
	p.quit()
	p.waitText("[exited 0]")
}
