package config

import (
	"strings"
	"testing"

	"runnel/session/knob"
)

// TestStateKey: state = "conversation" (in the file or as -c
// state=conversation) reaches the session's settings; "chain" is the
// default (""); another value is one line naming the key and the choices.
func TestStateKey(t *testing.T) {
	env := func(string) string { return "" }
	for _, tc := range []struct{ over, want string }{{"state=conversation", knob.StateConversation}, {"state=chain", ""}, {"model=x", ""}} {
		c, err := Config{}.Override([]string{tc.over}, "")
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Resolve(env, Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		if s.State != tc.want || s.Session().State != tc.want {
			t.Errorf("-c %s: state %q, session %q; want %q", tc.over, s.State, s.Session().State, tc.want)
		}
	}
	_, err := Config{}.Override([]string{"state=threads"}, "")
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "state") || !strings.Contains(err.Error(), "conversation") {
		t.Errorf("state=threads: %v", err)
	}
}

// TestResumedKeepsTheConversation: a resumed session keeps its server-side
// conversation on its provider, takes today's state, and drops the
// conversation when it moves to another provider (the old server's).
func TestResumedKeepsTheConversation(t *testing.T) {
	stored := knob.Settings{Model: "m", Provider: "a", Conversation: "conv_1", State: knob.StateConversation}
	now := Settings{Provider: "a", Model: "m"}
	if r := now.Resumed(stored, Overrides{}); r.Conversation != "conv_1" || r.State != "" {
		t.Errorf("same provider: %+v", r)
	}
	now.Provider = "b"
	if r := now.Resumed(stored, Overrides{}); r.Conversation != "" {
		t.Errorf("another provider kept the old server's conversation: %+v", r)
	}
}
