package session

import (
	"encoding/json"
	"testing"
)

func TestOverrideChangesRequestsUntilReplaced(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"type":"function","name":"shell"}`),
		json.RawMessage(`{"type":"mcp","server_label":"docs"}`),
		json.RawMessage(`{"type":"web_search"}`),
	}
	c := &Conversation{Settings: Settings{Model: "gpt-5", Instructions: "global", ReasoningEffort: "high", Store: true, Tools: tools}}
	c.Override = &Override{Name: "review", Instructions: "review it", Model: "gpt-5-mini", Effort: "low", LimitTools: true, Tools: []string{"docs", "web_search"}}
	for _, turn := range []*Turn{c.Say("x"), c.Begin("")} { // the prompt's turn and a tool round after it
		r := turn.Request
		if r.Model != "gpt-5-mini" || r.Instructions != "review it" || r.Reasoning == nil || r.Reasoning.Effort != "low" {
			t.Fatalf("request %+v", r)
		}
		if len(r.Tools) != 2 || string(r.Tools[0]) != string(tools[1]) || string(r.Tools[1]) != string(tools[2]) {
			t.Fatalf("tools %s", r.Tools)
		}
	}
	if c.Settings.Model != "gpt-5" || c.Settings.Instructions != "global" || len(c.Settings.Tools) != 3 {
		t.Fatalf("settings changed: %+v", c.Settings)
	}
	c.Override = nil
	r := c.Say("y").Request
	if r.Model != "gpt-5" || r.Instructions != "global" || r.Reasoning.Effort != "high" || len(r.Tools) != 3 {
		t.Fatalf("after the prompt's turn: %+v", r)
	}
	// a prompt without instructions or tools keeps the session's
	c.Override = &Override{Name: "x", Model: "o3"}
	if r := c.Say("z").Request; r.Instructions != "global" || len(r.Tools) != 3 || r.Model != "o3" {
		t.Fatalf("partial override: %+v", r)
	}
}
