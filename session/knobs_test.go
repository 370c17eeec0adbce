package session

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"runnel/session/knob"
	"runnel/stream"
)

// Each knob goes in the request as set; a refused one is dropped from the
// failed turn and never sent again, text.format is never dropped, and a
// fork keeps what was refused.
func TestKnobsSentAndDroppedWhenRefused(t *testing.T) {
	c := &Conversation{Settings: Settings{Model: "m", Store: true, ServiceTier: "priority", Verbosity: "high", PromptCacheKey: "runnel-x"},
		Format: &stream.TextFormat{Type: "json_schema", Name: "a", Schema: json.RawMessage(`{}`)}}
	t1 := c.Say("one")
	r := t1.Request
	if r.ServiceTier != "priority" || r.PromptCacheKey != "runnel-x" || r.Text == nil || r.Text.Verbosity != "high" || r.Text.Format == nil {
		t.Fatalf("request: %+v text %+v", r, r.Text)
	}
	refuse := func(param string) error {
		return &stream.APIError{Status: http.StatusBadRequest, Code: "unsupported_parameter", Param: param, Message: "Unsupported parameter: '" + param + "'.",
			Names: []stream.ParamName{{Path: param}}}
	}
	e := NewEngine("http://x/v1", nil)
	end := func(err error) Action { return e.Next(Event{Kind: Ended, Err: err}) }
	e.Next(Event{Kind: Sent, Conv: c, Turn: t1})
	if a := end(refuse("text.verbosity")); a.Kind != Resend || a.Request.Text == nil || a.Request.Text.Verbosity != "" || a.Request.Text.Format == nil {
		t.Fatalf("dropped: %+v", a)
	}
	if a := end(refuse("text.format")); a.Kind != Fail {
		t.Fatal("text.format was dropped")
	}
	t1 = c.Say("one again")
	e.Next(Event{Kind: Sent, Conv: c, Turn: t1})
	if a := end(&stream.APIError{Status: 500, Message: "service_tier broke"}); a.Kind != Fail {
		t.Fatal("a 500 was taken for a refusal")
	}
	t1 = c.Say("one more")
	e.Next(Event{Kind: Sent, Conv: c, Turn: t1})
	if a := end(refuse("service_tier")); a.Kind != Resend || t1.Request.ServiceTier != "" {
		t.Fatalf("service_tier: %+v", a)
	}
	t2 := c.Say("two")
	if t2.Request.ServiceTier != "" || t2.Request.Text.Verbosity != "" || t2.Request.PromptCacheKey != "runnel-x" {
		t.Fatalf("next request sends refused knobs: %+v", t2.Request)
	}
	if f := c.Fork(1); !f.Refused(KnobServiceTier) || !f.Refused(KnobVerbosity) || f.Refused(KnobPromptCacheKey) {
		t.Fatalf("fork refused %v", f.RefusedKnobs())
	}
	if n := c.Restart(); !n.Refused(KnobServiceTier) || len(n.Turns) != 0 || n.Settings.ServiceTier != "priority" {
		t.Fatalf("restart: refused %v, %d turns", n.RefusedKnobs(), len(n.Turns))
	}
	c.SwitchProvider()
	if len(c.RefusedKnobs()) != 0 || c.Say("three").Request.ServiceTier != "priority" {
		t.Fatalf("another provider is not asked again: refused %v", c.RefusedKnobs())
	}
}

// A request without knobs has no text block and no tier.
func TestNoKnobsNoFields(t *testing.T) {
	c := &Conversation{Settings: Settings{Model: "m", Store: true}}
	b, _ := json.Marshal(c.Say("hi").Request)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"text", "service_tier", "prompt_cache_key"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s sent: %s", k, b)
		}
	}
}

// TierNotice speaks only when a finished response names another tier than
// the one asked for.
func TestTierNotice(t *testing.T) {
	done := func(tier string) *stream.Snapshot { return &stream.Snapshot{Terminal: true, ServiceTier: tier} }
	cases := []struct {
		asked string
		s     *stream.Snapshot
		say   bool
	}{
		{"priority", done("default"), true},
		{"flex", done("default"), true},
		{"priority", done("priority"), false},
		{"", done("default"), false},
		{"auto", done("default"), false},
		{"priority", done(""), false},
		{"priority", &stream.Snapshot{ServiceTier: "default"}, false}, // not ended
		{"priority", nil, false},
	}
	for _, c := range cases {
		if got := TierNotice(c.asked, c.s) != ""; got != c.say {
			t.Errorf("asked %q, got %+v: notice %v", c.asked, c.s, got)
		}
	}
	if ToggleFast("") != "priority" || ToggleFast("flex") != "priority" || ToggleFast("priority") != "" {
		t.Error("ToggleFast")
	}
}

// Settings keep the knobs through the store.
func TestKnobSettingsStored(t *testing.T) {
	s := Settings{Model: "m", Store: true, ServiceTier: "flex", Verbosity: "low", PromptCacheKey: "runnel-1"}
	if got := knob.FromJSON(s.JSON()); got.ServiceTier != "flex" || got.Verbosity != "low" || got.PromptCacheKey != "runnel-1" {
		t.Fatalf("got %+v", got)
	}
	if a, b := knob.NewCacheKey(), knob.NewCacheKey(); a == b || len(a) != len("runnel-")+16 {
		t.Fatalf("keys %q %q", a, b)
	}
}

// TestRestartIsANewSession: /new keeps the settings and what the server
// refused, but not the last session's server-side conversation, and its
// own prompt cache key is new; a key the config names stays.
func TestRestartIsANewSession(t *testing.T) {
	own := knob.NewCacheKey()
	c := &Conversation{Settings: Settings{Model: "m", ServiceTier: "priority", Conversation: "conv_1", PromptCacheKey: own}}
	n := c.Restart()
	if n.Settings.Conversation != "" || n.Settings.PromptCacheKey == own || !strings.HasPrefix(n.Settings.PromptCacheKey, "runnel-") || n.Settings.ServiceTier != "priority" {
		t.Errorf("after /new: %+v", n.Settings)
	}
	c.Settings.PromptCacheKey = "team-key"
	if k := c.Restart().Settings.PromptCacheKey; k != "team-key" {
		t.Errorf("a configured key became %q", k)
	}
}
