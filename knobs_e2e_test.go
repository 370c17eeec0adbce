package main

import (
	"os"
	"path/filepath"
	"testing"

	"runnel/stream/streamtest"
)

// TestTmuxFastAndLastMessage: in the chat, /fast makes the next request ask
// for the priority tier, a response on another tier gets one line, and on
// quit --output-last-message holds the last answer.
func TestTmuxFastAndLastMessage(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "first answer")},
		streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_b", "second answer"), map[string]any{"service_tier": "default"})})
	last := filepath.Join(t.TempDir(), "last.md")
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-secret", "XDG_DATA_HOME": t.TempDir()}
	p := startPane(t, 100, 30, env, binary(t), "--output-last-message", last)
	p.waitText("Ask anything")
	p.say("one")
	p.waitText("first answer")
	p.waitTurnEnd()
	p.say("/fast")
	p.waitText("fast mode on")
	p.say("two")
	p.waitText("but the server ran this response on default")
	p.quit()
	p.waitText("[exited 0]")
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].JSON()["service_tier"] != nil || reqs[1].JSON()["service_tier"] != "priority" {
		t.Fatalf("%d requests; want none then priority", len(reqs))
	}
	if data, err := os.ReadFile(last); err != nil || string(data) != "second answer" {
		t.Fatalf("last message %q, %v", data, err)
	}
}
