package main

import (
	"strings"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestTmuxModelsAndCost: as a user sees it against a server with /models:
// a real gpt-5 answer puts "ctx 1% · $0.0045" in the status line, /model
// opens the picker, typing filters, enter switches, /status lists it all.
func TestTmuxModelsAndCost(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.SetModels("gpt-5", "gpt-5-mini", "o3")
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse")))
	p := chatPane(t, srv)
	p.say("hi")
	p.waitText("ctx 1% · $0.0045")
	p.say("/model")
	p.waitText("Models 3 of 3")
	p.text("mini")
	p.waitText("Models 1 of 3")
	p.keys("Enter")
	p.waitText("model: gpt-5-mini")
	p.say("/status")
	s := p.waitText("mcp servers")
	for _, want := range []string{"base URL", "↑ in 3727 (3200 cached) · ↓ out 347 (128 reasoning)", "$0.0045"} {
		if !strings.Contains(s, want) {
			t.Errorf("/status lacks %q:\n%s", want, s)
		}
	}
}
