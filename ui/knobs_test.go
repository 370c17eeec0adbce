package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// knobChat is a chat talking to srv with the given settings.
func knobChat(t *testing.T, srv *streamtest.Server, s session.Settings) *Model {
	t.Helper()
	s.Model, s.Store = "gpt-5", true
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: s})
	m.Init()
	return m
}

// knobSlash runs a slash command as the composer sends it.
func knobSlash(t *testing.T, m *Model, name string) {
	t.Helper()
	m.Update(SlashMsg{Name: name})
	pump(t, m, nil)
}

// tierOf is the service_tier a request sent, "" for none.
func tierOf(r streamtest.Recorded) string {
	s, _ := r.JSON()["service_tier"].(string)
	return s
}

// /fast turns the priority tier on, and off again, each with one line.
func TestFastTogglesPriorityTier(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "Quick.")}, streamtest.Reply{SSE: streamtest.Text("resp_b", "Plain.")})
	m := knobChat(t, srv, session.Settings{})
	knobSlash(t, m, "fast")
	if !strings.Contains(plain(m), "fast mode on") {
		t.Fatalf("no notice:\n%s", plain(m))
	}
	say(t, m, "one")
	knobSlash(t, m, "fast")
	if !strings.Contains(plain(m), "fast mode off") {
		t.Fatalf("no off notice:\n%s", plain(m))
	}
	say(t, m, "two")
	reqs := srv.Requests()
	if len(reqs) != 2 || tierOf(reqs[0]) != "priority" || tierOf(reqs[1]) != "" {
		t.Fatalf("tiers sent: %d requests; want priority, then none", len(reqs))
	}
}

// A server that refuses service_tier gets one line, the turn goes again
// without it and is answered, later turns do not send it, and /status says
// it was refused.
func TestChatResendsWithoutRefusedTier(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Refuses("service_tier"),
		streamtest.Reply{SSE: streamtest.Text("resp_a", "Fine.")},
		streamtest.Reply{SSE: streamtest.Text("resp_b", "Again.")})
	m := knobChat(t, srv, session.Settings{ServiceTier: "priority"})
	say(t, m, "one")
	say(t, m, "two")
	v := plain(m)
	if strings.Count(v, "does not take service_tier") != 1 || !strings.Contains(v, "Fine.") || !strings.Contains(v, "Again.") {
		t.Fatalf("want one notice and both answers:\n%s", v)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || tierOf(reqs[0]) != "priority" || tierOf(reqs[1]) != "" || tierOf(reqs[2]) != "" {
		t.Fatalf("%d requests; want the refused one, then two without service_tier", len(reqs))
	}
	if reqs[1].PreviousResponseID() != "" || reqs[2].PreviousResponseID() != "resp_a" {
		t.Fatalf("chains %q, %q", reqs[1].PreviousResponseID(), reqs[2].PreviousResponseID())
	}
	knobSlash(t, m, "status")
	if v := plain(m); !strings.Contains(v, "priority (refused by the server: not sent)") {
		t.Fatalf("/status:\n%s", v)
	}
}

// A response on another tier than the one asked gives one line.
func TestChatSaysDeclinedTier(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_a", "Slow."), map[string]any{"service_tier": "default"})})
	m := knobChat(t, srv, session.Settings{ServiceTier: "priority"})
	say(t, m, "one")
	if v := plain(m); strings.Count(v, "asked for the priority service tier, but the server ran this response on default") != 1 {
		t.Fatalf("want one line:\n%s", v)
	}
}

// The status line shows the session's cache-hit share beside the cost, and
// /status a row for each knob.
func TestStatusLineCacheShareAndKnobRows(t *testing.T) {
	t.Parallel()
	usage := func(in, cached int) map[string]any {
		return map[string]any{"model": "gpt-5", "usage": map[string]any{"input_tokens": in, "output_tokens": 10, "total_tokens": in + 10,
			"input_tokens_details": map[string]any{"cached_tokens": cached}}}
	}
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_a", "One."), usage(1000, 0))},
		streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_b", "Two."), usage(1000, 900))})
	m := knobChat(t, srv, session.Settings{Verbosity: "low", PromptCacheKey: "runnel-k"})
	say(t, m, "one")
	if v := plain(m); !strings.Contains(v, "· cache 0%") {
		t.Fatalf("status line after a cold turn:\n%s", v)
	}
	say(t, m, "two")
	if v := plain(m); !strings.Contains(v, "$0.0017 · cache 45%") { // 900 of 2000 input tokens
		t.Fatalf("status line:\n%s", v)
	}
	body := srv.Requests()[1].JSON()
	if text, _ := body["text"].(map[string]any); text["verbosity"] != "low" || body["prompt_cache_key"] != "runnel-k" {
		t.Fatalf("request: text %v, prompt_cache_key %v", body["text"], body["prompt_cache_key"])
	}
	knobSlash(t, m, "status")
	v := plain(m)
	for _, want := range []string{"service tier", "— (the server's default)", "verbosity", "low", "prompt cache", "runnel-k", "45% of the session's input tokens read from the prompt cache"} {
		if !strings.Contains(v, want) {
			t.Errorf("/status lacks %q:\n%s", want, v)
		}
	}
}

// The cache share is left out until a server says what it cached.
func TestCacheShareNeedsCachedTokensReported(t *testing.T) {
	t.Parallel()
	var c costMeter
	if c.parts() != (Meter{}) || c.cacheText() != "" {
		t.Fatalf("empty meter shows %+v", c.parts())
	}
	c.tokens.Input = 100
	if c.cacheText() != "" {
		t.Fatalf("no report, yet %q", c.cacheText())
	}
	c.cacheSaid, c.tokens.Cached = true, 83
	if c.cacheText() != "cache 83%" {
		t.Fatalf("got %q", c.cacheText())
	}
}
