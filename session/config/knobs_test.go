package config

import (
	"strings"
	"testing"

	"runnel/session/knob"
)

// The knobs are config keys and -c overrides, checked like the file's: an
// unknown tier or verbosity is one line naming the key and the values.
func TestKnobKeys(t *testing.T) {
	c, err := Config{}.Override([]string{"service_tier=priority", "verbosity=high", "prompt_cache_key=team-a"}, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Resolve(envOf(nil), Overrides{})
	if err != nil || s.ServiceTier != "priority" || s.Verbosity != "high" {
		t.Fatalf("%+v %v", s, err)
	}
	if ss := s.Session(); ss.ServiceTier != "priority" || ss.Verbosity != "high" || ss.PromptCacheKey != "team-a" {
		t.Fatalf("session settings %+v", ss)
	}
	for _, o := range []string{"service_tier=turbo", "verbosity=loud"} {
		_, err := Config{}.Override([]string{o}, "")
		key, _, _ := strings.Cut(o, "=")
		if err == nil || !strings.Contains(err.Error(), "-c "+key) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", o, err)
		}
	}
	if _, err := (Config{}).Override([]string{"prompt_cache_key=" + strings.Repeat("k", 65)}, ""); err == nil {
		t.Error("a 65-character key was taken")
	}
}

// prompt_cache_key: unset gives each new session a key of its own, kept on
// resume; "off" sends none; a set key is sent as it is.
func TestPromptCacheKeyPerSession(t *testing.T) {
	var s Settings
	a, b := s.Session().PromptCacheKey, s.Session().PromptCacheKey
	if !strings.HasPrefix(a, "runnel-") || a == b {
		t.Fatalf("keys %q %q; want one per session", a, b)
	}
	stored := knob.Settings{Model: "m", PromptCacheKey: a, ServiceTier: "priority"}
	if got := s.Resumed(stored, Overrides{}); got.PromptCacheKey != a || got.ServiceTier != "priority" {
		t.Fatalf("resumed %+v; want the session's key and tier", got)
	}
	if got := s.Resumed(knob.Settings{Model: "m"}, Overrides{}); !strings.HasPrefix(got.PromptCacheKey, "runnel-") {
		t.Fatalf("an old session got no key: %+v", got)
	}
	s.PromptCacheKey, s.ServiceTier = PromptCacheOff, "flex"
	if got := s.Resumed(stored, Overrides{}); got.PromptCacheKey != "" || got.ServiceTier != "flex" || s.Session().PromptCacheKey != "" {
		t.Fatalf("off: %+v", got)
	}
}
